import Foundation
import Testing

@testable import HomeLayout

/// Replays every input under `Fixtures/fuzz/` through `LayoutFuzzInput.run`, exactly as
/// `Fuzz/LayoutFuzzEntry.swift` runs it under libFuzzer (`make fuzz FUZZ_TARGET=layout`, whose
/// corpus starts from these files). A crasher it finds is added here so it can never come back.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test("fuzz inputs solve or fail cleanly", arguments: names)
    func replay(_ name: String) throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
        let outcome = data.withUnsafeBytes { LayoutFuzzInput.run($0) }
        // Any other input passes by not trapping: it solves or is refused with a message.
        let described = try #require(outcome, "\(name) is empty")
        // A seed is a layout that solves: the fuzzer starts from its branches, not an error's.
        if name.hasPrefix("seed-") {
            #expect(described.hasPrefix("{\"container\""), "\(name): \(described.prefix(200))")
        }
    }

    @Test("the seeds are there") func seedsPresent() {
        #expect(Self.names.contains { $0.hasPrefix("seed-") }, "no seed in \(Self.directory.path)")
    }
}

import Foundation
import Testing

@testable import Varlink

/// Replays every input under `Fixtures/fuzz/` through `VarlinkFuzzInput.run`, exactly as
/// `Fuzz/VarlinkFuzzEntry.swift` runs it under libFuzzer (`make fuzz FUZZ_TARGET=varlink`, whose
/// corpus starts from these files). A finding is added here so it can never come back.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test("the server's decoding and the general one agree on every message", arguments: names)
    func replay(_ name: String) throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
        let outcome = try #require(data.withUnsafeBytes { VarlinkFuzzInput.run($0) }, "\(name) is empty")
        #expect(outcome.disagreement == nil, "\(name)")
        // A seed of calls gives the fuzzer decoded calls to start from, not only refusals.
        if name.hasPrefix("seed-"), name.hasSuffix("-calls") {
            #expect(outcome.calls > 0, "\(name): \(outcome.errors) refused")
        }
    }

    @Test("the seeds are there") func seedsPresent() {
        #expect(Self.names.contains { $0.hasPrefix("seed-") }, "no seed in \(Self.directory.path)")
    }
}

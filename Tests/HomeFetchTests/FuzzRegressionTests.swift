import Foundation
import Testing

@testable import HomeFetch

/// Replays every input under `Fixtures/fuzz/` through `FetchFuzzInput.run`, exactly as
/// `Fuzz/FetchFuzzEntry.swift` runs it under libFuzzer (`make fuzz FUZZ_TARGET=fetch`, whose
/// corpus starts from these files). A finding is added here so it can never come back.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    static func run(_ name: String) throws -> FetchFuzzInput.Outcome {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return try #require(data.withUnsafeBytes { FetchFuzzInput.run($0) }, "\(name) is empty")
    }

    @Test("a body is unchanged under its own digest and parses alike streamed or held back", arguments: names)
    func replay(_ name: String) throws {
        let disagreement = try Self.run(name).disagreement
        #expect(disagreement == nil, "\(name): \(disagreement ?? "")")
    }

    @Test("the seeds are there") func seedsPresent() {
        #expect(Self.names.contains { $0.hasPrefix("seed-") }, "no seed in \(Self.directory.path)")
    }

    // The seeds reach what they are for: a fuzzer started from them mutates readable heads and
    // parsed bodies, not only refusals.

    @Test("the RSS seed's head gives its max-age and its body a document with the channel ttl")
    func rssSeed() throws {
        let outcome = try Self.run("seed-rss-200")
        #expect(outcome.status == 200)
        #expect(outcome.maxAge == 300)
        #expect(outcome.parsed)
        #expect(outcome.ttl == 1800)
    }

    @Test("the interim seed's final head is the 503 and its Retry-After in seconds")
    func interimSeed() throws {
        let outcome = try Self.run("seed-interim-503")
        #expect(outcome.status == 503)
        #expect(outcome.retryAfter == .seconds(120))
    }

    @Test("the HTTP/2 seed's lowercase head gives a quoted max-age, a dated Retry-After and an Atom document")
    func http2Seed() throws {
        let outcome = try Self.run("seed-http2-atom")
        #expect(outcome.status == 200)
        #expect(outcome.maxAge == 60)
        #expect(outcome.retryAfter == .date(secondsSince1970: 1_796_196_480))
        #expect(outcome.parsed)
        #expect(outcome.ttl == nil)
    }

    @Test("the JSON seed's no-cache gives no max-age, and its body a document")
    func jsonSeed() throws {
        let outcome = try Self.run("seed-json-feed")
        #expect(outcome.maxAge == nil)
        #expect(outcome.parsed)
    }
}

import Testing

@testable import HomeFeeds

/// Replays every input under `Fixtures/fuzz/` through `FuzzInput.run`, exactly as
/// `Fuzz/FuzzEntry.swift` runs it under libFuzzer. A crasher found by `make fuzz` is added here
/// so it can never come back.
@Suite struct FuzzRegressionTests {
    @Test("fuzz inputs parse or fail cleanly", arguments: Fixture.names(in: "fuzz"))
    func replay(_ name: String) throws {
        let data = try Fixture.bytes("fuzz/" + name)
        let outcome = data.withUnsafeBytes { FuzzInput.run($0) }
        // Every input in the directory has at least the selector byte, and ends in a document
        // or a described error, never a trap.
        let described = try #require(outcome, "\(name) is empty")
        #expect(!described.isEmpty)
    }
}

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

    @Test("the page-icon seeds reach what they seed: a head's every kind of icon, a manifest's icons")
    func pageIconSeeds() throws {
        // The byte before each body is FuzzInput's selector.
        let page = try Fixture.bytes("fuzz/seed-page-icons.html").dropFirst()
        let parser = HTMLHeadParser(url: "https://example.test/dir/page.html")
        Array(page).withUnsafeBytes { parser.append($0) }
        let icons = parser.finish()
        #expect(icons.isHeadComplete)
        #expect(icons.icons.count == 3)
        #expect(icons.appleTouchIcons.map(\.url) == ["https://example.test/touch-180.png"])
        #expect(icons.manifestURL == "https://example.test/static/app.webmanifest")
        #expect(icons.openGraphImage == "https://example.test/share.jpg")

        let manifest = try Fixture.bytes("fuzz/seed-web-app-manifest.json").dropFirst()
        let listed = try WebAppManifest.icons(Array(manifest), manifestURL: "https://example.test/app.webmanifest")
        #expect(listed.count == 3)
    }
}

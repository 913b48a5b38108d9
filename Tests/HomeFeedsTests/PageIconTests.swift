import Testing

@testable import HomeFeeds

/// Service-page icon discovery: `<head>` links as browsers read them, and web app manifests.
@Suite struct PageIconTests {
    private func icons(_ html: String, url: String = "https://service.example.test/app/") -> (PageIcons, Bool) {
        let parser = HTMLHeadParser(url: url)
        Array(html.utf8).withUnsafeBytes { parser.append($0) }
        let finished = parser.isFinished
        return (parser.finish(), finished)
    }

    @Test("apple-touch-icon, sized icons largest that fits, the manifest, og:image, then /favicon.ico")
    func order() {
        let (found, finished) = icons(
            """
            <!doctype html><html><head><title>S</title>
            <base href="/static/">
            <link rel="icon" href="f16.png" sizes="16x16">
            <link rel="shortcut icon" href="any.ico">
            <link rel="icon" href="logo.svg" type="image/svg+xml" sizes="any">
            <link rel="icon" href="f192.png" sizes="192x192">
            <link rel="icon" href="f4096.png" sizes="4096x4096">
            <link rel="manifest" href="/site.webmanifest">
            <link rel="apple-touch-icon" href="touch.png">
            <meta property="og:image" content="https://cdn.example.test/og.jpg">
            </head><body><p>never read</p></body></html>
            """
        )
        #expect(finished)
        #expect(found.isHeadComplete)
        #expect(
            found.candidates() == [
                .image("https://service.example.test/static/touch.png"),
                // Sized: 192 ≤ 1024 before 16, then the oversized one; the SVG is left out.
                .image("https://service.example.test/static/f192.png"),
                .image("https://service.example.test/static/f16.png"),
                .image("https://service.example.test/static/f4096.png"),
                .manifest("https://service.example.test/site.webmanifest"),
                .image("https://service.example.test/static/any.ico"),
                .image("https://cdn.example.test/og.jpg"),
                .image("https://service.example.test/favicon.ico"),
            ]
        )
    }

    @Test("a head that never ends is not finished, and what it held is still read")
    func endlessHead() {
        let filler = String(repeating: "<meta name=\"x\" content=\"y\">", count: 100)
        let (found, finished) = icons("<html><head><link rel=\"icon\" href=\"/a.png\" sizes=\"32x32\">" + filler)
        #expect(!finished)
        #expect(!found.isHeadComplete)
        #expect(found.icons.map(\.url) == ["https://service.example.test/a.png"])
    }

    @Test("10 000 <link rel=icon> tags: reading stops at the element bound with a bounded list")
    func tenThousandLinks() {
        let links = (0..<10_000).map { "<link rel=\"icon\" href=\"/i\($0).png\" sizes=\"\($0 % 500 + 1)x1\">" }
        let (found, finished) = icons("<html><head>" + links.joined() + "</head></html>")
        #expect(finished)
        #expect(!found.isHeadComplete)
        #expect(found.icons.count == HTMLHeadParser.maxIcons)
    }

    @Test("a body element ends the head; nothing after it counts")
    func bodyEnds() {
        let (found, finished) = icons("<html><head><title>x</title></head><body><link rel=\"icon\" href=\"/late.png\">")
        #expect(finished)
        #expect(found.icons.isEmpty)
        #expect(found.candidates() == [.image("https://service.example.test/favicon.ico")])
    }

    @Test("manifest icons: sizes read, src resolved against the manifest, maskable-only left out")
    func manifest() throws {
        let json = """
            {"name":"S","icons":[
              {"src":"icons/192.png","sizes":"192x192","type":"image/png"},
              {"src":"icons/mask.png","sizes":"512x512","purpose":"maskable"},
              {"src":"icons/512.png","sizes":"512x512","purpose":"any maskable"},
              {"src":42}]}
            """
        let found = try WebAppManifest.icons(Array(json.utf8), manifestURL: "https://service.example.test/m/site.json")
        #expect(
            found.map(\.url) == [
                "https://service.example.test/m/icons/192.png", "https://service.example.test/m/icons/512.png",
            ]
        )
        #expect(PageIcons.ranked(found, maxSide: 1024).map(\.largestSide) == [512, 192])
    }

    @Test("a manifest that is not an object is a clear error")
    func badManifest() {
        #expect(throws: FeedParseError.self) {
            try WebAppManifest.icons(Array("<html>".utf8), manifestURL: "https://service.example.test/m.json")
        }
    }
}

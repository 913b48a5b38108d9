import Foundation
import HomeFeeds
import HomeFetch
import TestSupport
import Testing

/// The sources list (OPML) and `file:` sources.
@Suite(.timeLimit(.minutes(1)))
struct SourceListTests {
    private static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>로컬 공지</title><ttl>90</ttl>
        <item><title>점검 안내</title><link>notice/1</link><guid>n1</guid></item>
        </channel></rss>
        """

    private static let opml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0"><head><title>Sources</title></head><body>
          <outline text="Relative notices" type="rss" xmlUrl="samples/notices.xml"/>
          <outline text="Absolute file" type="rss" xmlUrl="file:///srv/feeds/other.xml"/>
          <outline text="Remote" type="rss" xmlUrl="https://example.test/feed.xml"/>
          <outline text="Folder">
            <outline text="Untyped" xmlUrl="../up.xml"/>
          </outline>
          <outline text="Duplicate" type="rss" xmlUrl="https://example.test/feed.xml"/>
          <outline text="Links doc" type="link" url="samples/links.opml" category="/app-service"/>
          <outline text="Mail" type="link" url="https://mail.example/" category="/main-service"/>
          <outline text="Weather" type="link" url="https://weather.example/" category="weather,/other-service/"/>
          <outline text="FTP" type="rss" xmlUrl="ftp://example.test/feed.xml"/>
          <outline text="Podcast" type="audio" url="https://example.test/a.mp3"/>
        </body></opml>
        """

    @Test("outlines become notice feeds, link documents and service links; paths resolve against the list")
    func classification() throws {
        let document = try FeedParser.parse(Array(Self.opml.utf8), url: "file:///etc/homefeed/feeds/sources.opml")
        guard case .opml(let opml) = document else {
            Issue.record("not OPML: \(document)")
            return
        }
        let list = SourceList(opml: opml)
        #expect(list.title == "Sources")
        // Lines count from the XML declaration (line 1); each source keeps its outline's line.
        #expect(
            list.sources == [
                FeedSource(
                    url: "file:///etc/homefeed/feeds/samples/notices.xml",
                    kind: .notices,
                    title: "Relative notices",
                    line: 3
                ),
                FeedSource(url: "file:///srv/feeds/other.xml", kind: .notices, title: "Absolute file", line: 4),
                FeedSource(url: "https://example.test/feed.xml", kind: .notices, title: "Remote", line: 5),
                FeedSource(url: "file:///etc/homefeed/up.xml", kind: .notices, title: "Untyped", line: 7),
                FeedSource(
                    url: "file:///etc/homefeed/feeds/samples/links.opml",
                    kind: .services,
                    title: "Links doc",
                    section: .appService,
                    line: 10
                ),
            ]
        )
        #expect(
            list.serviceLinks == [
                DirectServiceLink(title: "Mail", url: "https://mail.example/", section: .mainService, order: 0),
                DirectServiceLink(title: "Weather", url: "https://weather.example/", section: .otherService, order: 1),
            ]
        )
        #expect(list.diagnostics.contains { $0.contains("duplicate source https://example.test/feed.xml") })
        // Not fetchable, so not a source: the parser refuses the ftp: link (HomeFeeds' LinkPolicy)
        // and says so, and the list reports the outline, on line 13 (line 1 is the declaration).
        #expect(list.unsupported == [UnsupportedSource(text: "FTP", url: "ftp://example.test/feed.xml", line: 13)])
        #expect(list.diagnostics.contains { $0.contains("\"ftp://") && $0.contains("scheme is not followed") })
        #expect(list.diagnostics.contains { $0.contains("type \"audio\" ignored") })
    }

    @Test("a source URL with a user name or password is refused, and no message shows the password")
    func userinfo() throws {
        let opml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>Sources</title></head><body>
              <outline text="Staff" type="rss" xmlUrl="https://staff:s3cret@intra.example/feed.xml"/>
              <outline text="Links" type="link" url="https://staff@intra.example/links.opml"/>
              <outline text="Old" type="link" url="ftp://staff:s3cret@intra.example/links.opml"/>
              <outline text="At in the path" type="rss" xmlUrl="https://example.test/users/@staff?a=b@c"/>
            </body></opml>
            """
        let document = try FeedParser.parse(Array(opml.utf8), url: "file:///etc/homefeed/sources.opml")
        guard case .opml(let parsed) = document else {
            Issue.record("not OPML: \(document)")
            return
        }
        let list = SourceList(opml: parsed)
        #expect(list.sources.map(\.url) == ["https://example.test/users/@staff?a=b@c"])
        #expect(
            list.unsupported == [
                UnsupportedSource(text: "Staff", url: "https://intra.example/feed.xml", line: 3, problem: .userinfo),
                UnsupportedSource(text: "Links", url: "https://intra.example/links.opml", line: 4, problem: .userinfo),
                UnsupportedSource(text: "Old", url: "ftp://intra.example/links.opml", line: 5),
            ]
        )
        #expect(
            list.unsupported[0].description
                == "outline \"Staff\": https://intra.example/feed.xml: a user name or password in the URL is refused "
                + "(it would show in logs and status); remove it and name a credential file with "
                + "credential=\"NAME\" (docs/configuration.md, \"Authenticated sources\")"
        )
        #expect(!list.unsupported.contains { $0.description.contains("s3cret") })
    }

    @Test("a stray </outline> in the list loses no later source (what homefeedd --check-config counts)")
    func strayEndTag() throws {
        let opml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>Sources</title></head><body>
            <outline text="Group"><outline type="rss" text="A" xmlUrl="https://a.example/a.xml"/></outline>
            </outline>
            <outline type="rss" text="B" xmlUrl="https://b.example/b.xml"/>
            <outline type="rss" text="C" xmlUrl="https://c.example/c.xml"/>
            </body></opml>
            """
        let document = try FeedParser.parse(Array(opml.utf8), url: "file:///etc/homefeed/sources.opml")
        guard case .opml(let parsed) = document else {
            Issue.record("not OPML: \(document)")
            return
        }
        #expect(
            SourceList(opml: parsed).sources.map(\.url) == [
                "https://a.example/a.xml", "https://b.example/b.xml", "https://c.example/c.xml",
            ]
        )
    }

    @Test(
        "category attributes name sections",
        arguments: [
            ("/main-service", HomeSection.mainService), ("other-service", .otherService),
            ("/APP-SERVICE/", .appService), ("news, /app-service", .appService), ("/news", nil), ("", nil),
        ] as [(String, HomeSection?)]
    )
    func sections(_ category: String, _ expected: HomeSection?) {
        #expect(HomeSection(category: category) == expected)
    }

    @Test("a list on disk loads, and its relative file sources fetch, then come back not modified")
    func loadAndFetchLocal() async throws {
        let scratch = try TemporaryDirectory(prefix: "hf-fetch")
        let directory = scratch.url
        let samples = directory.appendingPathComponent("samples", isDirectory: true)
        try FileManager.default.createDirectory(at: samples, withIntermediateDirectories: true)
        try Data(Self.rss.utf8).write(to: samples.appendingPathComponent("notices.xml"))
        try Data(Self.opml.utf8).write(to: directory.appendingPathComponent("sources.opml"))

        let list = try await SourceList.load(path: directory.appendingPathComponent("sources.opml").path)
        let local = try #require(list.sources.first)
        #expect(local.url == samples.appendingPathComponent("notices.xml").absoluteString)

        let first = try await FetchTesting.fetcher.fetch(FetchRequest(url: local.url))
        guard case .fetched(let document) = first, case .feed(let feed) = document.document else {
            Issue.record("expected a feed, got \(first)")
            return
        }
        #expect(feed.title == "로컬 공지")
        #expect(feed.entries.first?.link == samples.appendingPathComponent("notice/1").absoluteString)
        #expect(document.ttl == 5400.0)
        #expect(document.response.status == nil)
        #expect(document.response.validators.etag != nil)

        let second = try await FetchTesting.fetcher.fetch(
            FetchRequest(url: local.url, validators: document.response.validators)
        )
        #expect(second == .notModified(second.response))
    }

    @Test("file sources obey the byte cap and report missing files")
    func localErrors() async throws {
        let scratch = try TemporaryDirectory(prefix: "hf-fetch")
        let directory = scratch.url
        let big = directory.appendingPathComponent("big.xml")
        try Data(repeating: UInt8(ascii: " "), count: 10_000).write(to: big)
        var limits = FetchLimits()
        limits.maxBodyBytes = 4096
        await #expect(
            throws: FetchError(url: big.absoluteString, kind: .bodyTooLarge, bytesReceived: 10_000, byteCap: 4096)
        ) {
            try await FetchTesting.fetcher.fetch(FetchRequest(url: big.absoluteString, limits: limits))
        }
        let missing = directory.appendingPathComponent("missing.xml").absoluteString
        do {
            _ = try await FetchTesting.fetcher.fetch(FetchRequest(url: missing))
            Issue.record("a missing file fetched")
        } catch {
            #expect(error.kind == .file("cannot read: No such file or directory"))
            #expect(error.description == "\(missing): cannot read: No such file or directory")
        }
        await #expect(throws: FetchError.self) {
            try await SourceList.load(path: directory.appendingPathComponent("none.opml").path)
        }
    }
}

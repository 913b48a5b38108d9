import Foundation
import HomeStore
import Testing

/// Service links, and the last manifest per profile.
@Suite struct ServiceLinkTests {
    let links = TestStore.linksURL

    static let main = [
        ServiceLinkInput(
            title: "메일",
            url: "https://mail.example.org",
            section: "/main-service",
            icon: "mail.png",
            order: 1
        ),
        ServiceLinkInput(title: "캘린더", url: "https://cal.example.org", section: "/main-service", order: 0),
        ServiceLinkInput(
            title: "도움말",
            url: "https://help.example.org",
            section: "/other-service",
            description: "자주 묻는 질문",
            order: 0
        ),
    ]

    @Test("links are listed per section in order, with every field")
    func perSection() async throws {
        let test = try await TestStore().withSources()
        #expect(try await test.store.replaceServiceLinks(sourceURL: links, links: Self.main) == 3)
        let main = try await test.store.serviceLinks(section: "/main-service")
        #expect(main.map(\.title) == ["캘린더", "메일"])
        #expect(main[1].icon == "mail.png")
        #expect(main[1].order == 1)
        let other = try await test.store.serviceLinks(section: "/other-service")
        #expect(other.map(\.description) == ["자주 묻는 질문"])
        #expect(
            try await test.store.serviceLinks().map(\.section) == ["/main-service", "/main-service", "/other-service"]
        )
        #expect(try await test.store.serviceLinks(section: "/app-service").isEmpty)
    }

    @Test("replacing swaps the whole set of that source and leaves other sources alone")
    func replace() async throws {
        let test = try await TestStore().withSources()
        let apps = "file:///etc/homefeed/apps.opml"
        try await test.store.upsertSource(SourceInput(url: apps, kind: .services), now: Clock.t0)
        try await test.store.replaceServiceLinks(sourceURL: links, links: Self.main)
        try await test.store.replaceServiceLinks(
            sourceURL: apps,
            links: [ServiceLinkInput(title: "앱", url: "app://x", section: "/main-service", order: 0)]
        )
        try await test.store.replaceServiceLinks(
            sourceURL: links,
            links: [ServiceLinkInput(title: "새 메일", url: "https://mail2", section: "/main-service", order: 5)]
        )
        #expect(try await test.store.serviceLinks(section: "/main-service").map(\.title) == ["앱", "새 메일"])
        #expect(try await test.store.serviceLinks(sourceURL: links).map(\.title) == ["새 메일"])
        #expect(try await test.store.counts().serviceLinks == 2)
    }

    @Test("links can be stored together with their fetch's validators")
    func withFetchRecord() async throws {
        let test = try await TestStore().withSources()
        try await test.store.replaceServiceLinks(
            sourceURL: links,
            links: Self.main,
            fetch: FetchRecord(
                outcome: .fetched(Validators(etag: "\"s1\"")),
                attemptedAt: Clock.t0,
                nextAttempt: nil,
                permanentRedirect: nil
            )
        )
        #expect(try await test.store.source(url: links)?.validators.etag == "\"s1\"")
    }

    @Test("links for a notice source are refused")
    func wrongKind() async throws {
        let test = try await TestStore().withSources()
        let error = try await #require(throws: StoreError.self) {
            try await test.store.replaceServiceLinks(sourceURL: TestStore.feedURL, links: Self.main)
        }
        #expect(error.kind == .wrongSourceKind(url: TestStore.feedURL, kind: .notices))
    }

    @Test("the last manifest per profile is saved, replaced and loaded as bytes")
    func manifests() async throws {
        let test = try await TestStore()
        let phone = StoredManifest(
            profile: "phone",
            version: 1,
            etag: "\"m1\"",
            bytes: Array("{\"v\":1}".utf8),
            generatedAt: Clock.t0
        )
        try await test.store.saveManifest(phone)
        try await test.store.saveManifest(
            StoredManifest(profile: "tablet", version: 1, etag: "\"t1\"", bytes: [], generatedAt: Clock.t0)
        )
        var phone2 = phone
        phone2.version = 2
        phone2.bytes = Array("{\"v\":2}".utf8)
        try await test.store.saveManifest(phone2)
        #expect(try await test.store.loadManifest(profile: "phone") == phone2)
        #expect(try await test.store.loadManifest(profile: "tablet")?.bytes == [])
        #expect(try await test.store.loadManifest(profile: "watch") == nil)
        #expect(try await test.store.loadManifests().map(\.profile) == ["phone", "tablet"])
    }

    @Test("a manifest saved again at the same size writes only the pages that changed to the log")
    func manifestOverwrittenInPlace() async throws {
        let test = try await TestStore()
        // Five pages and more of overflow; the next version differs in its first bytes only.
        // (Versions 2 and 3: SQLite stores 0 and 1 in no bytes at all, so 1 to 2 would change
        // the record's size.)
        var manifest = StoredManifest(
            profile: "phone",
            version: 2,
            etag: "\"m2\"",
            bytes: Array(repeating: UInt8(ascii: "x"), count: 24_000),
            generatedAt: Clock.t0
        )
        try await test.store.saveManifest(manifest)
        #expect(try await test.store.checkpoint())
        manifest.version = 3
        manifest.etag = "\"m3\""
        manifest.bytes[0] = UInt8(ascii: "y")
        try await test.store.saveManifest(manifest)
        let wal = try #require(try FileManager.default.attributesOfItem(atPath: test.path + "-wal")[.size] as? Int)
        let pageSize = 4096
        let frames = (wal - 32) / (24 + pageSize)
        // The row's leaf page and the header; replacing the row rewrote all of its pages.
        #expect(frames <= 3, "\(frames) pages written")
        #expect(try await test.store.loadManifest(profile: "phone") == manifest)
    }
}

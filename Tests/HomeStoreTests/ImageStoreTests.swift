import Foundation
import HomeStore
import Testing

/// Image bookkeeping: notice image URLs, records by URL and content, least-recently-used
/// eviction within a byte budget.
@Suite struct ImageStoreTests {
    @Test("a notice's image URL is stored, and a changed image alone counts as an update")
    func noticeImageURL() async throws {
        let test = try await TestStore().withSources()
        var input = entries(count: 1)
        input[0].imageURL = "https://example.org/a.png"
        var result = try await test.store.ingestNotices(sourceURL: TestStore.feedURL, entries: input, now: Clock.t0)
        #expect(result.inserted == 1)
        #expect(try await test.store.newestNotices(limit: 1).first?.imageURL == "https://example.org/a.png")

        result = try await test.store.ingestNotices(sourceURL: TestStore.feedURL, entries: input, now: Clock.t0)
        #expect(result.unchanged == 1 && result.updated == 0)

        input[0].imageURL = "https://example.org/b.png"
        result = try await test.store.ingestNotices(sourceURL: TestStore.feedURL, entries: input, now: Clock.t0)
        // Same title, link, date and summary: only the image changed, once counted.
        #expect(result.updated == 1 && result.unchanged == 0)
        #expect(try await test.store.newestNotices(limit: 1).first?.imageURL == "https://example.org/b.png")
    }

    @Test("image records, originals, renditions and page icons round-trip")
    func roundTrip() async throws {
        let test = try await TestStore()
        let record = ImageRecord(
            url: "https://example.org/i.png",
            validators: Validators(etag: "\"e\""),
            contentHash: "abc",
            fetchedAt: Clock.t0,
            checkedAt: Clock.t0,
            nextAttempt: Clock.at(Clock.day),
            lastUsed: Clock.t0
        )
        try await test.store.saveImage(record)
        #expect(try await test.store.images(urls: [record.url, "https://example.org/none"]) == [record.url: record])

        let original = ImageOriginal(
            contentHash: "abc",
            file: "images/originals/ab/abc",
            bytes: 100,
            format: "png",
            width: 32,
            height: 16,
            averageColor: "#102030",
            created: Clock.t0,
            lastUsed: Clock.t0
        )
        try await test.store.saveImageOriginal(original)
        #expect(try await test.store.imageOriginals(hashes: ["abc"]) == ["abc": original])

        let rendition = rendition("abc", 64, bytes: 10, lastUsed: 0)
        try await test.store.saveImageRendition(rendition)
        #expect(try await test.store.imageRenditions(hashes: ["abc"]) == [rendition])

        let page = PageIconRecord(
            pageURL: "https://example.org/",
            iconURL: record.url,
            checkedAt: Clock.t0,
            lastUsed: Clock.t0
        )
        try await test.store.savePageIcon(page)
        #expect(try await test.store.pageIcons(pageURLs: [page.pageURL]) == [page.pageURL: page])
        // 100 bytes of original + 10 of rendition.
        #expect(try await test.store.imageCacheBytes() == 110)
    }

    @Test("eviction takes the least recently used first, renditions before their original, never what is kept")
    func eviction() async throws {
        let test = try await TestStore()
        for (hash, used) in [("old", 0.0), ("mid", 100.0), ("new", 200.0), ("kept", -50.0)] {
            try await test.store.saveImageOriginal(
                ImageOriginal(
                    contentHash: hash,
                    file: "o/\(hash)",
                    bytes: 100,
                    created: Clock.t0,
                    lastUsed: Clock.at(used)
                )
            )
            try await test.store.saveImageRendition(rendition(hash, 10, bytes: 50, lastUsed: used))
        }
        // 4 × (100 + 50) = 600 bytes; down to 400 evicts 200 bytes: "old"'s rendition (50, used
        // at 0) and original (100, at 0), then "mid"'s rendition (50, at 100). "kept" is older
        // still but shown.
        let evicted = try await test.store.evictImages(maxBytes: 400, keeping: ["kept"])
        #expect(evicted.map(\.file) == ["r/old-10", "o/old", "r/mid-10"])
        #expect(try await test.store.imageCacheBytes() == 400)
        #expect(try await test.store.imageOriginals(hashes: ["old", "mid", "kept"]).keys.sorted() == ["kept", "mid"])
        #expect(try await test.store.evictImages(maxBytes: 400, keeping: []).isEmpty)
    }

    @Test("use is recorded at most once an hour, and records unused for the cutoff are pruned")
    func touchAndPrune() async throws {
        let test = try await TestStore()
        let url = "https://example.org/i.png"
        try await test.store.saveImage(ImageRecord(url: url, lastUsed: Clock.t0))
        try await test.store.touchImages(urls: [url], pageURLs: [], hashes: [], now: Clock.at(1800))
        #expect(try await test.store.images(urls: [url])[url]?.lastUsed == Clock.t0)
        try await test.store.touchImages(urls: [url], pageURLs: [], hashes: [], now: Clock.at(3600))
        #expect(try await test.store.images(urls: [url])[url]?.lastUsed == Clock.at(3600))
        #expect(try await test.store.pruneImageRecords(unusedSince: Clock.at(3600)) == 0)
        #expect(try await test.store.pruneImageRecords(unusedSince: Clock.at(3601)) == 1)
    }

    @Test("errors of the URLs items show, of pages and of decoding are listed, newest first")
    func errors() async throws {
        let test = try await TestStore().withSources()
        var notice = entries(count: 1)
        notice[0].imageURL = "https://a.example/x.png"
        try await test.store.ingestNotices(sourceURL: TestStore.feedURL, entries: notice, now: Clock.t0)
        try await test.store.replaceServiceLinks(
            sourceURL: TestStore.linksURL,
            links: [
                ServiceLinkInput(
                    title: "Y",
                    url: "https://a.example/",
                    section: "main-service",
                    icon: "https://a.example/y.png",
                    order: 0
                )
            ]
        )
        // Shown by nothing: a candidate a page search passed over.
        try await test.store.saveImage(
            ImageRecord(
                url: "https://a.example/z.png",
                checkedAt: Clock.at(30),
                lastError: "HTTP 410",
                lastUsed: Clock.t0
            )
        )
        try await test.store.saveImage(
            ImageRecord(
                url: "https://a.example/x.png",
                checkedAt: Clock.at(10),
                lastError: "HTTP 404",
                lastUsed: Clock.t0
            )
        )
        try await test.store.saveImage(
            ImageRecord(url: "https://a.example/y.png", contentHash: "h", lastUsed: Clock.t0)
        )
        try await test.store.saveImageOriginal(
            ImageOriginal(
                contentHash: "h",
                file: "o/h",
                bytes: 0,
                decodeError: "too large",
                created: Clock.at(20),
                lastUsed: Clock.t0
            )
        )
        try await test.store.savePageIcon(
            PageIconRecord(
                pageURL: "https://a.example/",
                checkedAt: Clock.at(5),
                lastError: "no icon",
                lastUsed: Clock.t0
            )
        )
        let errors = try await test.store.imageErrors(limit: 10)
        #expect(errors.map(\.url) == ["https://a.example/y.png", "https://a.example/x.png", "https://a.example/"])
        #expect(errors.map(\.error) == ["too large", "HTTP 404", "no icon"])
    }

    private func rendition(_ hash: String, _ side: Int, bytes: Int, lastUsed: Double) -> ImageRendition {
        ImageRendition(
            contentHash: hash,
            boxWidth: side,
            boxHeight: side,
            mode: "fit",
            format: "png",
            file: "r/\(hash)-\(side)",
            pixelWidth: side,
            pixelHeight: side,
            bytes: bytes,
            created: Clock.t0,
            lastUsed: Clock.at(lastUsed)
        )
    }
}

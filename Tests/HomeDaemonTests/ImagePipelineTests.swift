import Foundation
import HomeFetch
import HomeStore
import LogCore
import TestSupport
import Testing
import ThumbnailProtocol

@testable import HomeDaemon

/// The image pipeline's bounds, through the real pipeline (fetcher, `homefeed-thumbnail`, store,
/// cache directory) against the loopback fixture server: the per-pass fetch caps, backoff after
/// a failed fetch, and the cache's size bound. Each test has its own store and cache directory.
@Suite(.timeLimit(.minutes(2)))
struct ImagePipelineTests {
    static let fetcher = FeedFetcher()
    static let box = ImageIndex.RenditionKey(width: 16, height: 16, mode: .fit)

    let scratch: TemporaryDirectory
    let store: Store
    let cache: ImageCache
    /// Paths on the fixture server are `/<case>/<key>-<name>`: the server counts requests by
    /// `<key>-<name>`, and no other test uses this key.
    let key = UUID().uuidString.lowercased()

    init() async throws {
        scratch = try TemporaryDirectory(prefix: "hf-pipe")
        store = try await Store(path: scratch.file("store.sqlite"))
        cache = ImageCache(
            cacheDirectory: try scratch.directory("cache"),
            group: RenditionGroup(name: nil, logger: Logger(label: "test", level: .error, sink: { _ in }))
        )
        try cache.prepare()
    }

    /// Runs one pass of a fresh pipeline over `urls` (each shown in a 16-pixel box) and waits for
    /// it to end.
    func pass(_ urls: [(url: String, source: String)], _ configure: (inout ImageSettings) -> Void = { _ in }) async {
        let pipeline = pipeline(configure)
        await pipeline.needs(
            urls.map { ImageRequirement(subject: .image(url: $0.url, source: $0.source), key: Self.box) }
        )
        await pipeline.waitUntilIdle()
    }

    /// A pipeline on this test's store and cache, with the built helper.
    func pipeline(
        logger: Logger = Logger(label: "test", level: .error, sink: { _ in }),
        _ configure: (inout ImageSettings) -> Void = { _ in }
    ) -> ImagePipeline {
        var settings = ImageSettings()
        settings.helperPath = ThumbnailRendererTests.helperPath
        configure(&settings)
        return ImagePipeline(
            settings: settings,
            fetchLimits: FetchLimits(),
            cache: cache,
            store: store,
            fetcher: Self.fetcher,
            logger: logger,
            onChange: {}
        )
    }

    /// How many requests the server saw for each of `names`.
    func seen(_ server: FixtureServer, _ names: [String]) async throws -> [Int] {
        var counts: [Int] = []
        for name in names { counts.append(try await server.requests("\(key)-\(name)").count) }
        return counts
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: cache.path(relative)) }

    @Test("a pass fetches at most max-images-per-source of a source and max-images in all; the rest wait a pass")
    func caps() async throws {
        let server = try await FixtureServer.shared.value
        let names = ["a1", "a2", "a3", "b1", "b2"]
        let urls = names.map { (url: server.url("/img/\(key)-\($0)?name=icon.png"), source: "feed-\($0.prefix(1))") }
        // Subjects go in URL order: a1, a2 (source a's cap of 2 reached), a3 skipped, b1 (the
        // total cap of 3 reached), b2 skipped.
        await pass(urls) {
            $0.maxImagesPerSource = 2
            $0.maxImages = 3
        }
        #expect(try await seen(server, names) == [1, 1, 0, 1, 0])
        #expect(Set(try await store.images(urls: urls.map(\.url)).keys) == Set([urls[0], urls[1], urls[3]].map(\.url)))
        // The next pass takes the two left; the three fetched are not due again (revalidation
        // after 7 days), so they cost no request and no share of the caps.
        await pass(urls) {
            $0.maxImagesPerSource = 2
            $0.maxImages = 3
        }
        #expect(try await seen(server, names) == [1, 1, 1, 1, 1])
        #expect(try await store.images(urls: urls.map(\.url)).values.allSatisfy { $0.contentHash != nil })
    }

    @Test("a failed image backs off a minute, doubling per failure; a Retry-After of 503 lengthens it")
    func backoff() async throws {
        let server = try await FixtureServer.shared.value
        let failing = server.url("/status/\(key)-e?code=500")
        let busy = server.url("/status/\(key)-r?code=503&retry=7200")
        let urls = [(url: failing, source: "f"), (url: busy, source: "f")]
        await pass(urls)
        var records = try await store.images(urls: [failing, busy])
        var record = try #require(records[failing])
        #expect(record.failures == 1)
        #expect(record.lastError?.contains("HTTP 500") == true)
        // 60 s × 2^(1 − 1) = 60 s (whole seconds in the store: the 60 survives the rounding down).
        #expect(delay(record) == 60)
        // max(60, Retry-After 7200) = 7200.
        #expect(delay(try #require(records[busy])) == 7_200)

        // Backing off: a second pass asks the server for neither.
        await pass(urls)
        #expect(try await seen(server, ["e", "r"]) == [1, 1])

        // Once the minute is over (moved into the past here), one more try and one more failure:
        // 60 s × 2^(2 − 1) = 120 s.
        record.nextAttempt = record.checkedAt?.addingTimeInterval(-1)
        try await store.saveImage(record)
        await pass(urls)
        #expect(try await seen(server, ["e", "r"]) == [2, 1])
        records = try await store.images(urls: [failing])
        record = try #require(records[failing])
        #expect(record.failures == 2)
        #expect(delay(record) == 120)
    }

    /// Seconds from the last attempt to the next.
    func delay(_ record: ImageRecord) -> Double? {
        guard let next = record.nextAttempt, let checked = record.checkedAt else { return nil }
        return next.timeIntervalSince(checked)
    }

    @Test(
        "beyond max-cache-size the least recently used files go, shown ones stay, and an evicted image is fetched again"
    )
    func eviction() async throws {
        let server = try await FixtureServer.shared.value
        let x = (url: server.url("/img/\(key)-x?name=icon.png"), source: "s")
        let y = (url: server.url("/img/\(key)-y?name=photo.jpg"), source: "s")
        await pass([x, y])
        let records = try await store.images(urls: [x.url, y.url])
        let xHash = try #require(records[x.url]?.contentHash)
        let yHash = try #require(records[y.url]?.contentHash)
        let xFiles = try await files(xHash)
        let yFiles = try await files(yHash)
        // An original and one rendition each, on disk.
        #expect(xFiles.paths.count == 2 && yFiles.paths.count == 2)
        #expect((xFiles.paths + yFiles.paths).allSatisfy(exists))

        // x was last used two days ago, y now.
        let old = Date().addingTimeInterval(-2 * 86_400)
        for var original in try await store.imageOriginals(hashes: [xHash]).values {
            original.lastUsed = old
            try await store.saveImageOriginal(original)
        }
        for var rendition in try await store.imageRenditions(hashes: [xHash]) {
            rendition.lastUsed = old
            try await store.saveImageRendition(rendition)
        }
        // Nothing shown, a bound of y's bytes: total x + y > y, so x's rendition, then its
        // original (the oldest) go; then total = y, within the bound, and y stays.
        await pass([]) { $0.maxCacheBytes = yFiles.bytes }
        #expect(!xFiles.paths.contains(where: exists))
        #expect(yFiles.paths.allSatisfy(exists))
        #expect(try await store.imageOriginals(hashes: [xHash]).isEmpty)
        #expect(try await store.imageRenditions(hashes: [xHash]).isEmpty)
        #expect(try await store.imageCacheBytes() == yFiles.bytes)

        // A bound of 1 byte, y shown: what is shown is never evicted.
        await pass([y]) { $0.maxCacheBytes = 1 }
        #expect(yFiles.paths.allSatisfy(exists))

        // x shown again: its record still names its content, whose files are gone, so it is
        // fetched again at once (not at its revalidation, 7 days away) and rendered again.
        await pass([x])
        #expect(try await seen(server, ["x", "y"]) == [2, 1])
        #expect(try await files(xHash).paths.count == 2)
        #expect(try await files(xHash).paths.allSatisfy(exists))
    }

    @Test("files deleted from the cache while the rows remain are fetched and made again at once")
    func deletedFiles() async throws {
        let server = try await FixtureServer.shared.value
        let x = (url: server.url("/img/\(key)-x?name=icon.png"), source: "s")
        await pass([x])
        let hash = try #require(try await store.images(urls: [x.url])[x.url]?.contentHash)
        let made = try await files(hash)
        #expect(made.paths.count == 2 && made.paths.allSatisfy(exists))
        // images/ emptied while the daemon was stopped (docs/storage.md says that is safe).
        for path in made.paths { try FileManager.default.removeItem(atPath: cache.path(path)) }
        // Shown again: fetched without validators, not left for its revalidation 7 days away.
        await pass([x])
        #expect(try await seen(server, ["x"]) == [2])
        #expect(try await files(hash).paths.allSatisfy(exists))
    }

    @Test("bytes refused once are not kept when a server without validators sends them again")
    func refusedNotKept() async throws {
        let server = try await FixtureServer.shared.value
        // A JPEG cut short: its signature passes, decoding fails, the original is refused.
        let t = (url: server.url("/img/\(key)-t?name=photo.jpg&cut=400"), source: "s")
        await pass([t])
        let hash = try #require(try await store.images(urls: [t.url])[t.url]?.contentHash)
        let refused = try #require(try await store.imageOriginals(hashes: [hash])[hash])
        #expect(refused.decodeError != nil && refused.bytes == 0)
        #expect(!exists(refused.file))
        // Due again, with no validators to send: the same bytes come back with a 200.
        var record = try #require(try await store.images(urls: [t.url])[t.url])
        record.validators = Validators()
        record.nextAttempt = Date.distantPast
        try await store.saveImage(record)
        await pass([t])
        #expect(try await seen(server, ["t"]) == [2])
        // Not kept: its record counts no bytes, so the file would escape max-cache-size.
        #expect(!exists(refused.file))
        #expect(try await store.imageCacheBytes() == 0)
    }

    @Test("a page's icon that the helper refuses is looked past: the next candidate is taken in the next pass")
    func refusedIconFallsBack() async throws {
        let server = try await FixtureServer.shared.value
        let page = server.url("/page/\(key)?variant=broken")
        let subject = ImageSubject(kind: .page, url: page, source: "s")
        let pipeline = pipeline()
        // First pass: the apple-touch-icon ranks first, fetches as a JPEG, and is refused.
        await pipeline.needs([ImageRequirement(subject: subject, key: Self.box)])
        await pipeline.waitUntilIdle()
        let broken = server.url("/img/\(key)-broken?name=photo.jpg&cut=400")
        #expect(try await store.pageIcons(pageURLs: [page])[page]?.iconURL == broken)
        // Second pass: the refused icon is passed over for the next candidate, which renders.
        await pipeline.needs([ImageRequirement(subject: subject, key: Self.box)])
        await pipeline.waitUntilIdle()
        let good = server.url("/img/\(key)-good?name=icon.png")
        #expect(try await store.pageIcons(pageURLs: [page])[page]?.iconURL == good)
        let hash = try #require(try await store.images(urls: [good])[good]?.contentHash)
        #expect(try await files(hash).paths.allSatisfy(exists))
    }

    @Test(
        "a service page whose URL has a user name and password is not fetched for an icon, and is logged once without them"
    )
    func pageWithUserinfo() async throws {
        let server = try await FixtureServer.shared.value
        let page = "http://reader:secret@127.0.0.1:\(server.port)/page/\(key)"
        let log = LogRecorder()
        let pipeline = pipeline(logger: Logger(label: "images", level: .debug, sink: log.sink))
        for _ in 0..<2 {
            await pipeline.needs([
                ImageRequirement(subject: ImageSubject(kind: .page, url: page, source: "s"), key: Self.box)
            ])
            await pipeline.waitUntilIdle()
        }
        #expect(try await server.requests(key).isEmpty)
        #expect(try await store.pageIcons(pageURLs: [page]).isEmpty)
        let shown = server.url("/page/\(key)")
        #expect(log.lines.filter { $0.contains(shown) }.count == 1, "\(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("<6>") && $0.contains("\(shown): not searched for an icon") })
        #expect(!log.lines.contains { $0.contains("secret") }, "\(log.lines)")
    }

    @Test(
        "an icon an older version found for a page whose URL has a user name and password is neither fetched nor shown"
    )
    func savedIconOfPageWithUserinfo() async throws {
        let server = try await FixtureServer.shared.value
        let page = "http://reader:secret@127.0.0.1:\(server.port)/page/\(key)"
        // As an older version saved it: the page's icon resolved against its URL, userinfo and all.
        let icon = "http://reader:secret@127.0.0.1:\(server.port)/img/\(key)-old?name=icon.png"
        try await store.savePageIcon(PageIconRecord(pageURL: page, iconURL: icon, checkedAt: Date(), lastUsed: Date()))
        let subject = ImageSubject(kind: .page, url: page, source: "s")
        let pipeline = pipeline()
        await pipeline.needs([ImageRequirement(subject: subject, key: Self.box)])
        await pipeline.waitUntilIdle()
        #expect(try await seen(server, ["old"]) == [0])
        #expect(try await store.images(urls: [icon]).isEmpty)
        let index = try await ImageIndex.load([subject], store: store, cache: cache)
        #expect(index == ImageIndex(entries: [:]))
    }

    @Test("a helper that cannot start is logged once for its batch, not once per image")
    func helperStartFailureLoggedOnce() async throws {
        let server = try await FixtureServer.shared.value
        let log = LogRecorder()
        let pipeline = pipeline(logger: Logger(label: "images", level: .debug, sink: log.sink)) {
            $0.helperPath = "/nonexistent/homefeed-thumbnail"
        }
        // Three originals (the same bytes would be one), all in one batch.
        await pipeline.needs(
            ["icon.png", "photo.jpg", "favicon.ico"].map {
                ImageRequirement(
                    subject: .image(url: server.url("/img/\(key)-\($0)?name=\($0)"), source: "s"),
                    key: Self.box
                )
            }
        )
        await pipeline.waitUntilIdle()
        let failures = log.lines.filter { $0.contains("cannot start") }
        #expect(failures.count == 1, "\(failures)")
        #expect(failures.first?.hasPrefix("<3>") == true)
        #expect(failures.first?.hasSuffix("; 3 images tried again in a later pass") == true, "\(failures)")
    }

    @Test("an image whose content changes keeps its old files through that pass: the served version links to them")
    func replacedContentOutlivesItsPass() async throws {
        let file = URL(fileURLWithPath: scratch.file("icon"))
        let images = ThumbnailRendererTests.images
        try Data(contentsOf: images.appendingPathComponent("icon.png")).write(to: file)
        let x = (url: file.absoluteString, source: "s")
        await pass([x])
        let old = try #require(try await store.images(urls: [x.url])[x.url]?.contentHash)
        let oldFiles = try await files(old).paths
        #expect(oldFiles.count == 2 && oldFiles.allSatisfy(exists))
        // New bytes behind the same URL, due now; a cache bound that keeps only what is needed.
        try Data(contentsOf: images.appendingPathComponent("photo.jpg")).write(to: file)
        var record = try #require(try await store.images(urls: [x.url])[x.url])
        record.nextAttempt = Date.distantPast
        try await store.saveImage(record)
        await pass([x]) { $0.maxCacheBytes = 1 }
        let new = try #require(try await store.images(urls: [x.url])[x.url]?.contentHash)
        #expect(new != old)
        // The version served during that pass still showed the old files: they stayed.
        #expect(oldFiles.allSatisfy(exists))
        #expect(try await files(old).paths.count == 2)
        // Once the next version shows the new content, the old files may go.
        await pass([x]) { $0.maxCacheBytes = 1 }
        #expect(try await files(old).paths.isEmpty)
        #expect(!oldFiles.contains(where: exists))
        let newFiles = try await files(new).paths
        #expect(newFiles.count == 2 && newFiles.allSatisfy(exists))
    }

    /// The original's and the renditions' files (relative to the cache directory) and bytes as
    /// the store records them.
    func files(_ hash: String) async throws -> (paths: [String], bytes: Int) {
        let originals = try await store.imageOriginals(hashes: [hash]).values
        let renditions = try await store.imageRenditions(hashes: [hash])
        return (
            originals.map(\.file) + renditions.map(\.file),
            originals.reduce(0) { $0 + $1.bytes } + renditions.reduce(0) { $0 + $1.bytes }
        )
    }
}

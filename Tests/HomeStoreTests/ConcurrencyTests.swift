import Foundation
import HomeStore
import Testing

/// The actor's executor and concurrent use: from many tasks, and from a second connection.
@Suite struct ConcurrencyTests {
    @Test("the store's code runs on its own dispatch queue, not on the cooperative pool")
    func runsOnItsQueue() async throws {
        let test = try await TestStore()
        #expect(await test.store._runsOnStoreQueue())
    }

    @Test("many concurrent callers are serialized by the actor; every write lands once")
    func concurrentCallers() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.historyLimit = 1_000
        let test = try await TestStore(configuration).withSources()
        let store = test.store
        let ids = try await withThrowingTaskGroup(of: Int64.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try await store.recordHistory(
                        HistoryInput(time: Clock.at(Double(index)), title: "\(index)", kind: "service")
                    )
                }
            }
            group.addTask {
                try await store.ingestNotices(sourceURL: TestStore.feedURL, entries: entries(count: 500), now: Clock.t0)
                return -1
            }
            return try await group.reduce(into: Set<Int64>()) { $0.insert($1) }
        }
        #expect(ids.count == 41)
        let counts = try await store.counts()
        #expect(counts.historyEvents == 40 && counts.notices == 500)
    }

    @Test("two stores on one file (daemon and a tool) see each other's commits")
    func twoConnections() async throws {
        let test = try await TestStore().withSources()
        let second = try await Store(path: test.path, configuration: .unlimited, now: Clock.t0)
        try await test.store.ingestNotices(sourceURL: TestStore.feedURL, entries: entries(count: 10), now: Clock.t0)
        #expect(try await second.noticeCount(sourceURL: TestStore.feedURL) == 10)
        let result = try await second.ingestNotices(
            sourceURL: TestStore.feedURL,
            entries: entries(count: 12),
            now: Clock.at(60)
        )
        #expect(result.inserted == 2 && result.unchanged == 10)
        #expect(try await test.store.noticeCount(sourceURL: TestStore.feedURL) == 12)
    }

    @Test("a version's rows are the four reads they stand for, read together")
    func homeRows() async throws {
        let test = try await TestStore().withSources()
        try await test.store.ingestNotices(sourceURL: TestStore.feedURL, entries: entries(count: 10), now: Clock.t0)
        try await test.store.replaceServiceLinks(
            sourceURL: TestStore.linksURL,
            links: [
                ServiceLinkInput(title: "도서관", url: "https://example.org/library", section: "main-service", order: 0)
            ]
        )
        for minute in 0..<3 {
            try await test.store.recordHistory(
                HistoryInput(time: Clock.at(Double(minute) * 60), title: "열람 \(minute)", kind: "open")
            )
        }
        let rows = try await test.store.homeRows(historyLimit: 2, noticeLimit: 4)
        #expect(rows.history == (try await test.store.recentHistory(limit: 2)))
        #expect(rows.history.map(\.title) == ["열람 2", "열람 1"])
        #expect(rows.notices == (try await test.store.newestNotices(limit: 4)))
        #expect(rows.notices.count == 4)
        #expect(rows.sources == (try await test.store.sources()))
        #expect(rows.serviceLinks == (try await test.store.serviceLinks()))
        #expect(rows.serviceLinks.map(\.title) == ["도서관"])
    }

    @Test("checkpoint empties the write-ahead log into the file; the store goes on writing")
    func checkpoint() async throws {
        let test = try await TestStore().withSources()
        try await test.store.ingestNotices(sourceURL: TestStore.feedURL, entries: entries(count: 100), now: Clock.t0)
        let wal = test.path + "-wal"
        #expect(try fileSize(wal) > 0)
        #expect(try await test.store.checkpoint())
        #expect(try fileSize(wal) == 0)
        // A fresh connection reads everything from the file alone.
        let reader = try await Store(path: test.path, configuration: .unlimited, now: Clock.t0)
        #expect(try await reader.noticeCount(sourceURL: TestStore.feedURL) == 100)
        try await test.store.recordHistory(HistoryInput(time: Clock.t0, title: "after", kind: "service"))
        #expect(try fileSize(wal) > 0)
    }

    private func fileSize(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }
}

/// What the store holds in memory between uses.
@Suite struct MemoryTests {
    @Test("releaseMemory frees the page cache an ingest filled; the store still reads")
    func releaseMemory() async throws {
        let test = try await TestStore().withSources()
        try await test.store.ingestNotices(sourceURL: TestStore.feedURL, entries: entries(count: 2_000), now: Clock.t0)
        let filled = await test.store._pageCacheBytes()
        // 2 000 notices of ~100 bytes are far more than one 4 KiB page.
        #expect(filled > 64 * 1024)
        await test.store.releaseMemory()
        let released = await test.store._pageCacheBytes()
        #expect(released < filled / 4)
        #expect(try await test.store.noticeCount(sourceURL: TestStore.feedURL) == 2_000)
    }
}

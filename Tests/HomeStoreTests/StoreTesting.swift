import Foundation
import HomeStore
import TestSupport

/// Fixed times, so no test depends on the wall clock.
enum Clock {
    /// 2026-09-21 14:13:20 UTC.
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    static let day: Double = 86_400
}

extension StoreConfiguration {
    /// No retention limits, so tests that are not about retention see every entry.
    static var unlimited: StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.maxEntriesPerSource = nil
        configuration.maxAge = nil
        return configuration
    }
}

/// A store in a fresh temporary directory; keep `directory` alive as long as the store.
struct TestStore {
    let directory: TemporaryDirectory
    let store: Store
    var path: String { directory.file("store.sqlite") }

    static let feedURL = "https://example.org/feed.xml"
    static let linksURL = "file:///etc/homefeed/services.opml"

    init(_ configuration: StoreConfiguration = .unlimited) async throws {
        directory = try TemporaryDirectory()
        store = try await Store(path: directory.file("store.sqlite"), configuration: configuration, now: Clock.t0)
    }

    /// Adds the notice source `feedURL` and the service source `linksURL`.
    func withSources(maxEntries: Int? = nil, maxAge: Duration? = nil) async throws -> TestStore {
        try await store.upsertSource(
            SourceInput(url: Self.feedURL, kind: .notices, title: "공지", maxEntries: maxEntries, maxAge: maxAge),
            now: Clock.t0
        )
        try await store.upsertSource(
            SourceInput(url: Self.linksURL, kind: .services, section: "/main-service"),
            now: Clock.t0
        )
        return self
    }
}

/// `count` entries `prefix-0` … published a minute apart from a day before `t0`, the last one
/// the newest.
func entries(_ prefix: String = "e", count: Int, start: Int = 0, summary: String = "요약") -> [NoticeInput] {
    (start..<(start + count)).map { index in
        NoticeInput(
            entryID: "\(prefix)-\(index)",
            title: "제목 \(index)",
            link: "https://example.org/\(prefix)/\(index)",
            published: Clock.at(-Clock.day + Double(index) * 60),
            summary: summary
        )
    }
}

import HomefeedVersion

/// HomeFetch: getting bytes from `file:` and `http(s):` sources, conditional GET, limits, and
/// the polite per-source scheduler with backoff (architecture.md, issue 4).
///
/// HTTP runs on libcurl's multi interface (`CCurl`), on one thread, never FoundationNetworking;
/// HomeFeeds parses the bytes as they arrive. It never touches SQLite: fetch state is a plain value
/// (`SourceFetchState`) that the scheduler hands to a `FetchStatePersisting` hook, and parsed
/// documents go to a `FetchedDocumentSink`; the daemon implements both with HomeStore. It
/// never logs by itself: the scheduler takes a logging closure.
public enum HomeFetch {
    /// Where a site operator who sees homefeed in their logs can read about it.
    ///
    /// A placeholder under the reserved `.invalid` TLD until the project has a public home; the
    /// daemon should pass its real URL through `FeedFetcher.Configuration.userAgent`.
    public static let projectURL = "https://homefeed.invalid/"

    /// `homefeed/<version> (+<project URL>)`: an honest User-Agent, as feed readers send.
    public static let defaultUserAgent = "homefeed/\(homefeedVersion) (+\(projectURL))"
}

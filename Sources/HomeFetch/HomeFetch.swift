import HomefeedVersion

// HomeFetch: getting bytes from `file:` and `http(s):` sources, conditional GET, limits, and
// the polite per-source scheduler with backoff (architecture.md).
//
// HTTP runs on libcurl's multi interface (`CCurl`), on one thread, never FoundationNetworking;
// HomeFeeds parses the bytes as they arrive. It never touches SQLite: fetch state is a plain
// value (`SourceFetchState`) that the scheduler hands to a `FetchStatePersisting` hook, and
// parsed documents go to a `FetchedDocumentSink`; the daemon implements both with HomeStore.
// It never logs by itself: the scheduler takes a logging closure.

/// What homefeed says it is when it fetches: an honest `User-Agent`, as feed readers send.
public enum UserAgent {
    /// Where a site operator who sees homefeed in their logs can read about it.
    ///
    /// A placeholder under the reserved `.invalid` TLD until the project has a public home; the
    /// daemon may pass its real URL through `FeedFetcher.Configuration.userAgent`.
    public static let projectURL = "https://homefeed.invalid/"

    /// `homefeed/<version> (+<project URL>)`, the version from `HomefeedVersion`.
    public static let homefeed = "homefeed/\(homefeedVersion) (+\(projectURL))"
}

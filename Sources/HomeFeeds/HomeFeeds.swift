/// HomeFeeds: bytes → plain values (RSS, Atom, RDF, JSON Feed, OPML).
///
/// Never touches files, the network or SQLite. Filled in by the feed-parsing issue.
public enum HomeFeeds {}

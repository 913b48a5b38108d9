public import FoundationEssentials

/// One feed entry to ingest, as the daemon maps it from a parsed feed.
public struct NoticeInput: Sendable, Hashable {
    /// The entry's identity within its feed (the feed layer's `entryID`); empty IDs are skipped.
    public var entryID: String
    /// The entry's title.
    public var title: String?
    /// The entry's link.
    public var link: String?
    /// The entry's publication (or update) date.
    public var published: Date?
    /// The entry's summary text.
    public var summary: String?
    /// The URL of the entry's image (the first candidate that fits the daemon's limits), if
    /// any. Not part of the content hash: a changed image updates the row on its own.
    public var imageURL: String?

    /// Creates an entry to ingest.
    public init(
        entryID: String,
        title: String? = nil,
        link: String? = nil,
        published: Date? = nil,
        summary: String? = nil,
        imageURL: String? = nil
    ) {
        self.entryID = entryID
        self.title = title
        self.link = link
        self.published = published
        self.summary = summary
        self.imageURL = imageURL
    }
}

/// A stored notice. Times read back in whole seconds. Sendable: a plain value.
///
/// HomeDaemon's `Notice` (in `HomeContent`) mirrors it without the bookkeeping below: the
/// assembler's input is plain values built without a store, and the daemon maps a snapshot of
/// these to it.
public struct StoredNotice: Sendable, Hashable, Identifiable {
    /// The row id.
    public var id: Int64
    /// The notice source (`Source.id`).
    public var sourceID: Int64
    /// The configured URL of the source.
    public var sourceURL: String
    /// The configured title of the source.
    public var sourceTitle: String?
    /// The entry's identity within its feed.
    public var entryID: String
    /// The entry's title.
    public var title: String?
    /// The entry's link.
    public var link: String?
    /// The entry's publication (or update) date.
    public var published: Date?
    /// The entry's summary text.
    public var summary: String?
    /// The ingest that first stored the entry.
    public var firstSeen: Date
    /// The last ingest whose document contained this entry, to within an hour (see
    /// ``Store/ingestNotices(sourceURL:entries:now:fetch:)``).
    public var lastSeen: Date
    /// 64-bit FNV-1a of title, link, published and summary: a change means an update.
    public var contentHash: Int64
    /// The time notices are ordered by: `published` once it was not in the future at a sighting
    /// (not after `lastSeen`), else `firstSeen`: a future-dated entry does not stick to the top,
    /// and one first seen under a clock that was behind moves to its date when seen again.
    public var sortDate: Date
    /// The URL of the entry's image, if any.
    public var imageURL: String?
}

/// What one ``Store/ingestNotices(sourceURL:entries:now:fetch:)`` did. The counts add up
/// to the number of entries given.
public struct IngestResult: Sendable, Hashable {
    /// New entries stored.
    public var inserted = 0
    /// Known entries whose content or image changed, or whose date orders them from this
    /// sighting on (it was in the future at every earlier one).
    public var updated = 0
    /// Known entries with the same content and place (their `lastSeen` moves on, to the hour).
    public var unchanged = 0
    /// Repeats of an entry ID earlier in the same document (the first one wins).
    public var duplicates = 0
    /// New entries not stored: removed before (tombstoned), older than the source's
    /// maximum age, or with an empty entry ID.
    public var skipped = 0
    /// Notices the source's retention removed after the ingest, in the same transaction.
    public var pruned = 0

    /// No entries, all counts zero.
    public init() {}
}

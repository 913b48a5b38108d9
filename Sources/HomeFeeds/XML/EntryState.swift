/// Fields of the entry being read; ranks per `FieldRank` (`.none` while unset).
struct EntryState {
    /// Set with `XMLFeedBuilder.recordNativeID`, which keeps `nativeIDHash` beside it.
    var nativeID: String?
    /// `HashedKey.hashCode(of: nativeID)`, computed when the id is read (see `recordNativeID`).
    var nativeIDHash: Int?
    var guidIsPermaLink = true
    var guidLink: String?
    var title: String?
    var titleRank = FieldRank.none
    var link: String?
    var alternates = AlternateLinkChoice()
    var summary: String?
    var summaryRank = FieldRank.none
    var published: FeedTimestamp?
    var dateRank = FieldRank.none
    var enclosures: [FeedEnclosure] = []
    /// The URLs of `enclosures`, filled from the second one on (most entries have at most one).
    var enclosureURLs: Set<String> = []
    var images = ImageCandidates()

    /// Every field as `EntryState()` sets it (for assertions: `beginEntry` reuses such a state).
    var isFresh: Bool {
        nativeID == nil && nativeIDHash == nil && guidIsPermaLink && guidLink == nil && title == nil
            && titleRank == FieldRank.none && link == nil && alternates.chosen == nil && summary == nil
            && summaryRank == FieldRank.none && published == nil && dateRank == FieldRank.none && enclosures.isEmpty
            && enclosureURLs.isEmpty && images.ordered.isEmpty
    }
}

/// Which of several elements for the same value wins: the lowest rank present (for dates,
/// the lowest rank that parses), the first in document order within a rank (`feed-parsing.md`
/// §2, extended by the Dublin Core and Atom 0.3 equivalents).
enum FieldRank {
    static let none: UInt8 = .max
    /// `title`; Atom `title`.
    static let title: UInt8 = 0
    /// `dc:title`.
    static let dcTitle: UInt8 = 1
    /// RSS `description`, Atom `summary`.
    static let summary: UInt8 = 0
    /// `dc:description`.
    static let dcDescription: UInt8 = 1
    /// `content:encoded`, Atom `content`.
    static let content: UInt8 = 2
    /// RSS `pubDate`, Atom `published`, Atom 0.3 `issued`.
    static let published: UInt8 = 0
    /// `dcterms:issued`.
    static let dcTermsIssued: UInt8 = 1
    /// `dcterms:created`, Atom 0.3 `created`.
    static let created: UInt8 = 2
    /// `dc:date`, Atom `updated`, Atom 0.3 `modified`.
    static let updated: UInt8 = 3
    /// `dcterms:modified`.
    static let dcTermsModified: UInt8 = 4
}

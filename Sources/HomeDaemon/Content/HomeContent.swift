public import FoundationEssentials

/// Everything the home screen shows, as plain values: a snapshot taken from the store.
///
/// The daemon assembles sections from it (``HomeAssembler``); nothing here knows about SQLite.
public struct HomeContent: Sendable, Equatable {
    public var user: UserProfile
    /// Newest first.
    public var history: [HistoryEntry]
    /// The newest of every configured source, newest first: what `notices` runs take.
    public var notices: [Notice]
    /// The newest of one source each, by its URL, newest first: what `notices@URL` runs take,
    /// read apart so that other sources' newer notices never crowd them out.
    public var sourceNotices: [String: [Notice]]
    /// Service links by section key (`main-service`, `other-service`, `app-service`), in order.
    public var services: [String: [ServiceLink]]

    public init(
        user: UserProfile,
        history: [HistoryEntry] = [],
        notices: [Notice] = [],
        sourceNotices: [String: [Notice]] = [:],
        services: [String: [ServiceLink]] = [:]
    ) {
        self.user = user
        self.history = history
        self.notices = notices
        self.sourceNotices = sourceNotices
        self.services = services
    }
}

/// The person the history header greets.
public struct UserProfile: Sendable, Equatable {
    public var name: String
    public var subtitle: String?

    public init(name: String, subtitle: String? = nil) {
        self.name = name
        self.subtitle = subtitle
    }
}

/// Something the user opened or did.
public struct HistoryEntry: Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var link: String?
    public var kind: String?
    public var at: Date

    public init(id: Int64, title: String, link: String? = nil, kind: String? = nil, at: Date) {
        self.id = id
        self.title = title
        self.link = link
        self.kind = kind
        self.at = at
    }
}

/// One entry of a notice feed, identified by its source and its entry id.
///
/// The assembler's view of HomeStore's `StoredNotice`, which it mirrors without the store's
/// bookkeeping (row ids, first and last seen, content hash, sort date): ``HomeContent`` stays
/// plain values that tests build without a store, and `HomeService.snapshot(of:)`
/// maps the one to the other.
public struct Notice: Sendable, Equatable {
    public var sourceURL: String
    public var sourceTitle: String?
    public var entryID: String
    public var title: String?
    public var link: String?
    public var published: Date?
    public var summary: String?
    /// The entry's image (`docs/images.md`), if it names one.
    public var imageURL: String?

    public init(
        sourceURL: String,
        sourceTitle: String? = nil,
        entryID: String,
        title: String? = nil,
        link: String? = nil,
        published: Date? = nil,
        summary: String? = nil,
        imageURL: String? = nil
    ) {
        self.sourceURL = sourceURL
        self.sourceTitle = sourceTitle
        self.entryID = entryID
        self.title = title
        self.link = link
        self.published = published
        self.summary = summary
        self.imageURL = imageURL
    }
}

/// A link to a service, placed in a section by its OPML category.
public struct ServiceLink: Sendable, Equatable {
    public var title: String
    public var url: String
    public var icon: String?
    public var description: String?
    /// The document the link came from (its source URL): image caps count per source.
    public var sourceURL: String?

    public init(title: String, url: String, icon: String? = nil, description: String? = nil, sourceURL: String? = nil) {
        self.title = title
        self.url = url
        self.icon = icon
        self.description = description
        self.sourceURL = sourceURL
    }
}

/// An OPML 1.0/2.0 subscription or service-link list (`feed-parsing.md` §4).
///
/// Sendable: an immutable value.
public struct OPMLDocument: Sendable, Equatable {
    /// The URL the document came from; relative URLs were resolved against it.
    public var documentURL: String
    /// `head/title`, whitespace-normalised, or nil.
    public var title: String?
    /// Outlines that carry an `xmlUrl` or `url` the link policy allows, in document order
    /// (`feed-parsing.md` §4).
    public var outlines: [OPMLOutline]
    /// Outlines skipped because the link policy refused their only `xmlUrl` or `url` (a
    /// `gopher:` or `javascript:` URL; a warning says so), each with its `refusedURL` and
    /// `line`, in document order: not part of the output JSON, but a sources list reports them
    /// as configuration errors.
    public var refusedOutlines: [OPMLOutline]
    /// False when the parser recovered from broken XML or bytes (see `ParsedFeed.isWellFormed`).
    public var isWellFormed: Bool
    /// What the parser recovered from or left out, in document order (at most
    /// `WarningLog.limit`).
    public var warnings: [FeedParseWarning]
    /// All warnings, including those past the listed ones.
    public var warningCount: Int

    public init(
        documentURL: String,
        title: String?,
        outlines: [OPMLOutline],
        refusedOutlines: [OPMLOutline] = [],
        isWellFormed: Bool = true,
        warnings: [FeedParseWarning] = [],
        warningCount: Int? = nil
    ) {
        self.documentURL = documentURL
        self.title = title
        self.outlines = outlines
        self.refusedOutlines = refusedOutlines
        self.isWellFormed = isWellFormed
        self.warnings = warnings
        self.warningCount = max(warningCount ?? warnings.count, warnings.count)
    }

    /// The warnings as `line:column: message` lines, for logs.
    public var diagnostics: [String] { warnings.map(\.description) }
}

/// One feed (`type="rss"`) or service link (`type="link"`) of an OPML document.
public struct OPMLOutline: Sendable, Equatable {
    /// The `text` attribute (falling back to `title`), whitespace-normalised; "" when both are missing.
    public var text: String
    /// The `title` attribute, whitespace-normalised, or nil.
    public var title: String?
    /// The `type` attribute as written (trimmed), e.g. `rss` or `link`.
    public var type: String?
    /// `xmlUrl` (a feed), absolute.
    public var xmlURL: String?
    /// `htmlUrl` (the site of a feed), absolute.
    public var htmlURL: String?
    /// `url` (a service link or a link to another OPML document), absolute.
    public var url: String?
    /// Texts of the enclosing outlines, outermost first.
    public var categories: [String]
    /// The OPML `category` attribute, kept apart from `categories`: homefeed uses it to pick the
    /// home-screen section of a service link (architecture.md). Not part of the output JSON.
    public var categoryAttribute: String?
    /// The line of the outline's start tag (from 1), so a configuration error can point at it.
    /// Not part of the output JSON.
    public var line: Int?
    /// The absolute `xmlUrl` or `url` the link policy refused (a `gopher:` or `javascript:`
    /// URL; a warning says so), when the outline has no usable one, which makes it one of
    /// `OPMLDocument.refusedOutlines`: a sources list reports it as a configuration error at
    /// `line`. Not part of the output JSON.
    public var refusedURL: String?
    /// The `credential` attribute: the name of a secret the daemon sends with this source's
    /// requests (`docs/configuration.md`). Not part of the output JSON.
    public var credential: String?
    /// The `icon` attribute (homefeed's extension for service links: the link's icon),
    /// resolved against the document URL like the other URLs and kept only when the link
    /// policy allows it as a resource (`http`/`https`, `file:` only in a document read from a
    /// file; a warning says why otherwise). In the output JSON as `icon`.
    public var icon: String?

    public init(
        text: String,
        title: String?,
        type: String?,
        xmlURL: String?,
        htmlURL: String?,
        url: String?,
        categories: [String],
        categoryAttribute: String?,
        line: Int? = nil,
        refusedURL: String? = nil,
        credential: String? = nil
    ) {
        self.text = text
        self.title = title
        self.type = type
        self.xmlURL = xmlURL
        self.htmlURL = htmlURL
        self.url = url
        self.categories = categories
        self.categoryAttribute = categoryAttribute
        self.line = line
        self.refusedURL = refusedURL
        self.credential = credential
    }
}

/// What a document turned out to be.
public enum FeedDocument: Sendable, Equatable {
    case feed(ParsedFeed)
    case opml(OPMLDocument)

    /// The document's warnings.
    public var warnings: [FeedParseWarning] {
        switch self {
        case .feed(let feed): feed.warnings
        case .opml(let opml): opml.warnings
        }
    }

    /// All warnings of the parse, including those past the listed ones (what the daemon shows
    /// per source).
    public var warningCount: Int {
        switch self {
        case .feed(let feed): feed.warningCount
        case .opml(let opml): opml.warningCount
        }
    }

    /// Whether the document was well-formed (nothing recovered from).
    public var isWellFormed: Bool {
        switch self {
        case .feed(let feed): feed.isWellFormed
        case .opml(let opml): opml.isWellFormed
        }
    }
}

/// An OPML 1.0/2.0 subscription or service-link list (`feed-parsing.md` §4).
///
/// Sendable: an immutable value.
public struct OPMLDocument: Sendable, Equatable {
    /// The URL the document came from; relative URLs were resolved against it.
    public var documentURL: String
    /// `head/title`, whitespace-normalised, or nil.
    public var title: String?
    /// Outlines that carry `xmlUrl` or `url`, in document order.
    public var outlines: [OPMLOutline]
    /// Errors libxml2 recovered from (first few only), for logs; not part of the output JSON.
    public var diagnostics: [String]

    public init(documentURL: String, title: String?, outlines: [OPMLOutline], diagnostics: [String] = []) {
        self.documentURL = documentURL
        self.title = title
        self.outlines = outlines
        self.diagnostics = diagnostics
    }
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
    /// The `icon` attribute (homefeed's extension for service links: the link's icon),
    /// resolved against the document URL like the other URLs. Not part of the output JSON.
    public var icon: String?

    public init(
        text: String,
        title: String?,
        type: String?,
        xmlURL: String?,
        htmlURL: String?,
        url: String?,
        categories: [String],
        categoryAttribute: String?
    ) {
        self.text = text
        self.title = title
        self.type = type
        self.xmlURL = xmlURL
        self.htmlURL = htmlURL
        self.url = url
        self.categories = categories
        self.categoryAttribute = categoryAttribute
    }
}

/// What a document turned out to be.
public enum FeedDocument: Sendable, Equatable {
    case feed(ParsedFeed)
    case opml(OPMLDocument)
}

import FoundationEssentials

/// One source the scheduler polls: a notice feed or a document of service links.
///
/// Sendable: an immutable value. `url` is the configured, absolute URL (`http:`, `https:` or
/// `file:`); it is the source's identity even after a permanent redirect, which is recorded in
/// `SourceFetchState.permanentRedirectURL` instead.
public struct FeedSource: Sendable, Hashable {
    /// What the source's documents hold.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An RSS, Atom or JSON Feed of notices (`type="rss"` outlines).
        case notices
        /// An OPML document of service links (`type="link"` outlines that point to OPML).
        case services
    }

    /// The configured absolute URL; the key of the source's state.
    public var url: String
    public var kind: Kind
    /// The outline's `text`, when it has one.
    public var title: String?
    /// The target section from the OPML `category` attribute, when it names one.
    public var section: HomeSection?
    /// A per-source poll interval in seconds overriding the configured default, if set.
    public var interval: Double?
    /// The name of the credential the outline asks for (its `credential` attribute): a file
    /// in `$CREDENTIALS_DIRECTORY` that the daemon reads into `credential`.
    public var credentialName: String?
    /// The secret sent with this source's requests (`FetchRequest.credential`).
    public var credential: FetchCredential?
    /// The line of the source's outline in the sources list, for configuration errors.
    public var line: Int?

    public init(
        url: String,
        kind: Kind,
        title: String? = nil,
        section: HomeSection? = nil,
        interval: Double? = nil,
        credentialName: String? = nil,
        credential: FetchCredential? = nil,
        line: Int? = nil
    ) {
        self.url = url
        self.kind = kind
        self.title = title
        self.section = section
        self.interval = interval
        self.credentialName = credentialName
        self.credential = credential
        self.line = line
    }
}

/// A home-screen section a service link can target, named by the OPML `category` attribute
/// (architecture.md, "Configuration").
public enum HomeSection: String, Sendable, Hashable, CaseIterable {
    case mainService = "/main-service"
    case otherService = "/other-service"
    case appService = "/app-service"

    /// Reads an OPML `category` attribute: a comma-separated list of slash-delimited categories
    /// (OPML 2.0). The first one naming a section wins; case and a trailing slash are ignored.
    public init?(category: String?) {
        guard let category else { return nil }
        for part in category.split(separator: ",") {
            var name = part.trimmingBlanks().lowercased()
            if name.count > 1, name.hasSuffix("/") { name.removeLast() }
            if !name.hasPrefix("/") { name = "/" + name }
            if let section = HomeSection(rawValue: name) {
                self = section
                return
            }
        }
        return nil
    }
}

/// A service link written directly in the sources list (a `type="link"` outline whose URL is
/// not an OPML document): nothing to fetch, the daemon shows it as it is.
///
/// Sendable: an immutable value.
public struct DirectServiceLink: Sendable, Hashable {
    public var title: String
    /// The absolute link target.
    public var url: String
    public var section: HomeSection?
    /// The position among the list's service links, from 0, in document order.
    public var order: Int
    /// The absolute URL of the link's icon (the outline's `icon` attribute), if given; without
    /// one, the daemon looks for an icon on the linked page.
    public var icon: String?

    public init(title: String, url: String, section: HomeSection?, order: Int, icon: String? = nil) {
        self.title = title
        self.url = url
        self.section = section
        self.order = order
        self.icon = icon
    }
}

extension Substring {
    /// Without leading and trailing tabs and Unicode space separators: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes, without loading Foundation (issue 17).
    fileprivate func trimmingBlanks() -> Substring {
        func isBlank(_ character: Character) -> Bool {
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        var trimmed = self
        while let first = trimmed.first, isBlank(first) { trimmed.removeFirst() }
        while let last = trimmed.last, isBlank(last) { trimmed.removeLast() }
        return trimmed
    }
}

import FoundationEssentials
public import HomeFeeds

/// The subscription list: `feeds/sources.opml` read into sources to poll and static links
/// (architecture.md, "Configuration").
///
/// * `type="rss"` outlines (and outlines with an `xmlUrl` but no type) are notice feeds.
/// * `type="link"` outlines whose URL path ends in `.opml` are documents of service links,
///   polled like feeds; other `type="link"` outlines are service links themselves.
/// * The `category` attribute names the target section (`HomeSection`).
/// * URLs may be `http:`, `https:`, `file:` or plain paths; HomeFeeds' OPML parser resolves
///   them against the OPML file's own URL (RFC 3986), so a relative path names a file next
///   to the list.
///
/// Sendable: an immutable value.
public struct SourceList: Sendable, Equatable {
    /// The URL the list was read from (`file:` for a local list).
    public var documentURL: String
    public var title: String?
    /// Sources to poll, in document order, without duplicate URLs.
    public var sources: [FeedSource]
    /// Service links written directly in the list, in document order.
    public var serviceLinks: [DirectServiceLink]
    /// What was skipped and why, one line each, for the daemon's log.
    public var diagnostics: [String]
    /// Sources HomeFetch will not poll (a URL that is not `http:`, `https:` or `file:`, or one
    /// with a user name or password in it), left out of ``sources``. A configuration with any is
    /// invalid; the daemon names the first one.
    public var unsupported: [UnsupportedSource]

    /// The URLs of the sources of `kind`, as the list resolved them.
    public func urls(of kind: FeedSource.Kind) -> Set<String> {
        Set(sources.filter { $0.kind == kind }.map(\.url))
    }

    public init(
        documentURL: String,
        title: String?,
        sources: [FeedSource],
        serviceLinks: [DirectServiceLink],
        diagnostics: [String] = [],
        unsupported: [UnsupportedSource] = []
    ) {
        self.documentURL = documentURL
        self.title = title
        self.sources = sources
        self.serviceLinks = serviceLinks
        self.diagnostics = diagnostics
        self.unsupported = unsupported
    }

    /// Classifies the outlines of a parsed OPML document.
    public init(opml: OPMLDocument) {
        var sources: [FeedSource] = []
        var links: [DirectServiceLink] = []
        var diagnostics = opml.diagnostics
        var unsupported: [UnsupportedSource] = []
        var seen: Set<String> = []
        /// A fetchable URL becomes a source once; an unfetchable one, or one with credentials
        /// in it, is reported, a repeated one noted.
        func addSource(
            _ url: String,
            kind: FeedSource.Kind,
            outline: OPMLOutline,
            title: String?,
            section: HomeSection?
        ) {
            guard Self.isFetchable(url) else {
                unsupported.append(UnsupportedSource(text: outline.text, url: url, line: outline.line))
                return
            }
            guard Self.withoutUserinfo(url) == nil else {
                unsupported.append(
                    UnsupportedSource(text: outline.text, url: url, line: outline.line, problem: .userinfo)
                )
                return
            }
            guard seen.insert(url).inserted else {
                diagnostics.append("outline \"\(outline.text)\": duplicate source \(url)")
                return
            }
            sources.append(
                FeedSource(
                    url: url,
                    kind: kind,
                    title: title,
                    section: section,
                    credentialName: outline.credential,
                    line: outline.line
                )
            )
        }
        for outline in opml.outlines {
            let type = outline.type?.lowercased()
            let section = HomeSection(category: outline.categoryAttribute)
            if let category = outline.categoryAttribute, section == nil, type == "link" {
                diagnostics.append("outline \"\(outline.text)\": category \"\(category)\" names no home section")
            }
            let title = outline.text.isEmpty ? outline.title : outline.text
            switch type {
            case "link":
                guard let url = outline.url ?? outline.xmlURL else { continue }
                guard Self.isOPMLDocument(url) else {
                    links.append(
                        DirectServiceLink(
                            title: title ?? url,
                            url: url,
                            section: section,
                            order: links.count,
                            icon: outline.icon
                        )
                    )
                    continue
                }
                addSource(url, kind: .services, outline: outline, title: title, section: section)
            case "rss", nil:
                guard let url = outline.xmlURL else {
                    diagnostics.append("outline \"\(outline.text)\": no xmlUrl")
                    continue
                }
                addSource(url, kind: .notices, outline: outline, title: title, section: section)
            case let other?:
                diagnostics.append("outline \"\(outline.text)\": type \"\(other)\" ignored")
            }
        }
        // The parser refused these outlines' only URL (an unsupported scheme) and said so in a
        // warning. A source that cannot be fetched is a configuration error; a shown link is
        // just left out.
        for outline in opml.refusedOutlines {
            guard let refused = outline.refusedURL else { continue }
            if outline.type?.lowercased() != "link" || Self.isOPMLDocument(refused) {
                unsupported.append(UnsupportedSource(text: outline.text, url: refused, line: outline.line))
            }
        }
        // In document order (a stable sort; on one line, the refused outlines come last).
        unsupported.sort { ($0.line ?? 0) < ($1.line ?? 0) }
        self.init(
            documentURL: opml.documentURL,
            title: opml.title,
            sources: sources,
            serviceLinks: links,
            diagnostics: diagnostics,
            unsupported: unsupported
        )
    }

    /// Reads and parses a local OPML list.
    ///
    /// The file is read off the cooperative pool with `FeedFetcher`'s `file:` reader, so the
    /// same byte cap applies.
    ///
    /// - Parameters:
    ///   - path: an absolute or working-directory-relative path to the OPML file.
    ///   - maxBytes: the cap on the file's size.
    /// - Throws: `FetchError` when the file cannot be read, is too large, or is not OPML.
    public static func load(path: String, maxBytes: Int = 4 << 20) async throws(FetchError) -> SourceList {
        let url = URL(fileURLWithPath: path).standardizedFileURL.absoluteString
        var limits = FetchLimits()
        limits.maxBodyBytes = maxBytes
        let outcome = try await LocalFileReader.read(FetchRequest(url: url, limits: limits))
        guard case .fetched(let fetched) = outcome else {
            throw FetchError(url: url, kind: .file("unexpected validator match"))
        }
        guard case .opml(let opml) = fetched.document else {
            throw FetchError(url: url, kind: .notOPML)
        }
        return SourceList(opml: opml)
    }

    /// True for `http:`, `https:` and `file:` URLs.
    static func isFetchable(_ url: String) -> Bool {
        guard let scheme = URLScheme(url) else { return false }
        return scheme == .http || scheme == .https || scheme == .file
    }

    /// The URL without the user name and password of its authority (`https://user:pw@host/`
    /// → `https://host/`), or nil when it has none (RFC 3986 §3.2.1: up to the last `@` before
    /// the path, query or fragment).
    package static func withoutUserinfo(_ url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        let authority = rest.dropFirst(2)
        let end = authority.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? authority.endIndex
        guard let at = authority[..<end].lastIndex(of: "@") else { return nil }
        return String(url[...colon]) + "//" + String(url[url.index(after: at)...])
    }

    /// True when the URL's path ends in `.opml` (ignoring case, query and fragment).
    static func isOPMLDocument(_ url: String) -> Bool {
        var path = Substring(url)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        return path.lowercased().hasSuffix(".opml")
    }
}

/// An outline of a sources list whose URL HomeFetch will not poll: one it cannot fetch, e.g.
/// `gopher://…`, or one with a password in it.
///
/// Sendable: an immutable value.
public struct UnsupportedSource: Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the URL.
    public enum Problem: Sendable, Equatable {
        /// A scheme other than `http:`, `https:` and `file:`.
        case scheme
        /// A user name or password in the URL (`https://user:pw@host/feed`): it would show in
        /// every log line, status reply and error that names the source, and in the links its
        /// documents resolve against it. The secret goes in a credential file instead.
        case userinfo
    }

    /// The outline's text.
    public var text: String
    /// The URL as resolved against the list, without its user name and password, so no
    /// message shows them.
    public var url: String
    /// The outline's line in the list, when the parser knew it.
    public var line: Int?
    public var problem: Problem

    public init(text: String, url: String, line: Int?, problem: Problem = .scheme) {
        self.text = text
        self.url = SourceList.withoutUserinfo(url) ?? url
        self.line = line
        self.problem = problem
    }

    /// `outline "Gopher news": gopher://example.test/1: unsupported URL scheme; expected http:, https: or file:`.
    public var description: String {
        switch problem {
        case .scheme:
            "outline \"\(text)\": \(url): unsupported URL scheme; expected http:, https: or file:"
        case .userinfo:
            "outline \"\(text)\": \(url): a user name or password in the URL is refused (it would show in logs "
                + "and status); remove it and name a credential file with credential=\"NAME\" "
                + "(docs/configuration.md, \"Authenticated sources\")"
        }
    }
}

/// The schemes HomeFetch knows, read case-insensitively from the start of a URL string.
enum URLScheme: Equatable {
    case http, https, file

    init?(_ url: String) {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        switch url[..<colon].lowercased() {
        case "http": self = .http
        case "https": self = .https
        case "file": self = .file
        default: return nil
        }
    }
}

/// Element starts: which element is which in each format, and what its attributes give.
extension XMLFeedBuilder {
    func begin(
        name: XMLName,
        namespace: XMLNamespace,
        localName: UnsafePointer<UInt8>,
        parent: Role?,
        attributes: XMLAttributes
    ) -> Role {
        guard let parent else { return beginRoot(name: name, namespace: namespace, localName: localName, attributes) }
        switch parent {
        case .rssRoot, .rdfRoot:
            guard namespace == .rssCore else { return .other }
            if name == .channel { return .channel }
            if name == .item { return beginEntry(attributes) }
        case .channel:
            guard namespace == .rssCore else { return .other }
            switch name {
            case .title: return beginCapture(.feedTitle, mode: .html)
            case .link: return beginCapture(.feedLink, mode: .literal)
            case .item: return beginEntry(attributes)
            default: break
            }
        case .item:
            return beginRSSItemChild(name: name, namespace: namespace, attributes)
        case .mediaGroup:
            if namespace == .media && name == .content { addMediaContent(attributes) }
            if namespace == .media && (name == .content || name == .thumbnail) {
                addMediaImage(attributes, isThumbnail: name == .thumbnail)
            }
        case .atomFeed:
            guard namespace == .atom else { return .other }
            switch name {
            case .title: return beginCapture(.feedTitle, mode: atomTextMode(attributes) ?? .literal)
            case .link:
                if let candidate = atomLink(attributes), candidate.isAlternate { feedAlternates.append(candidate) }
            case .entry: return beginEntry(attributes)
            default: break
            }
        case .entry:
            return beginAtomEntryChild(name: name, namespace: namespace, attributes)
        case .opmlRoot:
            if name == .head { return .opmlHead }
            if name == .body { return .opmlBody }
        case .opmlHead:
            if name == .title { return beginCapture(.opmlTitle, mode: .literal) }
        case .opmlBody, .outline:
            if name == .outline {
                beginOutline(attributes)
                return .outline
            }
        case .other, .field, .insideField:
            break
        }
        return .other
    }

    private func beginRoot(
        name: XMLName,
        namespace: XMLNamespace,
        localName: UnsafePointer<UInt8>,
        _ attributes: XMLAttributes
    ) -> Role {
        switch (name, namespace) {
        case (.rss, .rssCore):
            let version = URIReference.trimASCIIAndNBSP(attributes.value("version") ?? "")
            let format: FeedFormat = version == "0.91" ? .rss091 : version == "0.92" ? .rss092 : .rss20
            root = .rss(format)
            return .rssRoot
        case (.rdf, .rdf):
            root = .rdf
            return .rdfRoot
        case (.feed, .atom):
            root = .atom
            return .atomFeed
        case (.opml, _):
            root = .opml
            return .opmlRoot
        default:
            let shown = String(
                decoding: UnsafeBufferPointer(start: localName, count: min(strlenUInt8(localName), 64)),
                as: UTF8.self
            )
            stop(.unsupportedFormat, "root element <\(shown)> is not RSS, RDF, Atom or OPML")
            return .other
        }
    }

    private func beginEntry(_ attributes: XMLAttributes) -> Role {
        if entriesStarted >= limits.maxEntries {
            truncate()
            return .other
        }
        entriesStarted += 1
        var state = EntryState()
        if case .rdf = root, let about = attributes.value("about", in: .rdf) {
            let trimmed = URIReference.trimASCIIAndNBSP(about)
            if !trimmed.isEmpty { state.nativeID = String(trimmed) }
        }
        entry = state
        return isAtom ? .entry : .item
    }

    var isAtom: Bool {
        if case .atom = root { return true }
        return false
    }

    var isRDF: Bool {
        if case .rdf = root { return true }
        return false
    }

    private func beginRSSItemChild(name: XMLName, namespace: XMLNamespace, _ attributes: XMLAttributes) -> Role {
        switch namespace {
        case .rssCore:
            switch name {
            case .title: return beginCapture(.entryTitle, mode: .html)
            case .link: return beginCapture(.entryLink, mode: .literal)
            case .description: return beginCapture(.summaryPrimary, mode: .html)
            case .guid where !isRDF:
                let permaLink = attributes.value("isPermaLink").map { URIReference.trimASCIIAndNBSP($0).lowercased() }
                entry?.guidIsPermaLink = permaLink == nil || permaLink == "true"
                return beginCapture(.guid, mode: .literal)
            case .pubDate where !isRDF: return beginCapture(.datePrimary, mode: .literal)
            case .enclosure:
                addEnclosure(
                    url: attributes.value("url"),
                    type: attributes.value("type"),
                    length: attributes.value("length")
                )
                addEnclosureImage(
                    url: attributes.value("url"),
                    type: attributes.value("type"),
                    length: attributes.value("length"),
                    origin: .enclosure
                )
            default: break
            }
        case .content:
            // content:encoded only counts without a description: skip capturing (and normalising
            // a whole article) when the description has already been read.
            if name == .encoded && !isRDF && entry?.summaryPrimary == nil {
                return beginCapture(.summarySecondary, mode: .html)
            }
            if name == .encoded && !isRDF && entry?.images.hasContentImage == false {
                return beginCapture(.contentImages, mode: .html)
            }
        case .dublinCore:
            if name == .date { return beginCapture(isRDF ? .datePrimary : .dateSecondary, mode: .literal) }
        case .media:
            if name == .content { addMediaContent(attributes) }
            if name == .content || name == .thumbnail { addMediaImage(attributes, isThumbnail: name == .thumbnail) }
            if name == .group { return .mediaGroup }
        case .itunes:
            if name == .image { addITunesImage(attributes) }
        default: break
        }
        return .other
    }

    private func beginAtomEntryChild(name: XMLName, namespace: XMLNamespace, _ attributes: XMLAttributes) -> Role {
        if namespace == .media {
            if name == .content { addMediaContent(attributes) }
            if name == .content || name == .thumbnail { addMediaImage(attributes, isThumbnail: name == .thumbnail) }
            if name == .group { return .mediaGroup }
            return .other
        }
        guard namespace == .atom else { return .other }
        switch name {
        case .id: return beginCapture(.atomID, mode: .literal)
        case .title: return beginCapture(.entryTitle, mode: atomTextMode(attributes) ?? .literal)
        case .summary: return beginCapture(.summaryPrimary, mode: atomTextMode(attributes) ?? .literal)
        case .content:
            guard attributes.value("src") == nil, let mode = atomTextMode(attributes) else { return .other }
            guard entry?.summaryPrimary == nil else {
                // Beside a summary, HTML content is read only for its first image.
                return mode == .html && entry?.images.hasContentImage == false
                    ? beginCapture(.contentImages, mode: .html) : .other
            }
            return beginCapture(.summarySecondary, mode: mode)
        case .published: return beginCapture(.datePrimary, mode: .literal)
        case .updated: return beginCapture(.dateSecondary, mode: .literal)
        case .link:
            guard let candidate = atomLink(attributes) else { break }
            if candidate.rel == "enclosure" {
                addEnclosure(
                    url: candidate.href,
                    type: candidate.type,
                    length: attributes.value("length"),
                    resolved: true
                )
                addEnclosureImage(
                    url: candidate.href,
                    type: candidate.type,
                    length: attributes.value("length"),
                    origin: .atomEnclosure
                )
            } else if candidate.isAlternate {
                entry?.alternates.append(candidate)
            }
        default: break
        }
        return .other
    }

    /// Atom text constructs (RFC 4287 §3.1): `text` (default) is literal, `html` is HTML and
    /// `xhtml` is the text content of the div. For `content`, MIME types: `text/html` reads as
    /// HTML, other `text/*` and XML types literally; nil for binary content, which has no text.
    private func atomTextMode(_ attributes: XMLAttributes) -> TextMode? {
        guard let raw = attributes.value("type") else { return .literal }
        let type = URIReference.trimASCIIAndNBSP(raw).lowercased()
        switch type {
        case "", "text", "xhtml", "text/plain": return .literal
        case "html", "text/html": return .html
        default:
            if type.hasPrefix("text/") || type.hasSuffix("+xml") || type.hasSuffix("/xml") { return .literal }
            return nil
        }
    }

    private func atomLink(_ attributes: XMLAttributes) -> LinkCandidate? {
        guard let href = attributes.value("href"),
            let resolved = URIReference.resolve(href, against: bases.last)
        else { return nil }
        let rel = attributes.value("rel").map { URIReference.trimASCIIAndNBSP($0).lowercased() } ?? "alternate"
        let type = attributes.value("type").flatMap { value -> String? in
            let trimmed = URIReference.trimASCIIAndNBSP(value)
            return trimmed.isEmpty ? nil : String(trimmed)
        }
        return LinkCandidate(rel: rel.isEmpty ? "alternate" : rel, type: type, href: resolved)
    }

    private func addMediaContent(_ attributes: XMLAttributes) {
        addEnclosure(url: attributes.value("url"), type: attributes.value("type"), length: attributes.value("fileSize"))
    }

    /// Appends an enclosure unless its absolute URL is already listed for this entry.
    func addEnclosure(url: String?, type: String?, length: String?, resolved: Bool = false) {
        guard entry != nil, let url else { return }
        guard let absolute = resolved ? url : URIReference.resolve(url, against: bases.last) else { return }
        guard entry?.enclosures.contains(where: { $0.url == absolute }) == false else { return }
        let trimmedType = type.map { URIReference.trimASCIIAndNBSP($0) }
        let enclosure = FeedEnclosure(
            url: absolute,
            type: trimmedType.flatMap { $0.isEmpty ? nil : String($0) },
            length: length.flatMap { Int64(URIReference.trimASCIIAndNBSP($0)) }.flatMap { $0 >= 0 ? $0 : nil }
        )
        entry?.enclosures.append(enclosure)
    }

    private func beginOutline(_ attributes: XMLAttributes) {
        let base = bases.last
        let text = attributes.value("text").flatMap { plain.normalize($0, mode: .literal) }
        let title = attributes.value("title").flatMap { plain.normalize($0, mode: .literal) }
        let xmlURL = attributes.value("xmlUrl", ignoringCase: true).flatMap { URIReference.resolve($0, against: base) }
        let url = attributes.value("url", ignoringCase: true).flatMap { URIReference.resolve($0, against: base) }
        if xmlURL != nil || url != nil {
            if outlines.count >= limits.maxEntries {
                truncate()
            } else {
                var outline =
                    OPMLOutline(
                        text: text ?? title ?? "",
                        title: title,
                        type: attributes.value("type").flatMap { plain.normalize($0, mode: .literal) },
                        xmlURL: xmlURL,
                        htmlURL: attributes.value("htmlUrl", ignoringCase: true).flatMap {
                            URIReference.resolve($0, against: base)
                        },
                        url: url,
                        categories: outlineTexts.compactMap { $0 },
                        categoryAttribute: attributes.value("category").flatMap { plain.normalize($0, mode: .literal) }
                    )
                outline.icon = attributes.value("icon").flatMap { URIReference.resolve($0, against: base) }
                outlines.append(outline)
            }
        }
        outlineTexts.append(text ?? title)
    }
}

/// An Atom `<link>` that may become the entry or feed link.
struct LinkCandidate {
    var rel: String
    var type: String?
    var href: String

    var isAlternate: Bool { rel == "alternate" }

    /// §2: the first alternate with type text/html or no type, else the first alternate of any type.
    static func choose(_ candidates: [LinkCandidate]) -> String? {
        let html = candidates.first { $0.type == nil || $0.type?.lowercased() == "text/html" }
        return (html ?? candidates.first)?.href
    }
}

/// Fields of the entry being read.
struct EntryState {
    var nativeID: String?
    var guidIsPermaLink = true
    var guidLink: String?
    var title: String?
    var link: String?
    var alternates: [LinkCandidate] = []
    var summaryPrimary: String?
    var summarySecondary: String?
    var datePrimary: FeedTimestamp?
    var dateSecondary: FeedTimestamp?
    var enclosures: [FeedEnclosure] = []
    var images = ImageCandidates()
}

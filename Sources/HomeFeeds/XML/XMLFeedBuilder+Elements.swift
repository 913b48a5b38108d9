/// Element starts: which element is which in each format, and what its attributes give.
extension XMLFeedBuilder {
    mutating func begin(
        name: XMLName,
        namespace: XMLNamespace,
        localName: UnsafePointer<UInt8>,
        parent: Role?,
        attributes: XMLAttributes
    ) -> Role {
        guard let parent else {
            guard root == nil else { return beginAfterRoot(localName) }
            return beginRoot(name: name, namespace: namespace, localName: localName, attributes)
        }
        switch parent {
        case .rssRoot, .rdfRoot:
            guard namespace == .rssCore else { return .other }
            if name == .channel { return .channel }
            if name == .item { return beginEntry(attributes) }
        case .channel:
            switch (namespace, name) {
            case (.rssCore, .title): return beginFeedTitle(rank: FieldRank.title, mode: .html)
            case (.rssCore, .link): return beginCapture(.feedLink, mode: .literal)
            case (.rssCore, .item): return beginEntry(attributes)
            case (.dublinCore, .title): return beginFeedTitle(rank: FieldRank.dcTitle, mode: .html)
            default: break
            }
        case .item:
            return beginRSSItemChild(name: name, namespace: namespace, attributes)
        case .mediaGroup:
            if namespace == .media && name == .content { addMediaContent(attributes) }
            if namespace == .media && name == .thumbnail { addMediaThumbnail(attributes) }
        case .atomFeed:
            switch (namespace, name) {
            case (.atom, .title):
                let content = AtomContent(attributes)
                return beginFeedTitle(rank: FieldRank.title, mode: content.mode, isBase64: content.isBase64)
            case (.atom, .link):
                if let candidate = atomLink(attributes), candidate.isAlternate {
                    feedAlternates.offer(candidate)
                }
            case (.atom, .entry): return beginEntry(attributes)
            case (.dublinCore, .title): return beginFeedTitle(rank: FieldRank.dcTitle, mode: .literal)
            default: break
            }
        case .entry:
            return beginAtomEntryChild(name: name, namespace: namespace, attributes)
        case .opmlRoot:
            if name == .head { return .opmlHead }
            if name == .body { return .opmlBody }
            if name == .outline {
                // No OPML puts outlines there, but lists written by hand or cut short do: read
                // as if inside `body`, rather than silently listing nothing.
                let (line, column) = position()
                warnings.add(line: line, column: column, "outline outside <body> read as if inside it")
                beginOutline(attributes)
                return .outline
            }
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

    private mutating func beginRoot(
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
            stop(.unsupportedFormat, "root element <\(shownName(localName))> is not RSS, RDF, Atom or OPML")
            return .other
        }
    }

    /// An element after the root has ended for the state machine, which libxml2 still reads as
    /// inside it (a mismatched end tag closed the root early, `closeOpenElements(named:)`): a
    /// `<script>` a free host appends after `</rss>`. Ignored with its content, with one
    /// warning for the document.
    private mutating func beginAfterRoot(_ localName: UnsafePointer<UInt8>) -> Role {
        if !hasContentAfterRoot {
            hasContentAfterRoot = true
            let (line, column) = position()
            warnings.add(
                line: line,
                column: column,
                "content after the root element ignored, from <\(shownName(localName))> on"
            )
        }
        return .other
    }

    private mutating func beginFeedTitle(rank: UInt8, mode: TextMode, isBase64: Bool = false) -> Role {
        guard rank < feedTitleRank else { return .other }
        return beginCapture(.feedTitle(rank: rank), mode: mode, isBase64: isBase64)
    }

    private mutating func beginEntry(_ attributes: XMLAttributes) -> Role {
        if entriesStarted >= limits.maxEntries {
            truncate()
            return .other
        }
        entriesStarted += 1
        // Out of an entry, `entry` is the fresh state `finishEntry` left (every write to it
        // checks `isInEntry`): replacing it cost a destruction of ten empty fields, ~190
        // instructions an entry (issue 17).
        assert(isInEntry || entry.isFresh, "entry state written outside an entry")
        if isInEntry { entry = EntryState() }
        isInEntry = true
        if case .rdf = root, let about = attributes.value("about", in: .rdf) {
            let trimmed = URIReference.trimASCIIAndNBSP(about)
            if !trimmed.isEmpty { recordNativeID(String(trimmed)) }
        }
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

    private mutating func beginRSSItemChild(name: XMLName, namespace: XMLNamespace, _ attributes: XMLAttributes) -> Role
    {
        switch namespace {
        case .rssCore:
            switch name {
            case .title: return beginEntryTitle(rank: FieldRank.title, mode: .html)
            case .link: return beginCapture(.entryLink, mode: .literal)
            case .description: return beginSummary(rank: FieldRank.summary, mode: .html)
            case .guid where !isRDF: return beginGUID(attributes)
            case .pubDate where !isRDF: return beginDate(rank: FieldRank.published)
            case .enclosure: addRSSEnclosure(attributes)
            default: break
            }
        case .content:
            // content:encoded only counts without a description: `beginSummary` skips capturing
            // (and normalising a whole article) when a better-ranked summary was already read;
            // then it is read only for its first image.
            if name == .encoded && !isRDF {
                return beginSummary(rank: FieldRank.content, mode: .html, orImagesOf: .html)
            }
        case .dublinCore, .dcTerms:
            return beginDublinCore(name: name, namespace: namespace, mode: .html)
        case .media:
            if name == .content { addMediaContent(attributes) }
            if name == .thumbnail { addMediaThumbnail(attributes) }
            if name == .group { return .mediaGroup }
        case .itunes:
            if name == .image { addITunesImage(attributes) }
        default: break
        }
        return .other
    }

    /// An RSS `enclosure`. A function of its own, not inlined: in the large switch above, the
    /// attribute lookup stayed a call over names passed at run time (~400 instructions an
    /// enclosure); here it is inlined and its name comparisons are made with constants.
    @inline(never)
    private mutating func addRSSEnclosure(_ attributes: XMLAttributes) {
        let (url, type, length, _) = attributes.lookUp("url", "type", "length")
        addEnclosure(
            url: resolvedResource(url, what: "enclosure"),
            type: type.trimmedValue,
            length: length.byteCount,
            image: .enclosure
        )
    }

    /// An RSS `guid`, with its `isPermaLink`: not inlined, for the reason `addRSSEnclosure` says.
    @inline(never)
    private mutating func beginGUID(_ attributes: XMLAttributes) -> Role {
        if isInEntry { entry.guidIsPermaLink = attributes.value("isPermaLink", isIgnoringCase: "true") ?? true }
        return beginCapture(.guid, mode: .literal)
    }

    /// `dc:title`, `dc:description`, `dc:date` and the `dcterms:` dates, in an RSS item or an
    /// Atom entry: fallbacks for the format's own elements (`FieldRank`).
    private mutating func beginDublinCore(name: XMLName, namespace: XMLNamespace, mode: TextMode) -> Role {
        switch (namespace, name) {
        case (.dublinCore, .title): return beginEntryTitle(rank: FieldRank.dcTitle, mode: mode)
        case (.dublinCore, .description): return beginSummary(rank: FieldRank.dcDescription, mode: mode)
        case (.dublinCore, .date): return beginDate(rank: FieldRank.updated)
        case (.dcTerms, .issued): return beginDate(rank: FieldRank.dcTermsIssued)
        case (.dcTerms, .created): return beginDate(rank: FieldRank.created)
        case (.dcTerms, .modified): return beginDate(rank: FieldRank.dcTermsModified)
        default: return .other
        }
    }

    private mutating func beginEntryTitle(rank: UInt8, mode: TextMode, isBase64: Bool = false) -> Role {
        guard isInEntry, rank < entry.titleRank else { return .other }
        return beginCapture(.entryTitle(rank: rank), mode: mode, isBase64: isBase64)
    }

    /// - Parameter imageMode: the mode of content whose first `<img>` is a candidate
    ///   (`FeedImage`) even when a better summary was already read: `.html` for HTML content
    ///   (not base64, which a bounded scan could not decode), nil otherwise.
    private mutating func beginSummary(
        rank: UInt8,
        mode: TextMode,
        isBase64: Bool = false,
        orImagesOf imageMode: TextMode? = nil
    ) -> Role {
        guard isInEntry else { return .other }
        guard rank < entry.summaryRank else {
            guard imageMode == .html, mode == .html, !isBase64, !entry.images.hasContentImage else {
                return .other
            }
            return beginCapture(.contentImages, mode: .html)
        }
        return beginCapture(.summary(rank: rank), mode: mode, isBase64: isBase64)
    }

    private mutating func beginDate(rank: UInt8) -> Role {
        guard isInEntry, rank < entry.dateRank else { return .other }
        return beginCapture(.date(rank: rank), mode: .literal)
    }

    private mutating func beginAtomEntryChild(name: XMLName, namespace: XMLNamespace, _ attributes: XMLAttributes)
        -> Role
    {
        switch namespace {
        case .media:
            if name == .content { addMediaContent(attributes) }
            if name == .thumbnail { addMediaThumbnail(attributes) }
            if name == .group { return .mediaGroup }
            return .other
        case .dublinCore, .dcTerms:
            return beginDublinCore(name: name, namespace: namespace, mode: .literal)
        case .atom:
            break
        default:
            return .other
        }
        switch name {
        case .id: return beginCapture(.atomID, mode: .literal)
        case .title:
            let content = AtomContent(attributes)
            return beginEntryTitle(rank: FieldRank.title, mode: content.mode, isBase64: content.isBase64)
        case .summary:
            let content = AtomContent(attributes)
            return beginSummary(rank: FieldRank.summary, mode: content.mode, isBase64: content.isBase64)
        case .content:
            guard attributes.value("src") == nil else { return .other }
            let content = AtomContent(attributes)
            return beginSummary(
                rank: FieldRank.content,
                mode: content.mode,
                isBase64: content.isBase64,
                orImagesOf: .html
            )
        // Atom 0.3's issued/created/modified are the dates of Atom 1.0's published/updated.
        case .published, .issued: return beginDate(rank: FieldRank.published)
        case .created: return beginDate(rank: FieldRank.created)
        case .updated, .modified: return beginDate(rank: FieldRank.updated)
        case .link: addAtomEntryLink(attributes)
        default: break
        }
        return .other
    }

    /// An Atom entry's `link`: an enclosure or an alternate. Not inlined, for the reason
    /// `addRSSEnclosure` says.
    @inline(never)
    private mutating func addAtomEntryLink(_ attributes: XMLAttributes) {
        let (rel, href, type, length) = attributes.lookUp("rel", "href", "type", "length")
        guard let candidate = atomLink(rel: rel, href: href, type: type) else { return }
        switch candidate.relation {
        case .enclosure:
            addEnclosure(
                url: candidate.href,
                type: type.trimmedValue,
                length: length.byteCount,
                image: .atomEnclosure
            )
        case .alternate:
            if isInEntry { entry.alternates.offer(candidate) }
        }
    }

    private mutating func beginOutline(_ attributes: XMLAttributes) {
        let base = bases.last
        let text = attributes.value("text").flatMap { plain.normalize($0, mode: .literal) }
        let title = attributes.value("title").flatMap { plain.normalize($0, mode: .literal) }
        let resolved = { (name: StaticString) -> String? in
            attributes.value(name, ignoringCase: true).flatMap { URIReference.resolve($0, against: base) }
        }
        func outlineLink(_ name: StaticString, _ purpose: LinkPolicy.Purpose) -> String? {
            guard let link = resolved(name) else { return nil }
            return allowedLink(link, purpose: purpose, what: "outline \(name)")
        }
        let xmlURL = outlineLink("xmlUrl", .resource)
        let url = outlineLink("url", .page)
        let refusedURL = xmlURL == nil && url == nil ? resolved("xmlUrl") ?? resolved("url") : nil
        if xmlURL != nil || url != nil || refusedURL != nil {
            let categories = outlineTexts.compactMap { $0 }
            // Each outline listed repeats the texts of the folders around it, so they count
            // against the document's text limit at every one: 95 folders of 1 000 characters
            // around 1 000 feeds (a 135 KB list) would otherwise make 95 MB of `categories`.
            if outlines.count + refusedOutlines.count >= limits.maxEntries {
                truncate()
            } else if refusedURL != nil || countTotalText(categories.reduce(0) { $0 + $1.utf8.count }) {
                var outline =
                    OPMLOutline(
                        text: text ?? title ?? "",
                        title: title,
                        type: attributes.value("type").flatMap { plain.normalize($0, mode: .literal) },
                        xmlURL: xmlURL,
                        htmlURL: outlineLink("htmlUrl", .page),
                        url: url,
                        categories: categories,
                        categoryAttribute: attributes.value("category").flatMap { plain.normalize($0, mode: .literal) },
                        line: currentLine,
                        refusedURL: refusedURL,
                        credential: attributes.value("credential").flatMap { plain.normalize($0, mode: .literal) }
                    )
                // The link's icon (homefeed's extension): an image the daemon fetches.
                outline.icon = outlineLink("icon", .resource)
                if refusedURL == nil {
                    outlines.append(outline)
                } else {
                    // Skipped as a leaf with no URL is (§4), but kept apart for a sources list.
                    let (line, column) = position()
                    warnings.add(
                        line: line,
                        column: column,
                        "outline \"\(excerpt(outline.text))\" skipped: no xmlUrl or url is one to follow"
                    )
                    refusedOutlines.append(outline)
                }
            }
        }
        outlineTexts.append(text ?? title)
    }
}

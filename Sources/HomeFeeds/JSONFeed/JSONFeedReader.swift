import JSONCore

/// JSON Feed 1.0/1.1 (https://jsonfeed.org/version/1.1) → `ParsedFeed`.
///
/// Read member by member (`JSONFeedDocument`, `JSONFeedCursor`), leniently: a field of the wrong
/// type counts as missing instead of failing the feed, and an item that is not an object is
/// dropped with a warning. Warnings name items and attachments by their index in the document. Text rules of `feed-parsing.md` §2: `title`, `summary` and `content_text` are
/// literal; `content_html` is HTML.
struct JSONFeedReader {
    let url: String
    let limits: FeedParseLimits
    /// When the parse must stop (`FeedParseLimits.maxParseDuration` from its start).
    let deadline: ContinuousClock.Instant

    func read(_ body: [UInt8]) throws(FeedParseError) -> FeedDocument {
        try Self.checkStart(of: body, url: url)
        var warnings = WarningLog()
        // Invalid UTF-8 becomes U+FFFD in place, as in XML, instead of failing the whole feed.
        var sanitizer = UTF8Sanitizer(.json)
        var repaired: [UInt8] = []
        repaired.reserveCapacity(body.count)
        body.withUnsafeBytes { sanitizer.process($0, isFinal: true, warnings: &warnings) { repaired += $0 } }
        var hasUnpairedSurrogates = false
        let read = repaired.withUnsafeBufferPointer { bytes -> Result<JSONFeedDocument, FeedParseError> in
            var cursor = JSONFeedCursor(bytes: bytes, source: url, limits: limits, deadline: deadline)
            do throws(FeedParseError) {
                let kind = try cursor.kind()
                guard kind == .object else {
                    throw FeedParseError(
                        kind: .malformedJSON,
                        source: url,
                        message: "not a JSON Feed object: the document is \(kind.described)"
                    )
                }
                let document = try JSONFeedDocument.read(&cursor, limits: limits)
                warnings.merge(cursor.warnings)
                hasUnpairedSurrogates = cursor.hasUnpairedSurrogates
                return .success(document)
            } catch {
                return .failure(error)
            }
        }
        let document = try read.get()
        try Self.checkIsFeed(document, url: url, warnings: &warnings)
        var policy = LinkPolicy(documentURL: url)
        func allowed(_ link: String, _ purpose: LinkPolicy.Purpose, _ path: String) -> String? {
            guard let reason = policy.refusal(link, purpose: purpose) else { return link }
            warnings.add(line: nil, column: nil, LinkPolicy.message(link, reason, what: path))
            return nil
        }
        // First of the warnings without a position (the items'), which the list keeps in the
        // order they were raised.
        if document.isTruncated {
            warnings.add(line: nil, column: nil, "stopped after \(limits.maxEntries) items (the entry limit)")
        }
        var plain = PlainText()
        var entries: [FeedEntry] = []
        var disambiguator = EntryDisambiguator()
        // Members of `items` that are no object, each warned about in its place among the items.
        var nonObjects = document.nonObjectItems[...]
        func warnNonObjects(before index: Int) {
            while let (position, kind) = nonObjects.first, position < index {
                warnings.add(
                    line: nil,
                    column: nil,
                    "items[\(position)] dropped: it is \(kind.described), not an object"
                )
                nonObjects.removeFirst()
            }
        }
        for item in document.items {
            let index = item.index
            warnNonObjects(before: index)
            let summary =
                item.summary.flatMap { plain.normalize($0, mode: .literal) }
                ?? item.contentHTML.flatMap { plain.normalize($0, mode: .html) }
                ?? item.contentText.flatMap { plain.normalize($0, mode: .literal) }
            var enclosures: [FeedEnclosure] = []
            var seen: Set<String> = []
            for attachment in item.attachments {
                guard let raw = attachment.url, let resolved = URIReference.resolve(raw, against: url),
                    let absolute = allowed(resolved, .resource, "items[\(index)].attachments[\(attachment.index)].url"),
                    seen.insert(absolute).inserted
                else { continue }
                let type = attachment.mimeType.map { String(URIReference.trimASCIIAndNBSP($0)) }
                enclosures.append(
                    FeedEnclosure(url: absolute, type: type?.isEmpty == false ? type : nil, length: attachment.size)
                )
            }
            let published = [item.datePublished, item.dateModified].lazy.compactMap { $0 }
                .compactMap { FeedTimestamp(parsing: $0) }.first
            let entry = EntryIdentity.entry(
                nativeID: item.id.flatMap { id -> String? in
                    let trimmed = URIReference.trimASCIIAndNBSP(id)
                    return trimmed.isEmpty ? nil : String(trimmed)
                },
                nativeSource: .jsonID,
                title: item.title.flatMap { plain.normalize($0, mode: .literal) },
                link: item.url.flatMap { URIReference.resolve($0, against: url) }.flatMap {
                    allowed($0, .page, "items[\(index)].url")
                },
                summary: summary,
                published: published,
                enclosures: enclosures
            )
            guard var entry else {
                warnings.add(line: nil, column: nil, "items[\(index)] dropped: it has no id, url, title or content")
                continue
            }
            entry.images = Self.images(of: item, base: url) { allowed($0, .resource, "items[\(index)].\($1)") }
            if let id = disambiguator.append(entry, to: &entries) {
                warnings.add(
                    line: nil,
                    column: nil,
                    "items[\(index)] \"\(excerpt(id))\" dropped: it repeats an earlier item exactly"
                )
            }
        }
        warnNonObjects(before: Int.max)
        // Past the listed ones, only counted.
        warnings.addUnlisted(document.nonObjectItemCount - document.nonObjectItems.count)
        return .feed(
            ParsedFeed(
                format: .jsonFeed11,
                feedURL: url,
                title: document.title.flatMap { plain.normalize($0, mode: .literal) },
                link: document.homePageURL.flatMap { URIReference.resolve($0, against: url) }.flatMap {
                    allowed($0, .page, "home_page_url")
                },
                entries: entries,
                isTruncated: document.isTruncated,
                isWellFormed: !sanitizer.hasRecovered && !hasUnpairedSurrogates,
                warnings: warnings.sorted,
                warningCount: warnings.count
            )
        )
    }
}

extension JSONFeedReader {
    /// Refuses what is no JSON Feed before reading it, naming why: an empty body, and a body
    /// in another encoding than UTF-8 (RFC 8259 §8.1) or with two byte-order marks, which
    /// `DocumentSyntax` sends here so that the error is a JSON one.
    static func checkStart(of body: [UInt8], url: String) throws(FeedParseError) {
        if let (_, encoding, length) = EncodingSniffer.byteOrderMark(body), encoding != "UTF-8" {
            let shown = body.prefix(length).map { hex(UInt32($0), digits: 2) }.joined(separator: " ")
            throw FeedParseError(
                kind: .malformedJSON,
                source: url,
                message: "a JSON Feed must be UTF-8 (RFC 8259 §8.1); this one starts with the "
                    + "\(encoding) byte-order mark \(shown)"
            )
        }
        if body.starts(with: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF]) {
            throw FeedParseError(
                kind: .malformedJSON,
                source: url,
                message: "a JSON Feed starts with two UTF-8 byte-order marks (EF BB BF EF BB BF); one at most is read"
            )
        }
        let start = body.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        if body[start...].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw FeedParseError(kind: .empty, source: url, message: "empty document")
        }
    }

    /// Refuses a JSON object that is no feed (an API's search results served as JSON): a JSON
    /// Feed has a `version` that is a JSON Feed version URL, or `items` of which one at least
    /// looks like a feed item (an object with an `id`, `url`, `title`, `content_html` or
    /// `content_text`). A feed whose `version` is something else (`"1.1"`) but whose items look
    /// like a feed's is read, with a warning: it was read before the version was checked.
    static func checkIsFeed(_ document: JSONFeedDocument, url: String, warnings: inout WarningLog)
        throws(FeedParseError)
    {
        let version = document.version
        if let version,
            version.hasPrefix("https://jsonfeed.org/version/") || version.hasPrefix("http://jsonfeed.org/version/")
        {
            return
        }
        guard document.hasFeedItems else {
            let versionSays =
                version.map { "its version \"\(excerpt($0))\" is no https://jsonfeed.org/version/ URL" }
                ?? "it has no version"
            throw FeedParseError(
                kind: .unsupportedFormat,
                source: url,
                message: "JSON document is not a JSON Feed: \(versionSays), and no items with an id, url, title, "
                    + "content_html or content_text"
            )
        }
        if let version {
            warnings.add(
                line: nil,
                column: nil,
                "version \"\(excerpt(version))\" is no https://jsonfeed.org/version/ URL; read as a JSON Feed for its items"
            )
        }
    }
}

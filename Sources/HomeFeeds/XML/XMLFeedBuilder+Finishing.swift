internal import CLibXML2

/// Element ends: turning captured text into field values, entries and the final document.
extension XMLFeedBuilder {
    mutating func finishField() {
        guard let field = captureField else { return }
        captureField = nil
        if captureIsBase64 && !decodeBase64Capture() { return }
        switch field {
        case .feedTitle(let rank):
            guard rank < feedTitleRank, let value = capturedPlainText(captureMode) else { return }
            (feedTitle, feedTitleRank) = (value, rank)
        case .feedLink:
            if feedLink == nil { feedLink = capturedLink(what: "feed link") }
        case .opmlTitle:
            if opmlTitle == nil { opmlTitle = capturedPlainText(.literal) }
        case .entryTitle(let rank):
            guard isInEntry, rank < entry.titleRank, let value = capturedPlainText(captureMode) else {
                return
            }
            entry.title = value
            entry.titleRank = rank
        case .entryLink:
            if isInEntry, entry.link == nil, let link = capturedLink(what: "link") { entry.link = link }
        case .guid:
            guard isInEntry, entry.nativeID == nil, let guid = capturedTrimmed() else { return }
            // A permalink guid is the link only when it is one a reader may follow; refusing it
            // needs no warning, since the guid still serves as the id.
            if entry.guidIsPermaLink, let link = URIReference.resolve(guid, against: captureBase),
                linkPolicy.refusal(link, purpose: .page) == nil
            {
                entry.guidLink = link
            }
            // Last: the guid moves into the entry.
            recordNativeID(guid)
        case .atomID:
            if isInEntry, entry.nativeID == nil, let id = capturedTrimmed() { recordNativeID(id) }
        case .summary(let rank):
            guard isInEntry, rank < entry.summaryRank else {
                if captureMode == .html { scanCapturedHTMLForImage() }
                return
            }
            let value = capturedPlainText(captureMode)
            // The plain-text pass read every `<` of the HTML: most often none can start an image.
            if captureMode == .html && plain.mayHoldImageTag { scanCapturedHTMLForImage() }
            guard let value else { return }
            entry.summary = value
            entry.summaryRank = rank
        case .contentImages:
            scanCapturedHTMLForImage()
        case .date(let rank):
            guard isInEntry, rank < entry.dateRank, let value = capturedTimestamp() else { return }
            entry.published = value
            entry.dateRank = rank
        }
    }

    /// Sets the entry's native id with its hash, and starts loading the duplicate table's slot
    /// for it: the table of a long document is out of the caches, and the entry's end, which
    /// probes that slot, is some hundred instructions away (issue 17).
    ///
    /// Consumes `id`, which moves into the entry (a borrowed one was retained to be stored).
    mutating func recordNativeID(_ id: consuming String) {
        guard isInEntry else { return }
        let hash = HashedKey.hashCode(of: id)
        entry.nativeIDHash = hash
        disambiguator.warm(hashCode: hash)
        entry.nativeID = consume id
    }

    private mutating func capturedLink(what: String) -> String? {
        guard let link = capturedResolvedLink() else { return nil }
        return allowedLink(link, purpose: .page, what: what)
    }

    /// Replaces the captured base64 text by the bytes it encodes, made valid UTF-8. False (and
    /// a warning) when it is not base64, or does not decode to text.
    private mutating func decodeBase64Capture() -> Bool {
        guard let decoded = Base64.decode(text.withUnsafeBufferPointer { Array($0) }) else {
            let (line, column) = position()
            warnings.add(line: line, column: column, "base64 content that does not decode dropped")
            return false
        }
        var log = WarningLog()
        var sanitizer = UTF8Sanitizer(.utf8(mayFallBack: false))
        var repaired: [UInt8] = []
        decoded.withUnsafeBytes { sanitizer.process($0, isFinal: true, warnings: &log) { repaired += $0 } }
        guard !sanitizer.hasRecovered else {
            let (line, column) = position()
            warnings.add(line: line, column: column, "base64 content that is not text dropped")
            return false
        }
        text.replace(with: repaired)
        return true
    }

    mutating func finishEntry() {
        // The entry's strings and arrays move from the state into the `FeedEntry` and on into
        // `entries`: taking each field, and consuming the built entry, costs no retain and
        // release per string (20 000-entry documents spent 5 % of their parse on them).
        guard isInEntry else { return }
        isInEntry = false
        var state = EntryState()
        swap(&state, &entry)
        let link: String?
        let source: EntryIDSource
        if isAtom {
            link = state.alternates.chosen
            source = .atomID
        } else {
            link = state.link.take() ?? state.guidLink.take()
            source = isRDF ? .rdfAbout : .guid
        }
        var enclosures: [FeedEnclosure] = []
        swap(&enclosures, &state.enclosures)
        let title = state.title.take()
        let summary = state.summary.take()
        guard
            let (id, idSource) = EntryIdentity.baseID(
                nativeID: state.nativeID.take(),
                nativeSource: source,
                title: title,
                link: link,
                summary: summary
            )
        else {
            let (line, column) = position()
            warnings.add(line: line, column: column, "entry dropped: it has no id, link, title or summary")
            return
        }
        // Built in the call, not returned as an optional by `EntryIdentity.entry` nor held in
        // a variable: either way the entry was copied and destroyed once more (see `baseID`).
        // The hash computed with the native id, when that is the base id.
        let baseHash = idSource == source ? state.nativeIDHash : nil
        let dropped = disambiguator.append(
            FeedEntry(
                id: consume id,
                idSource: idSource,
                title: consume title,
                link: consume link,
                published: state.published,
                summary: consume summary,
                enclosures: consume enclosures,
                images: state.images.ordered
            ),
            baseHash: baseHash,
            to: &entries
        )
        if let dropped {
            let (line, column) = position()
            warnings.add(
                line: line,
                column: column,
                "entry \"\(excerpt(dropped))\" dropped: it repeats an earlier entry exactly"
            )
        }
    }

    /// The document, once libxml2 has seen the end of the body.
    mutating func finish() throws(FeedParseError) -> FeedDocument {
        if let stopError { throw stopError }
        guard let root else {
            if let firstError {
                let kind: FeedParseError.Kind =
                    firstError.code == 32
                    ? .unsupportedEncoding(firstError.message) : .malformedXML(code: firstError.code)
                throw FeedParseError(
                    kind: kind,
                    source: documentURL,
                    line: firstError.line,
                    column: firstError.column,
                    message: "no feed or OPML document element (libxml2: \(firstError.message))"
                )
            }
            throw FeedParseError(
                kind: .malformedXML(code: 0),
                source: documentURL,
                message: "no feed or OPML document element"
            )
        }
        // Elements still open here that libxml2 closed, for end tags it matched by one level
        // off after a stray end tag (`closeOpenElements(named:)`), are no sign of a cut body.
        let libxml2HoldsElements = context.map { $0.pointee.nameNr > 0 } ?? true
        if let openElement = stack.last, !isTruncated, libxml2HoldsElements {
            let (line, column) = position()
            let name = shownName(openElement.name)
            // A body that ends inside its root before any feed content is cut short, not empty.
            guard hasContent else {
                throw FeedParseError(
                    kind: .malformedXML(code: 77),
                    source: documentURL,
                    line: line,
                    column: column,
                    message: "the document ends inside <\(name)> before any feed content (truncated?)"
                )
            }
            isWellFormed = false
            warnings.add(line: line, column: column, "recovered: the document ends inside <\(name)> (truncated?)")
        }
        // A body cut short leaves its last entry open; what was read of it still counts.
        if captureField != nil { finishField() }
        if isInEntry { finishEntry() }
        if isTruncated {
            warnings.add(line: nil, column: nil, "stopped after \(limits.maxEntries) entries (the entry limit)")
        }
        let format: FeedFormat
        switch root {
        case .opml:
            return .opml(
                OPMLDocument(
                    documentURL: documentURL,
                    title: opmlTitle,
                    outlines: outlines,
                    refusedOutlines: refusedOutlines,
                    isWellFormed: isWellFormed,
                    warnings: warnings.sorted,
                    warningCount: warnings.count
                )
            )
        case .rss(let rssFormat): format = rssFormat
        case .rdf: format = .rss10
        case .atom: format = .atom10
        }
        return .feed(
            ParsedFeed(
                format: format,
                feedURL: documentURL,
                title: feedTitle,
                link: isAtom ? feedAlternates.chosen : feedLink,
                entries: entries,
                isTruncated: isTruncated,
                isWellFormed: isWellFormed,
                warnings: warnings.sorted,
                warningCount: warnings.count
            )
        )
    }

    /// Whether anything of the feed was read: a title, a link, an entry or an outline, or
    /// text being captured for one.
    private var hasContent: Bool {
        feedTitle != nil || feedLink != nil || feedAlternates.chosen != nil || entriesStarted > 0 || opmlTitle != nil
            || !outlines.isEmpty || (captureField != nil && !text.isEmpty)
    }
}

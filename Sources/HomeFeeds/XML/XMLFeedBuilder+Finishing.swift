/// Element ends: turning captured text into field values, entries and the final document.
extension XMLFeedBuilder {
    func finishField() {
        guard let field = captureField else { return }
        captureField = nil
        switch field {
        case .feedTitle:
            if feedTitle == nil { feedTitle = capturedPlainText(captureMode) }
        case .feedLink:
            if feedLink == nil { feedLink = capturedLink() }
        case .opmlTitle:
            if opmlTitle == nil { opmlTitle = capturedPlainText(.literal) }
        case .entryTitle:
            if entry?.title == nil { entry?.title = capturedPlainText(captureMode) }
        case .entryLink:
            if entry?.link == nil { entry?.link = capturedLink() }
        case .guid:
            guard entry?.nativeID == nil, let guid = capturedTrimmed() else { return }
            entry?.nativeID = guid
            if entry?.guidIsPermaLink == true { entry?.guidLink = URIReference.resolve(guid, against: captureBase) }
        case .atomID:
            if entry?.nativeID == nil { entry?.nativeID = capturedTrimmed() }
        case .summaryPrimary:
            if captureMode == .html { scanCapturedHTMLForImage() }
            if entry?.summaryPrimary == nil { entry?.summaryPrimary = capturedPlainText(captureMode) }
        case .summarySecondary:
            if captureMode == .html { scanCapturedHTMLForImage() }
            if entry?.summarySecondary == nil { entry?.summarySecondary = capturedPlainText(captureMode) }
        case .contentImages:
            scanCapturedHTMLForImage()
        case .datePrimary:
            if entry?.datePrimary == nil { entry?.datePrimary = capturedTimestamp() }
        case .dateSecondary:
            if entry?.dateSecondary == nil { entry?.dateSecondary = capturedTimestamp() }
        }
    }

    private func capturedLink() -> String? {
        capturedTrimmed().flatMap { URIReference.resolve($0, against: captureBase) }
    }

    func finishEntry() {
        guard let state = entry.take() else { return }
        let link: String?
        let source: EntryIDSource
        if isAtom {
            link = LinkCandidate.choose(state.alternates)
            source = .atomID
        } else {
            link = state.link ?? state.guidLink
            source = isRDF ? .rdfAbout : .guid
        }
        let built = EntryIdentity.entry(
            nativeID: state.nativeID,
            nativeSource: source,
            title: state.title,
            link: link,
            summary: state.summaryPrimary ?? state.summarySecondary,
            published: state.datePrimary ?? state.dateSecondary,
            enclosures: state.enclosures
        )
        if var built {
            built.images = state.images.ordered
            disambiguator.append(built, to: &entries)
        }
    }

    /// The document, once libxml2 has seen the end of the body.
    func finish() throws(FeedParseError) -> FeedDocument {
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
        // A body cut short leaves its last entry open; what was read of it still counts.
        if captureField != nil { finishField() }
        if entry != nil { finishEntry() }
        let format: FeedFormat
        switch root {
        case .opml:
            return .opml(
                OPMLDocument(documentURL: documentURL, title: opmlTitle, outlines: outlines, diagnostics: diagnostics)
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
                link: isAtom ? LinkCandidate.choose(feedAlternates) : feedLink,
                entries: entries,
                isTruncated: isTruncated,
                diagnostics: diagnostics
            )
        )
    }
}

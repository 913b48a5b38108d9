/// The image candidates of RSS, RDF and Atom entries (`FeedImage`'s order): the hooks the
/// element handlers call, kept apart from the text and identity rules.
///
/// Every candidate passes the link policy as a resource (`LinkPolicy`): `http`/`https`, or
/// `file:` inside a document read from a file. A refused element or attribute URL is reported
/// like any other link; a refused `<img>` inside HTML text is skipped without a warning, as the
/// rest of that markup is.
extension XMLFeedBuilder {
    /// An RSS `<enclosure>` or an Atom `<link rel="enclosure">` (`url` absolute and allowed;
    /// `type` trimmed, nil when empty).
    mutating func addEnclosureImage(url: String, type: String?, length: Int64?, origin: FeedImage.Origin) {
        guard isInEntry else { return }
        guard ImageCandidates.isImage(type: type, url: url) else { return }
        entry.images.add(
            FeedImage(url: url, origin: origin, type: type, length: length.flatMap { $0 >= 0 ? $0 : nil })
        )
    }

    /// `media:thumbnail`: always an image.
    mutating func addMediaThumbnail(_ attributes: XMLAttributes) {
        guard let absolute = resolvedResource(attributes, "url", what: "media:thumbnail") else { return }
        addMediaImage(attributes, url: absolute, isThumbnail: true)
    }

    /// `media:thumbnail`, or `media:content` when it is an image by `medium` or `type`
    /// (`url` absolute and allowed).
    mutating func addMediaImage(_ attributes: XMLAttributes, url: String, isThumbnail: Bool) {
        guard isInEntry else { return }
        let type = attributes.trimmedValue("type")
        if !isThumbnail {
            let medium = attributes.value("medium").map { String(URIReference.trimASCIIAndNBSP($0)) }
            guard ImageCandidates.isImage(type: type, url: url, medium: medium) else { return }
        }
        let width = ImageCandidates.dimension(attributes.value("width"))
        let height = ImageCandidates.dimension(attributes.value("height"))
        entry.images.add(
            FeedImage(
                url: url,
                origin: isThumbnail ? .mediaThumbnail : .mediaContent,
                type: type,
                width: width != nil && height != nil ? width : nil,
                height: width != nil && height != nil ? height : nil,
                length: attributes.byteCount("fileSize")
            )
        )
    }

    /// `<itunes:image href="…">`.
    mutating func addITunesImage(_ attributes: XMLAttributes) {
        guard let absolute = resolvedResource(attributes, "href", what: "itunes:image"), isInEntry else { return }
        entry.images.add(FeedImage(url: absolute, origin: .itunesImage))
    }

    /// An `<img>` element inside captured XHTML (Atom `type="xhtml"`, or HTML that arrived as
    /// markup rather than escaped text).
    mutating func addInlineImage(name: UnsafePointer<UInt8>, attributes: XMLAttributes) {
        guard isInEntry, !entry.images.hasContentImage, XMLName.equals(name, strlenUInt8(name), "img"),
            let source = attributes.value("src"), let absolute = URIReference.resolve(source, against: bases.last),
            linkPolicy.refusal(absolute, purpose: .resource) == nil
        else { return }
        let width = ImageCandidates.dimension(attributes.value("width"))
        let height = ImageCandidates.dimension(attributes.value("height"))
        if let width, width <= 2 { return }
        if let height, height <= 2 { return }
        entry.images.add(FeedImage(url: absolute, origin: .contentImage, width: width, height: height))
    }

    /// The first `<img>` of the HTML just captured (an entry's summary or content).
    mutating func scanCapturedHTMLForImage() {
        guard isInEntry, !entry.images.hasContentImage else { return }
        guard let found = text.withUnsafeBufferPointer({ HTMLImageScanner.firstImage(in: $0) }),
            let absolute = URIReference.resolve(found.source, against: captureBase),
            linkPolicy.refusal(absolute, purpose: .resource) == nil
        else { return }
        entry.images.add(FeedImage(url: absolute, origin: .contentImage, width: found.width, height: found.height))
    }

    /// Text of a field captured only to look for its first image (content beside a summary):
    /// at most `HTMLImageScanner.maxScannedBytes`, not counted against the text limits.
    mutating func appendScannedText(_ bytes: UnsafePointer<UInt8>, count: Int) {
        let room = HTMLImageScanner.maxScannedBytes - text.count
        guard room > 0 else { return }
        text.append(UnsafeBufferPointer(start: bytes, count: min(count, room)))
    }
}

/// Links read from element attributes (Atom `link`, enclosures, `media:content`): resolved
/// against the current base and checked by the link policy before they are kept.
extension XMLFeedBuilder {
    /// An alternate or enclosure Atom link with an allowed absolute `href`, or nil; a refused
    /// one is reported. Other relations (`self`, `hub`, `related`…) never reach the output.
    mutating func atomLink(_ attributes: XMLAttributes) -> LinkCandidate? {
        let (rel, href, type, _) = attributes.lookUp("rel", "href", "type")
        return atomLink(rel: rel, href: href, type: type)
    }

    /// ``atomLink(_:)`` from the link's attributes, looked up once by the caller.
    mutating func atomLink(rel: XMLAttributeValue, href: XMLAttributeValue, type: XMLAttributeValue) -> LinkCandidate? {
        let relation: LinkCandidate.Relation
        if let rel = rel.trimmedBytes, !rel.isEmpty {
            if HTMLTagNames.equalsIgnoringCase(rel, "alternate") {
                relation = .alternate
            } else if HTMLTagNames.equalsIgnoringCase(rel, "enclosure") {
                relation = .enclosure
            } else {
                return nil
            }
        } else {
            relation = .alternate
        }
        guard let resolved = resolvedHref(href) else { return nil }
        // The allowed link is the resolved one, moved through `allowedLink`, not copied past it.
        guard
            let allowed = relation == .alternate
                ? allowedLink(resolved, purpose: .page, what: "link")
                : allowedLink(resolved, purpose: .resource, what: "enclosure")
        else { return nil }
        let isHTML = type.trimmedBytes.map {
            $0.isEmpty || HTMLTagNames.equalsIgnoringCase($0, "text/html")
        }
        return LinkCandidate(relation: relation, isHTML: isHTML ?? true, href: allowed)
    }

    /// An `href` resolved against the current base (``resolvedLink(_:)``), where an empty one is
    /// the base less its fragment (RFC 3986 §5.2: the empty reference is the current document).
    /// Nil when absent. An empty link element (`<link></link>`) stays a missing link.
    private mutating func resolvedHref(_ value: XMLAttributeValue) -> String? {
        guard value.withDecoded({ $0.trimmingASCIIAndNBSP().isEmpty }) == true else { return resolvedLink(value) }
        let base = bases.last ?? documentURL
        return String(base.prefix { $0 != "#" })
    }

    /// The attribute value decoded and resolved against the current base, or nil. The base is
    /// read only for a link that needs one (`URIReference.cleanAbsolute`): a copy of it costs an
    /// atomic retain and release.
    private mutating func resolvedLink(_ value: XMLAttributeValue) -> String? {
        value.withDecoded { bytes in
            URIReference.cleanAbsolute(bytes) ?? linkResolver.resolve(bytes, against: bases.last)
        } ?? nil
    }

    /// `url` when the link policy allows it, else nil and a warning. Consumes `url`: returned,
    /// a borrowed one was retained (and the caller's released), twice per RSS item.
    mutating func allowedLink(_ url: consuming String, purpose: LinkPolicy.Purpose, what: String) -> String? {
        guard let reason = linkPolicy.refusal(url, purpose: purpose) else { return url }
        let (line, column) = position()
        warnings.add(line: line, column: column, LinkPolicy.message(url, reason, what: what))
        return nil
    }

    /// The attribute `name` resolved against the current base and allowed as a resource
    /// (`allowedLink` warns about a refused one, as `what`), or nil; no String is made for the
    /// value as written. Nil outside an entry, where a resource has nowhere to go.
    mutating func resolvedResource(_ attributes: XMLAttributes, _ name: StaticString, what: String) -> String? {
        resolvedResource(attributes.lookUp(name), what: what)
    }

    /// ``resolvedResource(_:_:what:)`` for an attribute already looked up.
    mutating func resolvedResource(_ value: XMLAttributeValue, what: String) -> String? {
        guard isInEntry, let absolute = resolvedLink(value) else { return nil }
        return allowedLink(absolute, purpose: .resource, what: what)
    }

    /// `media:content`: an enclosure, and an image candidate when it is an image.
    mutating func addMediaContent(_ attributes: XMLAttributes) {
        guard let absolute = resolvedResource(attributes, "url", what: "enclosure") else { return }
        addEnclosure(
            url: absolute,
            type: attributes.trimmedValue("type"),
            length: attributes.byteCount("fileSize")
        )
        addMediaImage(attributes, url: absolute, isThumbnail: false)
    }

    /// Appends an enclosure unless it is already listed for this entry, or the entry has
    /// `FeedEnclosure.limitPerEntry`.
    ///
    /// - Parameters:
    ///   - url: absolute and allowed by the link policy (``resolvedResource(_:_:what:)``, or an
    ///     Atom link checked as it was read); nil adds nothing.
    ///   - type: the MIME type, trimmed, nil when absent or empty (`XMLAttributes.trimmedValue`).
    ///   - image: where an enclosure of an image type ranks as an image candidate (`FeedImage`).
    ///
    /// Consumes `url` and `type`, which move into the enclosure.
    mutating func addEnclosure(
        url: consuming String?,
        type: consuming String?,
        length: Int64?,
        image origin: FeedImage.Origin? = nil
    ) {
        guard isInEntry, let absolute = url else { return }
        if let origin { addEnclosureImage(url: absolute, type: type, length: length, origin: origin) }
        // The first one as a one-element array: appending to the empty array took the growth
        // path (`_consumeAndCreateNew`), some 300 instructions per enclosure (issue 17).
        guard let first = entry.enclosures.first else {
            entry.enclosures = [FeedEnclosure(url: absolute, type: type, length: length)]
            return
        }
        guard entry.enclosures.count < FeedEnclosure.limitPerEntry else { return }
        if entry.enclosureURLs.isEmpty { entry.enclosureURLs.insert(first.url) }
        guard entry.enclosureURLs.insert(absolute).inserted else { return }
        entry.enclosures.append(FeedEnclosure(url: absolute, type: type, length: length))
    }
}

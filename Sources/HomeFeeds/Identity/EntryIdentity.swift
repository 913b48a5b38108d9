/// An entry as read from the document, before the identity rule of `feed-parsing.md` §3.
struct EntryDraft {
    /// The format's own id (guid, Atom id, rdf:about, JSON id), trimmed; nil when missing or empty.
    var nativeID: String?
    var nativeSource: EntryIDSource
    var title: String?
    var link: String?
    var summary: String?
    var published: FeedTimestamp?
    var enclosures: [FeedEnclosure]
}

/// The identity rule and the in-document duplicate rules of `feed-parsing.md` §3.
enum EntryIdentity {
    /// Assigns ids in document order: native id, else absolute link, else `sha256:` of the title,
    /// else of the summary; entries with none are dropped. Exact repeats of an earlier entry
    /// with the same base id are dropped; other clashes become `base|link` or `base|k`
    /// (Miniflux's disambiguation, so one guid on every item does not collapse a feed).
    ///
    /// "Earlier ones" are the kept entries with the same *base* id; the spec's wording allows
    /// comparing against final ids too, which differs only for a third clash and would keep
    /// repeats of a `base|link` entry.
    static func assign(_ drafts: [EntryDraft]) -> [FeedEntry] {
        var entries: [FeedEntry] = []
        entries.reserveCapacity(drafts.count)
        // First kept index per base id; later ones only when a base repeats (rare).
        var firstByBase: [String: Int] = [:]
        var laterByBase: [String: [Int]] = [:]
        var keptLinks: Set<String> = []
        firstByBase.reserveCapacity(drafts.count)
        keptLinks.reserveCapacity(drafts.count)
        for draft in drafts {
            guard let (base, source) = baseID(of: draft) else { continue }
            var id = base
            var idSource = source
            if let first = firstByBase[base] {
                let earlier = [first] + (laterByBase[base] ?? [])
                let isRepeat = earlier.contains { index in
                    let other = entries[index]
                    return other.title == draft.title && other.link == draft.link && other.summary == draft.summary
                        && other.published == draft.published
                }
                if isRepeat { continue }
                if let link = draft.link, !keptLinks.contains(link) {
                    id = base + "|" + link
                    idSource = .guidPlusLink
                } else {
                    id = base + "|" + String(1 + earlier.count)
                    idSource = .guidPlusN
                }
            }
            if firstByBase[base] == nil {
                firstByBase[base] = entries.count
            } else {
                laterByBase[base, default: []].append(entries.count)
            }
            if let link = draft.link { keptLinks.insert(link) }
            entries.append(
                FeedEntry(
                    id: id,
                    idSource: idSource,
                    title: draft.title,
                    link: draft.link,
                    published: draft.published,
                    summary: draft.summary,
                    enclosures: draft.enclosures
                )
            )
        }
        return entries
    }

    private static func baseID(of draft: EntryDraft) -> (String, EntryIDSource)? {
        if let native = draft.nativeID { return (native, draft.nativeSource) }
        if let link = draft.link { return (link, .link) }
        if let title = draft.title { return ("sha256:" + SHA256.hexDigest(title.utf8), .titleHash) }
        if let summary = draft.summary { return ("sha256:" + SHA256.hexDigest(summary.utf8), .summaryHash) }
        return nil
    }
}

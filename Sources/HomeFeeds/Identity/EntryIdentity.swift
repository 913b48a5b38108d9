/// The identity rule and the in-document duplicate rules of `feed-parsing.md` §3.
///
/// Works in two steps so entries are built once and never copied: `entry(…)` gives each entry
/// its base id as it is read, `disambiguate(_:)` then rewrites clashing ids in place.
enum EntryIdentity {
    /// An entry with its base id: the format's native id, else the absolute link, else
    /// `sha256:` of the normalised title, else of the summary. Nil when it has none of these:
    /// such an entry is dropped.
    static func entry(
        nativeID: String?,
        nativeSource: EntryIDSource,
        title: String?,
        link: String?,
        summary: String?,
        published: FeedTimestamp?,
        enclosures: [FeedEnclosure]
    ) -> FeedEntry? {
        let id: String
        let source: EntryIDSource
        if let nativeID {
            (id, source) = (nativeID, nativeSource)
        } else if let link {
            (id, source) = (link, .link)
        } else if let title {
            (id, source) = ("sha256:" + SHA256.hexDigest(title.utf8), .titleHash)
        } else if let summary {
            (id, source) = ("sha256:" + SHA256.hexDigest(summary.utf8), .summaryHash)
        } else {
            return nil
        }
        return FeedEntry(
            id: id,
            idSource: source,
            title: title,
            link: link,
            published: published,
            summary: summary,
            enclosures: enclosures
        )
    }

    /// Walks the entries in document order. An entry whose base id an earlier kept entry already
    /// has is dropped when it repeats that entry exactly (title, link, summary, published);
    /// otherwise it becomes `base|link` when no earlier entry has its link, else `base|k` with
    /// k = 1 + the earlier kept entries of that base (Miniflux's disambiguation, so one guid on
    /// every item does not collapse a feed). The first occurrence keeps the plain id.
    ///
    /// "Earlier ones" are the kept entries with the same *base* id; the spec's wording also
    /// allows comparing final ids, which differs only from a third clash on.
    static func disambiguate(_ entries: inout [FeedEntry]) {
        var firstByBase: [String: Int] = [:]
        var laterByBase: [String: [Int]] = [:]
        var keptLinks: Set<String> = []
        firstByBase.reserveCapacity(entries.count)
        keptLinks.reserveCapacity(entries.count)
        var dropped: [Bool] = []
        for index in entries.indices {
            let base = entries[index].id
            if let first = firstByBase[base] {
                let earlier = [first] + (laterByBase[base] ?? [])
                let isRepeat = earlier.contains { other in
                    entries[other].title == entries[index].title && entries[other].link == entries[index].link
                        && entries[other].summary == entries[index].summary
                        && entries[other].published == entries[index].published
                }
                if isRepeat {
                    if dropped.isEmpty { dropped = Array(repeating: false, count: entries.count) }
                    dropped[index] = true
                    continue
                }
                if let link = entries[index].link, !keptLinks.contains(link) {
                    entries[index].id = base + "|" + link
                    entries[index].idSource = .guidPlusLink
                } else {
                    entries[index].id = base + "|" + String(1 + earlier.count)
                    entries[index].idSource = .guidPlusN
                }
                laterByBase[base, default: []].append(index)
            } else {
                firstByBase[base] = index
            }
            if let link = entries[index].link { keptLinks.insert(link) }
        }
        if !dropped.isEmpty {
            entries = entries.indices.filter { !dropped[$0] }.map { entries[$0] }
        }
    }
}

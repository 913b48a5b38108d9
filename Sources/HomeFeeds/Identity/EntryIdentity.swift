/// The identity rule and the in-document duplicate rules of `feed-parsing.md` §3.
///
/// `entry(…)` gives each entry its base id as it is read; `EntryDisambiguator` then applies the
/// duplicate rules.
enum EntryIdentity {
    /// An entry with its base id: the format's native id, else the absolute link, else
    /// `sha256:` of the normalised title, else of the summary. Nil when it has none of these:
    /// such an entry is dropped.
    ///
    /// The strings and the array are consumed: they move into the entry without a copy.
    static func entry(
        nativeID: consuming String?,
        nativeSource: EntryIDSource,
        title: consuming String?,
        link: consuming String?,
        summary: consuming String?,
        published: FeedTimestamp?,
        enclosures: consuming [FeedEnclosure],
        images: consuming [FeedImage] = []
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
        var entry = FeedEntry(
            id: id,
            idSource: source,
            title: title,
            link: link,
            published: published,
            summary: summary,
            enclosures: enclosures
        )
        entry.images = images
        return entry
    }

}

/// The duplicate rules of `feed-parsing.md` §3, applied as each entry is read (document order),
/// while its strings are still hot in the cache.
///
/// An entry whose base id an earlier kept entry already has is dropped when it repeats that
/// entry exactly (title, link, summary, published); otherwise it becomes `base|link` when no
/// earlier entry has its link, else `base|k` with k = 1 + the earlier kept entries of that
/// base (Miniflux's disambiguation, so one guid on every item does not collapse a feed). The
/// first occurrence keeps the plain id.
///
/// "Earlier ones" are the kept entries with the same *base* id; the spec's wording also allows
/// comparing final ids, which differs only from a third clash on.
struct EntryDisambiguator {
    private var firstByBase = FirstIndexTable()
    private var laterByBase: [HashedKey: [Int]] = [:]
    /// Links of the kept entries, built only once a base id clashes (most feeds never do).
    private var keptLinks: Set<HashedKey>?

    /// Appends `entry` (carrying its base id) to `entries`, renamed if its base clashes, or
    /// drops it when it is an exact repeat.
    ///
    /// - Returns: false when the entry was dropped as an exact repeat.
    @discardableResult
    mutating func append(_ entry: consuming FeedEntry, to entries: inout [FeedEntry]) -> Bool {
        let base = HashedKey(entry.id)
        if let first = firstByBase.find(base, in: entries) {
            let earlier = [first] + (laterByBase[base] ?? [])
            let isRepeat = earlier.contains { other in
                entries[other].title == entry.title && entries[other].link == entry.link
                    && entries[other].summary == entry.summary && entries[other].published == entry.published
            }
            if isRepeat { return false }
            if keptLinks == nil {
                keptLinks = Set(entries.compactMap { $0.link.map(HashedKey.init) })
            }
            if let link = entry.link, keptLinks?.contains(HashedKey(link)) == false {
                entry.id = base.text + "|" + link
                entry.idSource = .guidPlusLink
            } else {
                entry.id = base.text + "|" + String(1 + earlier.count)
                entry.idSource = .guidPlusN
            }
            laterByBase[base, default: []].append(entries.count)
        } else {
            firstByBase.insert(base, index: entries.count)
        }
        if keptLinks != nil, let link = entry.link { keptLinks?.insert(HashedKey(link)) }
        entries.append(consume entry)
        return true
    }
}

/// A string with its hash computed once (seeded SipHash over its UTF-8, via `Hasher`), so
/// growing a dictionary of 10 000 ids never rehashes the strings themselves.
struct HashedKey: Hashable {
    let text: String
    /// Seeded SipHash of the UTF-8 (`Hasher`), per process.
    let hashCode: Int

    init(_ text: String) {
        var copy = text
        var hasher = Hasher()
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hashCode = hasher.finalize()
        self.text = copy
    }

    static func == (lhs: HashedKey, rhs: HashedKey) -> Bool {
        lhs.hashCode == rhs.hashCode && lhs.text == rhs.text
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hashCode)
    }
}

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
        guard
            let (id, source) = baseID(
                nativeID: nativeID,
                nativeSource: nativeSource,
                title: title,
                link: link,
                summary: summary
            )
        else { return nil }
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

    /// The base id of an entry with these fields and where it came from, nil when it has
    /// none (see `entry(…)`). For callers that build the `FeedEntry` in place: an optional
    /// entry returned by value is copied field by field when it is unwrapped (two copies and
    /// two destructions of eight references per entry in the XML parser, issue 17).
    static func baseID(
        nativeID: consuming String?,
        nativeSource: EntryIDSource,
        title: String?,
        link: String?,
        summary: String?
    ) -> (id: String, source: EntryIDSource)? {
        // Taken, not bound: a bound copy is retained, and the parameter then released.
        if let nativeID = nativeID.take() { return (nativeID, nativeSource) }
        return derivedID(title: title, link: link, summary: summary)
    }

    /// `baseID` for an entry without a native id. Out of line: most entries have one, and the
    /// hashing inlined into the entry's end made that hot code span more cache lines (issue 17).
    @inline(never)
    private static func derivedID(
        title: String?,
        link: String?,
        summary: String?
    ) -> (id: String, source: EntryIDSource)? {
        if let link { return (link, .link) }
        if let title { return ("sha256:" + SHA256.hexDigest(title.utf8), .titleHash) }
        if let summary { return ("sha256:" + SHA256.hexDigest(summary.utf8), .summaryHash) }
        return nil
    }

}

/// The duplicate rules of `feed-parsing.md` §3, applied as each entry is read (document order),
/// while its strings are still hot in the cache.
///
/// The earlier ones of an entry are the kept entry whose id equals its base id (§3: "a kept
/// entry whose id equals this entry's base id is an earlier one") and the kept entries renamed
/// from that base. The entry is dropped when it repeats one of them exactly (title, link,
/// summary, published), looked up in a set rather than compared with each (10 000 items of one
/// guid made 50 million comparisons: 4.5 s of a release parse of a 14 MB feed). Otherwise it
/// becomes `base|link` when no earlier entry has its link, else `base|k` with k = 1 + the
/// earlier ones (Miniflux's disambiguation, so one guid on every item does not collapse a feed). The first occurrence keeps the plain id. Ids stay unique in
/// the document: a renamed id that a kept entry already has (a native `a|https://e.test/2` read
/// before the renamed `a`) gives way to `base|k`, and k to the first free number.
struct EntryDisambiguator {
    /// Every kept entry by its id, plain or renamed.
    private var keptByID = FirstIndexTable()
    /// How many kept entries were renamed from each base.
    private var renamedCount: [HashedKey: Int] = [:]
    /// The contents of the earlier ones of every base that clashed.
    private var keptContents: Set<EntryContent> = []
    /// Past the last `base|k` given, by base: every number from where that search began up to
    /// it was taken, and stays taken, so the next search starts here, not at 1 + the earlier
    /// ones (native ids `a|2` … `a|5000` would otherwise be walked again by every clash).
    private var nextNumber: [HashedKey: Int] = [:]
    /// Links of the kept entries, built only once a base id clashes (most feeds never do).
    private var keptLinks: Set<HashedKey>?

    /// Starts loading the table slot `append` will probe first for a base id with this hash
    /// (`HashedKey.hashCode(of:)`), so the probe does not wait for memory. A hint only.
    func warm(hashCode: Int) {
        keptByID.warm(hashCode: hashCode)
    }

    /// Appends `entry` (carrying its base id) to `entries`, renamed if its base clashes, or
    /// drops it when it is an exact repeat.
    ///
    /// - Returns: the dropped entry's id when it was an exact repeat, nil when it was kept (the
    ///   id rather than a flag, so a caller need not keep its own copy of every id to name the
    ///   rare dropped one).
    ///
    /// - Parameter baseHash: `HashedKey.hashCode(of: entry.id)` when the caller has it already.
    @discardableResult
    @inline(__always)
    mutating func append(_ entry: consuming FeedEntry, baseHash: Int? = nil, to entries: inout [FeedEntry]) -> String? {
        let hashCode = baseHash ?? HashedKey.hashCode(of: entry.id)
        // The common case inline, so the entry moves into `entries` without a copy.
        guard let first = keptByID.find(entry.id, hashCode: hashCode, in: entries) else {
            keptByID.insert(hashCode: hashCode, index: entries.count)
            if keptLinks != nil, let link = entry.link { keptLinks?.insert(HashedKey(link)) }
            entries.append(entry)
            return nil
        }
        return appendClashing(entry, base: HashedKey(entry.id, hashCode: hashCode), first: first, to: &entries)
    }

    /// `append` for an entry whose base id a kept entry (`first`) has.
    @inline(never)
    private mutating func appendClashing(
        _ entry: consuming FeedEntry,
        base: HashedKey,
        first: Int,
        to entries: inout [FeedEntry]
    ) -> String? {
        let renamedSoFar = renamedCount[base] ?? 0
        if renamedSoFar == 0 { keptContents.insert(EntryContent(base: base, entries[first])) }
        let content = EntryContent(base: base, entry)
        if keptContents.contains(content) { return entry.id }
        if keptLinks == nil {
            keptLinks = Set(entries.compactMap { $0.link.map(HashedKey.init) })
        }
        let renamed: HashedKey
        if let link = entry.link, keptLinks?.contains(HashedKey(link)) == false,
            let free = unused(base.text + "|" + link, in: entries)
        {
            renamed = free
            entry.idSource = .guidPlusLink
        } else {
            var k = max(2 + renamedSoFar, nextNumber[base] ?? 0)
            while unused(base.text + "|" + String(k), in: entries) == nil { k += 1 }
            renamed = HashedKey(base.text + "|" + String(k))
            nextNumber[base] = k + 1
            entry.idSource = .guidPlusN
        }
        entry.id = renamed.text
        keptByID.insert(hashCode: renamed.hashCode, index: entries.count)
        renamedCount[base] = renamedSoFar + 1
        keptContents.insert(content)
        if let link = entry.link { keptLinks?.insert(HashedKey(link)) }
        entries.append(entry)
        return nil
    }

    /// What makes an entry an exact repeat of an earlier one of the same base id.
    private struct EntryContent: Hashable {
        let base: HashedKey
        let title: String?
        let link: String?
        let summary: String?
        let published: FeedTimestamp?

        init(base: HashedKey, _ entry: borrowing FeedEntry) {
            self.base = base
            title = entry.title
            link = entry.link
            summary = entry.summary
            published = entry.published
        }
    }

    /// `id` with its hash, unless a kept entry has it.
    private func unused(_ id: String, in entries: [FeedEntry]) -> HashedKey? {
        let key = HashedKey(id)
        return keptByID.find(id, hashCode: key.hashCode, in: entries) == nil ? key : nil
    }
}

/// A string with its hash computed once (seeded SipHash over its UTF-8, via `Hasher`), so
/// growing a dictionary of 10 000 ids never rehashes the strings themselves.
struct HashedKey: Hashable {
    let text: String
    /// Seeded SipHash of the UTF-8 (`Hasher`), per process.
    let hashCode: Int

    init(_ text: String) {
        self.init(text, hashCode: Self.hashCode(of: text))
    }

    /// - Parameter hashCode: `hashCode(of: text)`, computed earlier (an entry's native id,
    ///   hashed when it is read).
    init(_ text: String, hashCode: Int) {
        self.text = text
        self.hashCode = hashCode
    }

    /// The hash a `HashedKey` of `text` carries.
    static func hashCode(of text: String) -> Int {
        var hasher = Hasher()
        text.withBorrowedUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }

    static func == (lhs: HashedKey, rhs: HashedKey) -> Bool {
        lhs.hashCode == rhs.hashCode && lhs.text == rhs.text
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hashCode)
    }
}

internal import CSystem

/// Entry id → index of the kept entry with it, for `EntryDisambiguator`.
///
/// An open-addressing table (linear probing, at most half full) over the hash computed once
/// per id (`HashedKey.hashCode(of:)`): a lookup or an insert costs no further hashing, where a
/// `Dictionary` would run `Hasher` again for every lookup, insert and resize (measured: the
/// single largest cost of identity in `homefeed-bench parse`). The hashes are Swift's seeded
/// SipHash, so a hostile feed cannot choose ids that collide.
///
/// A slot is one word: the hash's lower 32 bits beside the entry index + 1 (0: empty). A probe
/// thus reads one cache line, and only a slot whose hash bits match reads the entry's id (the
/// bits above the slot mask tell keys of one cluster apart); the table and the entries are cold
/// by the time a 20 000-entry document is half read, and two parallel arrays cost two misses
/// per probe. Growing re-derives each slot from the kept bits: tables stay far below 2^32 slots
/// (`FeedParseLimits.maxEntries`).
struct FirstIndexTable {
    private var slots: [UInt64] = []
    private var count = 0
    /// Starts loading the first slot a key with this hash probes, well before `find` reads it
    /// (a prefetch: the parse goes on meanwhile), so the probe finds it in the cache. Changes
    /// nothing `find` or `insert` answer.
    func warm(hashCode: Int) {
        guard !slots.isEmpty else { return }
        slots.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            csystem_prefetch(base + (hashCode & (buffer.count - 1)))
        }
    }

    /// The index of the entry whose id is `id` (with `hashCode`, `HashedKey.hashCode(of:)`), if
    /// one was inserted. The id is borrowed, not held in a `HashedKey`: a copy of it costs an
    /// atomic retain and release per entry.
    func find(_ id: String, hashCode: Int, in entries: [FeedEntry]) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        let tag = Self.tag(hashCode)
        var slot = hashCode & mask
        while slots[slot] != 0 {
            let word = slots[slot]
            if word >> 32 == tag {
                let index = Int(word & 0xFFFF_FFFF) - 1
                if entries[index].id == id { return index }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Records `index` for the id with `hashCode`, which `find` did not know.
    mutating func insert(hashCode: Int, index: Int) {
        if (count + 1) * 2 > slots.count { grow() }
        place(Self.tag(hashCode) << 32 | UInt64(truncatingIfNeeded: index + 1) & 0xFFFF_FFFF)
        count += 1
    }

    /// The hash bits a slot keeps, which also pick its first slot.
    private static func tag(_ hash: Int) -> UInt64 {
        UInt64(bitPattern: Int64(hash)) & 0xFFFF_FFFF
    }

    private mutating func place(_ word: UInt64) {
        let mask = slots.count - 1
        var slot = Int(word >> 32) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = word
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: max(64, old.count * 2))
        for word in old where word != 0 { place(word) }
    }
}

/// Base id → index of the first kept entry with it, for `EntryDisambiguator`.
///
/// An open-addressing table (linear probing, at most half full) over the hash each
/// `HashedKey` already carries: a lookup or an insert costs no further hashing, where a
/// `Dictionary` would run `Hasher` again for every lookup, insert and resize (measured: the
/// single largest cost of identity in `homefeed-bench parse`). The hashes are Swift's seeded
/// SipHash, so a hostile feed cannot choose ids that collide.
struct FirstIndexTable {
    private var hashes: [Int] = []
    /// Entry index + 1; 0 marks an empty slot.
    private var slots: [Int32] = []
    private var count = 0

    /// The index of the entry whose id is `key`, if one was inserted.
    func find(_ key: HashedKey, in entries: [FeedEntry]) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = key.hashCode & mask
        while slots[slot] != 0 {
            let index = Int(slots[slot]) - 1
            if hashes[slot] == key.hashCode && entries[index].id == key.text { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Records `index` for `key`, which `find` did not know.
    mutating func insert(_ key: HashedKey, index: Int) {
        if (count + 1) * 2 > slots.count { grow() }
        place(hash: key.hashCode, slot: Int32(truncatingIfNeeded: index + 1))
        count += 1
    }

    private mutating func place(hash: Int, slot value: Int32) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        hashes[slot] = hash
        slots[slot] = value
    }

    private mutating func grow() {
        let oldHashes = hashes
        let oldSlots = slots
        let capacity = max(64, slots.count * 2)
        hashes = Array(repeating: 0, count: capacity)
        slots = Array(repeating: 0, count: capacity)
        for position in oldSlots.indices where oldSlots[position] != 0 {
            place(hash: oldHashes[position], slot: oldSlots[position])
        }
    }
}

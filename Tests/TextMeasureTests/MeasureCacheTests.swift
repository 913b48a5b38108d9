import Testing

@testable import TextMeasure

/// The measurer's cache on its own: no fonts needed.
struct MeasureCacheTests {
    let style = TextStyle(font: "DejaVu Sans 13")

    func key(_ index: Int) -> MeasureCache.Key {
        MeasureCache.Key(text: "title \(index)", style: style, width: 200.0.bitPattern)
    }

    func metrics(_ index: Int) -> TextMetrics {
        TextMetrics(height: Double(index), lines: 1, isTruncated: false)
    }

    /// Four entries: generations of four. After six inserts, keys 0–3 are in the older
    /// generation and 4–5 in the newer; a batch reaching back promotes (and rotates) as it goes.
    @Test("a batch is answered whole, in order, promoting what it found in the older generation")
    func wholeBatch() {
        var cache = MeasureCache(entries: 4, bytes: 1 << 20)
        for index in 0..<6 { cache.insert(metrics(index), for: key(index)) }
        let order = [0, 1, 4, 2, 3, 0]
        let values = cache.values(for: order.map(key))
        #expect(values?.map(\.height) == order.map(Double.init))
        #expect(cache.hits == 6)
        #expect(cache.misses == 0)
        // Nothing the batch found was lost to the rotation its promotions caused (checked as a
        // batch too: one-by-one lookups would promote, rotate and evict as they go).
        #expect(cache.count == 6)
        let all = cache.values(for: (0..<6).map(key))
        #expect(all?.map(\.height) == (0..<6).map(Double.init))
    }

    @Test("a batch with one key missing is not answered, and counts nothing")
    func missingKey() {
        var cache = MeasureCache(entries: 4, bytes: 1 << 20)
        for index in 0..<3 { cache.insert(metrics(index), for: key(index)) }
        let partial = cache.values(for: [key(0), key(99), key(1)])
        #expect(partial == nil)
        #expect(cache.hits == 0)
        #expect(cache.misses == 0)
        let empty = cache.values(for: [])
        #expect(empty?.isEmpty == true)
    }

    @Test("a set of strings measured again and again stays cached up to the size the cache is made for")
    func repeatingWorkingSet() {
        // The measurer's own size (2 048 measurements) and a set of 1 500 between its half and
        // its whole: generations of half the size kept only what fit in one and missed 1 500 of
        // 1 500 from the second pass on.
        var cache = MeasureCache(entries: 2_048, bytes: 2 << 20)
        // Older entries fill part of the current generation first, so the first pass rotates.
        for index in 0..<1_000 { cache.insert(metrics(-index), for: key(-1 - index)) }
        for pass in 0..<3 {
            let before = cache.misses
            for index in 0..<1_500 where cache.value(for: key(index)) == nil {
                cache.insert(metrics(index), for: key(index))
            }
            #expect(cache.misses - before == (pass == 0 ? 1_500 : 0), "pass \(pass)")
        }
        #expect(cache.count <= 2 * 2_048)
    }

    @Test("a working set at the byte bound stays cached too")
    func repeatingBytes() {
        // 100 keys of about 1 000 bytes of text under a 100 000-byte bound.
        var cache = MeasureCache(entries: 2_048, bytes: 100 * (1_000 + style.font.utf8.count))
        let texts = (0..<100).map { String(repeating: "x", count: 990) + "\($0 + 1_000_000)" }
        func longKey(_ index: Int) -> MeasureCache.Key { MeasureCache.Key(text: texts[index], style: style, width: 1) }
        for index in 0..<100 { cache.insert(metrics(index), for: longKey(index)) }
        let found = (0..<100).filter { cache.value(for: longKey($0)) != nil }
        #expect(found.count == 100)
    }
}

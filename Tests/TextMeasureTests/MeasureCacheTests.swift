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

    /// Eight entries: generations of four. After six inserts, keys 0–3 are in the older
    /// generation and 4–5 in the newer; a batch reaching back promotes (and rotates) as it goes.
    @Test("a batch is answered whole, in order, promoting what it found in the older generation")
    func wholeBatch() {
        var cache = MeasureCache(entries: 8, bytes: 1 << 20)
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
        var cache = MeasureCache(entries: 8, bytes: 1 << 20)
        for index in 0..<3 { cache.insert(metrics(index), for: key(index)) }
        let partial = cache.values(for: [key(0), key(99), key(1)])
        #expect(partial == nil)
        #expect(cache.hits == 0)
        #expect(cache.misses == 0)
        let empty = cache.values(for: [])
        #expect(empty?.isEmpty == true)
    }
}

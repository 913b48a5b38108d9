/// Measurements by (text, style, width), bounded in entries and in bytes of text.
///
/// Two generations: lookups and inserts go to the current one; when it is full it becomes the
/// previous one and the older generation is dropped, so entries in use survive (a hit in the
/// previous generation moves the entry forward) and at most two generations are held. O(1)
/// per operation, without the bookkeeping of an exact LRU. A value; the measurer keeps it
/// under its lock.
///
/// Each generation holds the whole working set the cache is sized for: a set of strings measured
/// again and again (every version's titles) stays cached up to that size, since its second pass
/// moves what the first left in the previous generation forward without filling the current one.
/// With generations of half the size, a set larger than one half lost part of itself at every
/// pass (1 100 strings of 2 048: 75 misses per pass; 2 400: all).
struct MeasureCache {
    struct Key: Hashable {
        var text: String
        var style: TextStyle
        /// The width's bit pattern: equal widths are equal keys, and no NaN reaches here.
        var width: UInt64
    }

    /// Entries and text bytes of one generation: the working set kept; twice this is held at most.
    let generationEntries: Int
    let generationBytes: Int
    private var current: [Key: TextMetrics] = [:]
    private var currentBytes = 0
    private var previous: [Key: TextMetrics] = [:]
    private(set) var hits = 0
    private(set) var misses = 0

    /// - Parameters:
    ///   - entries: a working set of this many measurements stays cached; at most twice as many
    ///     are held;
    ///   - bytes: the same bound on their bytes of text (keys).
    init(entries: Int, bytes: Int) {
        generationEntries = max(1, entries)
        generationBytes = max(1, bytes)
    }

    var count: Int { current.count + previous.count }

    mutating func value(for key: Key) -> TextMetrics? {
        if let value = current[key] {
            hits += 1
            return value
        }
        if let value = previous.removeValue(forKey: key) {
            hits += 1
            insert(value, for: key)
            return value
        }
        misses += 1
        return nil
    }

    /// Every key's value, or nil (counting nothing) when one is missing: a batch is answered
    /// from the cache only whole. The values found are counted as hits and moved forward, as
    /// ``value(for:)`` does.
    mutating func values(for keys: [Key]) -> [TextMetrics]? {
        var values: [TextMetrics] = []
        values.reserveCapacity(keys.count)
        var older: [Int] = []
        for (index, key) in keys.enumerated() {
            if let value = current[key] {
                values.append(value)
            } else if let value = previous[key] {
                values.append(value)
                older.append(index)
            } else {
                return nil
            }
        }
        for index in older where current[keys[index]] == nil {
            previous[keys[index]] = nil
            insert(values[index], for: keys[index])
        }
        hits += keys.count
        return values
    }

    mutating func insert(_ value: TextMetrics, for key: Key) {
        let bytes = key.text.utf8.count + key.style.font.utf8.count
        if current.count >= generationEntries || currentBytes + bytes > generationBytes {
            previous = current
            current = [:]
            currentBytes = 0
        }
        current[key] = value
        currentBytes += bytes
    }

    mutating func removeAll() {
        current = [:]
        previous = [:]
        currentBytes = 0
    }
}

/// Finds an RSS channel's `<ttl>` (minutes) in the first bytes of a body.
///
/// HomeFeeds' `ParsedFeed` does not expose `ttl`, so this looks at the raw bytes instead: it
/// keeps at most `window` bytes, stops at the first `<item` or `<entry`, and reads the
/// digits of the first `<ttl>` before that. It is a hint for the poll interval only, so
/// anything unusual (a namespace prefix, a comment, a CDATA section) simply gives no hint.
/// When HomeFeeds grows a `ttl` field this type can go.
struct ChannelTTLSniffer {
    private let window: Int
    private var prefix: [UInt8] = []

    init(window: Int = 64 << 10) {
        self.window = window
    }

    /// Keeps the next bytes while the window is not full.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let room = window - prefix.count
        guard room > 0 else { return }
        prefix.append(contentsOf: bytes.prefix(room))
    }

    /// The channel `ttl` in seconds, or nil.
    var ttlSeconds: Double? {
        let end = min(Self.find(Array("<item".utf8), in: prefix), Self.find(Array("<entry".utf8), in: prefix))
        let open = Array("<ttl>".utf8)
        let start = Self.find(open, in: prefix[..<end])
        guard start < end else { return nil }
        var index = start + open.count
        var minutes = 0
        var digits = 0
        while index < end, prefix[index] == UInt8(ascii: " ") || prefix[index] == UInt8(ascii: "\n") { index += 1 }
        while index < end, prefix[index] >= UInt8(ascii: "0"), prefix[index] <= UInt8(ascii: "9"), digits < 7 {
            minutes = minutes * 10 + Int(prefix[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        guard digits > 0, minutes > 0 else { return nil }
        return Double(minutes) * 60
    }

    /// The index of the first occurrence of `needle`, or `haystack.endIndex`.
    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int {
        guard let first = needle.first, haystack.count >= needle.count else { return haystack.endIndex }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return haystack.endIndex
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int {
        find(needle, in: haystack[...])
    }
}

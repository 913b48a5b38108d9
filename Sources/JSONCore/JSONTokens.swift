/// Writes JSON tokens (numbers, literals) at a raw position with no bounds or state: the layer
/// under ``JSONWriter``, and the cursor its callers use for compact runs of tokens.
///
/// Every function writes at `out`, where the caller has reserved room, and returns the position
/// after what it wrote. Sizes: an integer ≤ 20 bytes, a number ≤ ``maxNumberBytes``, a literal its
/// own length.
@usableFromInline
enum JSONTokens {
    /// The longest number text: `-` + 20 digits + `.` + 21 digits (ShortestDecimal's worst case,
    /// 0.000123… with 17 significant digits) = 43; `description`'s forms are shorter.
    @usableFromInline static let maxNumberBytes = 48

    /// A double as JSON: integers without `.0` (`375`), others in the shortest form that reads
    /// back to the same double (what `Double.description` prints), `-0` as `0`, and `null` for
    /// NaN or infinity, which JSON cannot express.
    @inlinable @inline(__always)
    static func number(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        // Below 2^53 every integer is exact, and Double.description would print it as "375.0".
        // (Conversions, not `rounded()`: without SSE4.1 that is a libm call per number.)
        if value.magnitude < 9_007_199_254_740_992 {
            let integer = Int64(value)
            if Double(integer) == value { return self.integer(integer, to: out) }
            // Halves (161.5), the usual geometry at scale 2, without `fraction`'s call and
            // checks. Doubling is exact; a non-integer here is below 2^52 (every double from
            // there up is an integer), so k.5 is the value exactly, no integer reads back to it
            // (half an ulp is at most 0.25), and of the one-place decimals that do (several from
            // 2^50 up), `description` prints the closest: k.5.
            let twice = value * 2
            let doubled = Int64(twice)
            if Double(doubled) == twice {
                return short(whole: doubled.magnitude >> 1, fraction: 5, places: 1, negative: doubled < 0, to: out)
            }
        }
        return fraction(value, to: out)
    }

    /// ``number(_:to:)`` for a value that is neither an integer below 2^53 nor a half, or not
    /// finite.
    @usableFromInline @inline(never)
    static func fraction(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        guard value.isFinite else { return literal("null", to: out) }
        let magnitude = value.magnitude
        // Short decimals (0.25, 12.125, 0.1), the usual geometry on a 1/4 or 1/8 grid: the
        // fewest places k ≤ 3 whose scaled value is an integer m with m / 10^k == value exactly.
        // That decimal reads back to `value`, and no shorter one does, so it is the shortest
        // round-trip form; a few multiplications instead of ShortestDecimal's search. (m is the
        // scaled value rounded half away from zero; a candidate that fails the check only sends
        // the value on to the search.)
        if magnitude >= 1e-4, magnitude < 1e12 {
            let negative = value < 0
            let tenths = UInt64(magnitude * 10 + 0.5)
            if Double(tenths) / 10 == magnitude {
                return short(whole: tenths / 10, fraction: tenths % 10, places: 1, negative: negative, to: out)
            }
            let hundredths = UInt64(magnitude * 100 + 0.5)
            if Double(hundredths) / 100 == magnitude {
                return short(
                    whole: hundredths / 100,
                    fraction: hundredths % 100,
                    places: 2,
                    negative: negative,
                    to: out
                )
            }
            let thousandths = UInt64(magnitude * 1000 + 0.5)
            if Double(thousandths) / 1000 == magnitude {
                return short(
                    whole: thousandths / 1000,
                    fraction: thousandths % 1000,
                    places: 3,
                    negative: negative,
                    to: out
                )
            }
        }
        if let (digits, places) = ShortestDecimal.digits(of: value) {
            return decimal(digits, places: places, negative: value < 0, to: out)
        }
        // Outside plain notation (an exponent), and 2^53 and up ("9007199254740992.0").
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text.withUTF8 { utf8 in
            guard let source = utf8.baseAddress else { return out }
            out.update(from: source, count: utf8.count)
            return out + utf8.count
        }
    }

    @inlinable @inline(__always)
    static func integer(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if value < 0 {
            out.pointee = UInt8(ascii: "-")
            return digits(value.magnitude, minimumDigits: 1, to: out + 1)
        }
        return digits(UInt64(value), minimumDigits: 1, to: out)
    }

    /// `whole.fraction` with `places` (1 to 3) fraction digits: the short-decimal fast path.
    @inlinable @inline(__always)
    static func short(
        whole: UInt64,
        fraction: UInt64,
        places: Int,
        negative: Bool,
        to start: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        var out = start
        if negative {
            out.pointee = UInt8(ascii: "-")
            out += 1
        }
        out = digits(whole, minimumDigits: 1, to: out)
        out.pointee = UInt8(ascii: ".")
        return digits(fraction, minimumDigits: places, to: out + 1)
    }

    /// `digits / 10^places` in plain decimal notation, e.g. (985, 1) → `98.5`, (5, 3) → `0.005`.
    @usableFromInline
    static func decimal(
        _ digits: UInt64,
        places: Int,
        negative: Bool,
        to start: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        var out = start
        if negative {
            out.pointee = UInt8(ascii: "-")
            out += 1
        }
        // Beyond 19 places (0.000123… with 17 digits) 10^places leaves UInt64, and the digits
        // (< 10^17) are all fraction.
        var divisor: UInt64 = 1
        for _ in 0..<min(places, 19) { divisor &*= 10 }
        let whole = places <= 19 ? digits / divisor : 0
        let fraction = places <= 19 ? digits % divisor : digits
        out = self.digits(whole, minimumDigits: 1, to: out)
        guard places > 0 else { return out }
        out.pointee = UInt8(ascii: ".")
        return self.digits(fraction, minimumDigits: places, to: out + 1)
    }

    /// The decimal digits of `value`, left-padded with zeros to `minimumDigits`. Two digits per
    /// division, from a literal table (a `static let` array would cost a lazy-initialisation
    /// check per use).
    @inlinable @inline(__always)
    static func digits(
        _ value: UInt64,
        minimumDigits: Int,
        to out: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        let digitCount = max(count(of: value), minimumDigits)
        let pairs: StaticString = """
            00010203040506070809101112131415161718192021222324252627282930313233343536373839\
            40414243444546474849505152535455565758596061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899
            """
        return pairs.withUTF8Buffer { table in
            guard let pair = table.baseAddress else { return out }
            var rest = value
            var position = digitCount
            while rest >= 100 {
                let index = Int(truncatingIfNeeded: rest % 100) &* 2
                rest /= 100
                position &-= 2
                out[position] = pair[index]
                out[position &+ 1] = pair[index &+ 1]
            }
            if rest >= 10 {
                let index = Int(truncatingIfNeeded: rest) &* 2
                position &-= 2
                out[position] = pair[index]
                out[position &+ 1] = pair[index &+ 1]
            } else {
                position &-= 1
                out[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
            }
            while position > 0 {
                position &-= 1
                out[position] = UInt8(ascii: "0")
            }
            return out + digitCount
        }
    }

    /// How many decimal digits `value` has (1 for 0): comparisons, no division.
    @inlinable @inline(__always)
    static func count(of value: UInt64) -> Int {
        if value < 100_000 {
            if value < 100 { return value < 10 ? 1 : 2 }
            return value < 1_000 ? 3 : value < 10_000 ? 4 : 5
        }
        if value < 10_000_000_000 {
            if value < 10_000_000 { return value < 1_000_000 ? 6 : 7 }
            return value < 100_000_000 ? 8 : value < 1_000_000_000 ? 9 : 10
        }
        var count = 11
        var threshold: UInt64 = 100_000_000_000
        while count < 20, value >= threshold {
            count += 1
            threshold &*= 10
        }
        return count
    }

    /// Copies `length` bytes of text written earlier in the same buffer to `out`, its end:
    /// up to 16 bytes as two unconditional 8-byte moves, with no branch on the length. Both
    /// loads come before the stores, so text that ends right at `out` copies whole; the bytes
    /// read and written past `length` lie within the room reserved at `out` (at least 16, as
    /// for any number or integer), past the text's end, where the next token or nothing goes.
    @inlinable @inline(__always)
    static func recopy(
        _ source: UnsafeMutablePointer<UInt8>,
        length: Int,
        to out: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        guard length <= 16 else { return bytes(UnsafeBufferPointer(start: source, count: length), to: out) }
        return recopyShort(source, length: length, to: out)
    }

    /// ``recopy(_:length:to:)`` of at most 16 bytes.
    @inlinable @inline(__always)
    static func recopyShort(
        _ source: UnsafeMutablePointer<UInt8>,
        length: Int,
        to out: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        let from = UnsafeRawPointer(source)
        let head = from.loadUnaligned(as: UInt64.self)
        let tail = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        let to = UnsafeMutableRawPointer(out)
        to.storeBytes(of: head, as: UInt64.self)
        to.storeBytes(of: tail, toByteOffset: 8, as: UInt64.self)
        return out + length
    }

    /// A literal (keys, punctuation: a few bytes) without a call to memmove.
    @inlinable @inline(__always)
    static func literal(_ text: StaticString, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        text.withUTF8Buffer { bytes($0, to: out) }
    }

    /// Copies `bytes` (not overlapping `out`); up to 24 of them, a key or any number's text,
    /// without a call to memmove, and never reading past their end.
    @inlinable @inline(__always)
    static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<
        UInt8
    > {
        guard let source = bytes.baseAddress else { return out }
        let length = bytes.count
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(out)
        if length >= 8, length <= 24 {
            // Two or three 8-byte moves, the last ending at the last byte, cover 8…24 bytes.
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            if length > 16 {
                let middle = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                to.storeBytes(of: middle, toByteOffset: 8, as: UInt64.self)
            }
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        } else if length >= 4, length < 8 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
        } else if length < 4 {
            for index in 0..<length { out[index] = source[index] }
        } else {
            out.update(from: source, count: length)
        }
        return out + length
    }
}

/// Writes a compact run of JSON tokens into room a ``JSONWriter`` reserved
/// (``JSONWriter/compactValue(reserving:_:)``): for the 100 000 items of a large section, one
/// capacity check and one separator per item instead of one per token.
public struct JSONCursor {
    @usableFromInline private(set) var position: UnsafeMutablePointer<UInt8>
    /// The start of the writer's buffer: ``JSONNumberMemo`` keeps offsets from it, which stay
    /// valid when the writer moves to a larger buffer between two runs.
    @usableFromInline let base: UnsafeMutablePointer<UInt8>

    @inlinable
    init(_ position: UnsafeMutablePointer<UInt8>, base: UnsafeMutablePointer<UInt8>) {
        self.position = position
        self.base = base
    }

    /// Literal JSON text, e.g. `{"index":` (its length must be reserved).
    @inlinable @inline(__always)
    public mutating func literal(_ text: StaticString) { position = JSONTokens.literal(text, to: position) }

    /// An integer (20 bytes must be reserved).
    @inlinable @inline(__always)
    public mutating func int(_ value: Int) { position = JSONTokens.integer(Int64(value), to: position) }

    /// A number as ``JSONWriter/number(_:)`` writes it (``JSONWriter/maxNumberBytes`` reserved).
    @inlinable @inline(__always)
    public mutating func number(_ value: Double) { position = JSONTokens.number(value, to: position) }

    /// ``number(_:)``, copying the text written for the same value through `memo` earlier, and
    /// remembering where this one goes otherwise (``JSONNumberMemo``). The same room must be
    /// reserved, and `memo` used with one writer only.
    @inlinable @inline(__always)
    public mutating func number(_ value: Double, memo: inout JSONNumberMemo) {
        if !copy(value.bitPattern, from: memo) { writeNumber(value, memo: &memo) }
    }

    /// ``int(_:)`` through a memo, as ``number(_:memo:)`` but with an integer's room (20 bytes)
    /// reserved, for an integer that repeats (a section's zIndex on each of its items) or counts
    /// up (the items' indices): the successor of the memo's latest integer is its text with the
    /// last digit raised, unless that digit is a 9. A memo serves integers or numbers, not both.
    @inlinable @inline(__always)
    public mutating func int(_ value: Int, memo: inout JSONNumberMemo) {
        let key = UInt64(bitPattern: Int64(value))
        if copy(key, from: memo) { return }
        if value > 0, key &- 1 == memo.bits, memo.length != 0, memo.length <= 16 {
            assert(memo.offset + memo.length <= position - base, "a JSONNumberMemo used with another writer")
            let last = base[memo.offset &+ memo.length &- 1]
            if last != UInt8(ascii: "9") {
                let start = position
                position = JSONTokens.recopyShort(base + memo.offset, length: memo.length, to: position)
                position[-1] = last &+ 1
                memo.remember(key, at: start - base, length: memo.length)
                return
            }
        }
        writeInt(value, memo: &memo)
    }

    /// Copies the memo's text for `key` when it holds one: the inlined hit, a few instructions.
    @inlinable @inline(__always)
    mutating func copy(_ key: UInt64, from memo: JSONNumberMemo) -> Bool {
        let offset: Int
        let length: Int
        if key == memo.bits, memo.length != 0 {
            (offset, length) = (memo.offset, memo.length)
        } else if key == memo.olderBits, memo.olderLength != 0 {
            (offset, length) = (memo.olderOffset, memo.olderLength)
        } else {
            return false
        }
        assert(offset + length <= position - base, "a JSONNumberMemo used with another writer")
        position = JSONTokens.recopy(base + offset, length: length, to: position)
        return true
    }

    /// A memo miss, out of line so that every hit stays small where it is inlined.
    @usableFromInline @inline(never)
    mutating func writeNumber(_ value: Double, memo: inout JSONNumberMemo) {
        let start = position
        position = JSONTokens.number(value, to: position)
        memo.remember(value.bitPattern, at: start - base, length: position - start)
    }

    @usableFromInline @inline(never)
    mutating func writeInt(_ value: Int, memo: inout JSONNumberMemo) {
        let start = position
        position = JSONTokens.integer(Int64(value), to: position)
        memo.remember(UInt64(bitPattern: Int64(value)), at: start - base, length: position - start)
    }
}

/// Where a ``JSONCursor`` wrote the last two values it formatted with this memo (a copy does not
/// count as one), for a field whose value repeats from one element to the next: the width and
/// height of a grid's or a list's items, the y of a row's, the x of a two-column grid's (which
/// alternates between two values). A repeat is copied from the earlier text, a few
/// instructions, where formatting a number takes ~70 (callgrind, `homefeed-bench layout`); a new
/// value takes the place of the older one.
///
/// The text is read back from the output, not kept aside: bytes written an item or more before
/// are usually read at full speed, while reading back what was just written, byte by byte,
/// stalls each load on the stores it overlaps. Keyed by the bit pattern, and the writer only
/// ever appends, so the text copied is always the one written for exactly that value (`0` and
/// `-0` are two keys with the same text).
public struct JSONNumberMemo {
    @usableFromInline var bits: UInt64 = 0
    /// From the writer's buffer start (``JSONCursor/base``).
    @usableFromInline var offset = 0
    /// 0 while empty.
    @usableFromInline var length = 0
    /// The entry before: what `bits` held until the last miss.
    @usableFromInline var olderBits: UInt64 = 0
    @usableFromInline var olderOffset = 0
    @usableFromInline var olderLength = 0

    @inlinable
    public init() {}

    @inlinable
    mutating func remember(_ key: UInt64, at offset: Int, length: Int) {
        (olderBits, olderOffset, olderLength) = (bits, self.offset, self.length)
        (bits, self.offset, self.length) = (key, offset, length)
    }
}

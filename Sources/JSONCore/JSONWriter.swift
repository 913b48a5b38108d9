/// Appends JSON text to one growing byte buffer: the one JSON encoder of homefeed, behind the
/// layout output (`LayoutResult.jsonString`), the daemon's manifests, Varlink messages and the
/// feed output of `homefeedctl feed parse`.
///
/// Built for large outputs (a 100 000-item section; issue 17 asks ≤ 60 ns an element): the
/// writer owns a raw buffer grown by doubling, and each token is written straight into it
/// after one capacity check (``JSONTokens``): no per-byte `Array.append`, no `String` for a
/// number. Integers are printed two digits at a time; other doubles in their shortest
/// round-trip form (``ShortestDecimal``), falling back to `Double.description` only where that
/// form needs an exponent. Commas are managed by the writer; keys are written in the order
/// called. ``compactValue(reserving:_:)`` writes a whole compact value (a grid item) with one
/// check and one separator.
///
/// Pretty output indents containers by two spaces, one member or element per line, except
/// inside a container begun with `inline: true`, which stays on one line (`{"x": 0, "y": 0}`).
/// Compact output has no whitespace at all.
///
/// Public and `@inlinable` rather than `package`, like ``JSONTreeParser``: every caller is in
/// another module, and the per-token calls and closures must inline there to keep the layout
/// encoder's speed (`homefeed-bench layout`). JSONCore is no product, so nothing outside the
/// package sees it.
///
/// Noncopyable: it owns its buffer (freed in `deinit`) and ``bytes`` copies the text out; or,
/// through ``encode(pretty:capacity:_:)``, it writes straight into the array it returns.
public struct JSONWriter: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var count = 0
    /// False while writing into memory ``encode(pretty:capacity:_:)`` lent it.
    @usableFromInline var ownsBuffer: Bool
    public let pretty: Bool
    @usableFromInline var depth = 0
    /// Depth at which the current one-line container began; `Int.max` when not inline.
    @usableFromInline var inlineDepth = Int.max
    /// Whether the current container already holds a value (so the next one needs a comma).
    @usableFromInline var hasValue = false
    /// Set between a key and its value, so the value writes no separator.
    @usableFromInline var pendingKey = false
    /// Whether strings escape U+2028 and U+2029 as well (``init(pretty:capacity:escapingLineSeparators:)``).
    @usableFromInline let escapesLineSeparators: Bool

    /// Room for one number token (``JSONCursor/number(_:)``).
    public static let maxNumberBytes = JSONTokens.maxNumberBytes

    /// - Parameter escapingLineSeparators: also escape U+2028 and U+2029 (`\u2028`), which
    ///   JSON allows raw but JavaScript string literals did not before ES2019: for output that
    ///   may be pasted into a script (the feed JSON of `homefeedctl feed parse`).
    @inlinable
    public init(pretty: Bool, capacity: Int = 0, escapingLineSeparators: Bool = false) {
        self.pretty = pretty
        escapesLineSeparators = escapingLineSeparators
        self.capacity = max(capacity, 256)
        base = .allocate(capacity: self.capacity)
        ownsBuffer = true
    }

    @usableFromInline init(pretty: Bool, lending buffer: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.pretty = pretty
        escapesLineSeparators = false
        self.capacity = capacity
        base = buffer
        ownsBuffer = false
    }

    @inlinable
    deinit {
        if ownsBuffer { base.deallocate() }
    }

    /// The JSON written so far.
    @inlinable
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Runs `body` with a writer whose buffer is the returned array itself, `capacity` bytes to
    /// begin with: a large output is written once, into memory touched once, instead of into
    /// the writer's buffer and then copied (for 8 MB of JSON the second buffer's page faults
    /// cost as much as the encoding). Past `capacity` the writer moves to a buffer of its own
    /// and the result is copied out of it, so a low estimate is only slower.
    @inlinable
    public static func encode(pretty: Bool, capacity: Int, _ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var spilled: [UInt8]?
        let capacity = max(capacity, 256)
        let direct = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            initialized = 0
            guard let start = buffer.baseAddress else { return }
            var writer = JSONWriter(pretty: pretty, lending: start, capacity: buffer.count)
            body(&writer)
            if writer.ownsBuffer {
                spilled = writer.bytes
            } else {
                initialized = writer.count
            }
        }
        return spilled ?? direct
    }

    // MARK: - The buffer

    /// Reserves `needed` bytes and lets `body` write up to that many through a local pointer,
    /// returning where it stopped. (A store through `base` could alias `count` as far as the
    /// compiler knows, so tokens go through a local cursor and `count` is set once.)
    @inlinable @inline(__always)
    mutating func write(
        reserving needed: Int,
        _ body: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>
    ) {
        reserve(needed)
        let start = base + count
        count &+= body(start) - start
    }

    /// Makes room for `needed` more bytes, moving to a larger buffer when there is not.
    @inlinable @inline(__always)
    mutating func reserve(_ needed: Int) {
        if count &+ needed > capacity { grow(to: count + needed) }
    }

    @usableFromInline @inline(never)
    mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        #if DEBUG
            // What is left behind is scribbled over (a lent buffer is dropped by `encode` once
            // the writer has moved), so a read of it through a stale pointer fails the tests
            // rather than finding the same bytes still there.
            base.update(repeating: 0xEE, count: count)
        #endif
        if ownsBuffer { base.deallocate() }
        base = newBase
        capacity = newCapacity
        ownsBuffer = true
    }

    @inlinable
    mutating func put(_ byte: UInt8) {
        write(reserving: 1) { out in
            out.pointee = byte
            return out + 1
        }
    }

    // MARK: - Structure

    @inlinable
    public mutating func beginObject(inline: Bool = false) { begin(UInt8(ascii: "{"), inline: inline) }
    @inlinable
    public mutating func endObject() { end(UInt8(ascii: "}")) }
    @inlinable
    public mutating func beginArray(inline: Bool = false) { begin(UInt8(ascii: "["), inline: inline) }
    @inlinable
    public mutating func endArray() { end(UInt8(ascii: "]")) }

    /// Writes `"name": ` (the value follows with the next call).
    @inlinable
    public mutating func key(_ name: StaticString) {
        separator()
        let pretty = self.pretty
        name.withUTF8Buffer { name in
            write(reserving: name.count + 4) { start in
                start.pointee = UInt8(ascii: "\"")
                let out = JSONTokens.bytes(name, to: start + 1)
                out[0] = UInt8(ascii: "\"")
                out[1] = UInt8(ascii: ":")
                guard pretty else { return out + 2 }
                out[2] = UInt8(ascii: " ")
                return out + 3
            }
        }
        hasValue = false
        pendingKey = true
    }

    /// Writes `"name": ` for a key known only at run time (a dictionary's), escaped as
    /// ``string(_:)`` escapes. Labelled, not an overload of ``key(_:)``: a string literal would
    /// pick the `String` overload and every constant key would pay for escaping.
    @inlinable
    public mutating func key(escaping name: String) {
        string(name)
        let pretty = self.pretty
        write(reserving: 2) { out in
            out.pointee = UInt8(ascii: ":")
            guard pretty else { return out + 1 }
            out[1] = UInt8(ascii: " ")
            return out + 2
        }
        hasValue = false
        pendingKey = true
    }

    @inlinable
    mutating func begin(_ bracket: UInt8, inline: Bool) {
        separator()
        put(bracket)
        depth += 1
        if inline, inlineDepth == Int.max { inlineDepth = depth }
        hasValue = false
    }

    @inlinable
    mutating func end(_ bracket: UInt8) {
        if pretty, hasValue, depth < inlineDepth { newline(indent: depth - 1) }
        if depth == inlineDepth { inlineDepth = Int.max }
        depth -= 1
        put(bracket)
        hasValue = true
    }

    /// Before a value or key: the comma and, in pretty mode, the line break or space.
    @inlinable
    mutating func separator() {
        if pendingKey {
            pendingKey = false
            hasValue = true
            return
        }
        if hasValue { put(UInt8(ascii: ",")) }
        if pretty, depth > 0 {
            if depth >= inlineDepth {
                if hasValue { put(UInt8(ascii: " ")) }
            } else {
                newline(indent: depth)
            }
        }
        hasValue = true
    }

    @inlinable
    mutating func newline(indent: Int) {
        write(reserving: 1 + 2 * indent) { out in
            out.pointee = UInt8(ascii: "\n")
            (out + 1).initialize(repeating: UInt8(ascii: " "), count: 2 * indent)
            return out + 1 + 2 * indent
        }
    }

    // MARK: - Values

    /// One value written as compact tokens in one go: the separator before it, then `body`'s
    /// tokens within `reserving` bytes (literal lengths, 20 per integer,
    /// ``maxNumberBytes`` per number). Compact output only: no spaces are added.
    ///
    /// - Precondition: the writer is not pretty (a caller's bug otherwise).
    @inlinable
    public mutating func compactValue(reserving needed: Int, _ body: (inout JSONCursor) -> Void) {
        precondition(!pretty, "compactValue writes compact JSON only")
        separator()
        reserve(needed)
        var cursor = JSONCursor(base + count, base: base)
        body(&cursor)
        count = cursor.position - base
    }

    @inlinable
    public mutating func null() {
        separator()
        write(reserving: 4) { JSONTokens.literal("null", to: $0) }
    }

    @inlinable
    public mutating func bool(_ value: Bool) {
        separator()
        write(reserving: 5) { JSONTokens.literal(value ? "true" : "false", to: $0) }
    }

    @inlinable
    public mutating func int(_ value: Int) {
        separator()
        write(reserving: 20) { JSONTokens.integer(Int64(value), to: $0) }
    }

    /// A double as JSON: integers without `.0` (`375`), others in the shortest form that reads
    /// back to the same double (what `Double.description` prints), `-0` as `0`, and `null` for
    /// NaN or infinity, which JSON cannot express.
    @inlinable
    public mutating func number(_ value: Double) {
        separator()
        write(reserving: JSONTokens.maxNumberBytes) { JSONTokens.number(value, to: $0) }
    }

    /// `value` in double quotes, escaped per RFC 8259 §7 (JSONCore's escaping), straight into
    /// the buffer: room for the worst case (every byte a 6-byte `\u00XX`) is reserved first.
    @inlinable
    public mutating func string(_ value: String) {
        separator()
        var value = value
        let escapesLineSeparators = self.escapesLineSeparators
        value.withUTF8 { utf8 in
            write(reserving: utf8.count * 6 + 2) { out in
                out + writeJSONString(utf8, to: out, escapingLineSeparators: escapesLineSeparators)
            }
        }
    }

    /// A string value, or `null` when nil.
    @inlinable
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Splices an already-encoded JSON value (an object encoded once and served many times).
    @inlinable
    public mutating func raw(_ json: [UInt8]) {
        separator()
        json.withUnsafeBufferPointer { json in
            write(reserving: json.count) { JSONTokens.bytes(json, to: $0) }
        }
    }

    /// Ends the document with a byte that is not JSON: Varlink's NUL frame terminator, a line
    /// protocol's newline. Written as is, with no separator.
    @inlinable
    public mutating func terminate(with byte: UInt8) {
        put(byte)
    }
}

/// The last step before libxml2: guarantees it only ever sees valid UTF-8 made of characters
/// XML allows, so that no byte can make it drop the rest of a text node, a CDATA section or
/// the document (libxml2 2.9.14 switches to Latin-1 or stops after one invalid byte).
///
/// - Invalid UTF-8 becomes U+FFFD in place, one per maximal subpart (the Unicode / WHATWG
///   decoder rule), and parsing goes on.
/// - C0 controls other than tab, LF and CR, and U+FFFE/U+FFFF, which XML 1.0 forbids, become
///   U+FFFD too (JSON leaves them to the JSON parser).
/// - A document read as UTF-8 only because it said so (or said nothing) whose first invalid
///   sequence comes before any valid multi-byte one, and whose invalid sequences outnumber the
///   valid ones in the bytes at hand, is a legacy document: from that byte on it is read as
///   windows-1252, as feed readers do, with a warning. Until then it was ASCII, which reads
///   the same in both. A UTF-8 document with a few broken bytes keeps its text.
///
/// Every substitution and the fallback are reported as warnings with their line and column.
/// Clean input is passed through without a copy, 16 bytes at a time (`skipCleanBlocks`).
/// Streaming: a sequence cut by the end of a chunk is kept for the next one.
struct UTF8Sanitizer {
    enum Source {
        /// Document bytes read as UTF-8; `mayFallBack` unless a byte-order mark said UTF-8.
        case utf8(mayFallBack: Bool)
        /// `IconvConverter` output, where the byte 0xFF marks a sequence invalid in `encoding`.
        case converted(encoding: String)
        /// Single-byte text decoded by `table` (windows-1252, x-user-defined).
        case singleByte(SingleByteTable)
        /// A JSON Feed: invalid UTF-8 is repaired, control characters are the JSON parser's.
        case json
    }

    var source: Source
    let scrubsControls: Bool
    var carry: [UInt8] = []
    var hasSeenMultibyte = false
    var out: [UInt8] = []
    /// True once any byte was replaced or the encoding fell back: the document was not well-formed.
    private(set) var hasRecovered = false

    // Positions, for warnings: the 1-based line, the last line feed in the chunk being scanned
    // (nil: in an earlier chunk), and the characters of the line before the chunk. A column
    // counts the bytes that are not UTF-8 continuation bytes since the line feed: characters,
    // and the same whatever the chunking (a stray continuation byte counts as none).
    var line = 1
    var lastLineFeed: Int?
    var columnAtChunkStart = 0

    init(_ source: Source) {
        self.source = source
        if case .json = source { scrubsControls = false } else { scrubsControls = true }
    }

    /// Passes the sanitized form of `input` to `emit` (the input itself when it is clean).
    mutating func process(
        _ input: UnsafeRawBufferPointer,
        isFinal: Bool,
        warnings: inout WarningLog,
        emit: (UnsafeRawBufferPointer) -> Void
    ) {
        var input = input
        if !carry.isEmpty {
            let consumed = finishCarry(input, isFinal: isFinal, warnings: &warnings, emit: emit)
            guard consumed >= 0 else { return }
            input = UnsafeRawBufferPointer(rebasing: input[consumed...])
        }
        guard let base = input.baseAddress, !input.isEmpty else { return }
        lastLineFeed = nil
        if case .singleByte = source {
            decodeSingleByte(input, from: 0, warnings: &warnings)
            finishChunk(input, end: input.count)
            emitOut(emit)
            return
        }
        scan(input, base: base, isFinal: isFinal, warnings: &warnings, emit: emit)
    }

    // MARK: The scan

    private mutating func scan(
        _ input: UnsafeRawBufferPointer,
        base: UnsafeRawPointer,
        isFinal: Bool,
        warnings: inout WarningLog,
        emit: (UnsafeRawBufferPointer) -> Void
    ) {
        let count = input.count
        var index = 0
        var copied = 0
        var isDirty = false
        var end = count
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        scanLoop: while index < count {
            index = Self.skipClean(
                bytes,
                from: index,
                to: count,
                line: &line,
                lastLineFeed: &lastLineFeed,
                sawMultibyte: &hasSeenMultibyte
            )
            guard index < count else { break }
            // One byte or sequence the fast path left alone.
            let byte = input[index]
            if byte < 0x20 {
                if byte == 0x0A {
                    line += 1
                    lastLineFeed = index
                } else if byte != 0x09 && byte != 0x0D && scrubsControls {
                    replace(
                        input,
                        at: index,
                        length: 1,
                        &copied,
                        &isDirty,
                        warnings: &warnings,
                        Self.controlMessage(byte)
                    )
                }
                index += 1
                continue
            }
            switch Self.sequence(input, at: index) {
            case .valid(let length):
                hasSeenMultibyte = true
                index += length
            case .forbidden(let length):
                hasSeenMultibyte = true
                let message =
                    "character U+FFF\(input[index + 2] == 0xBE ? "E" : "F") is not allowed in XML; replaced by U+FFFD"
                replace(input, at: index, length: length, &copied, &isDirty, warnings: &warnings, message)
                index += length
            case .incomplete(let length) where !isFinal:
                carry = Array(input[index..<(index + length)])
                end = index
                break scanLoop
            case .incomplete(let length), .invalid(let length):
                if shouldFallBack(input, from: index) {
                    flush(input, upTo: index, &copied, &isDirty)
                    fallBack(input, at: index, warnings: &warnings)
                    decodeSingleByte(input, from: index, warnings: &warnings)
                    finishChunk(input, end: count)
                    emitOut(emit)
                    return
                }
                let message = invalidMessage((index..<(index + length)).map { input[$0] })
                replace(input, at: index, length: length, &copied, &isDirty, warnings: &warnings, message)
                index += length
            }
        }
        finishChunk(input, end: end)
        if isDirty {
            out.append(contentsOf: input[copied..<end])
            emitOut(emit)
        } else if end > 0 {
            emit(UnsafeRawBufferPointer(rebasing: input[0..<end]))
        }
    }

    /// Completes the sequence cut by the previous chunk with the first bytes of `input`.
    /// Returns how many bytes of `input` it used, or -1 when `input` ended before it did.
    private mutating func finishCarry(
        _ input: UnsafeRawBufferPointer,
        isFinal: Bool,
        warnings: inout WarningLog,
        emit: (UnsafeRawBufferPointer) -> Void
    ) -> Int {
        let held = carry.count
        var joined = carry
        joined.append(contentsOf: input.prefix(4))
        carry.removeAll()
        return joined.withUnsafeBytes { raw -> Int in
            switch Self.sequence(raw, at: 0) {
            case .valid(let length):
                hasSeenMultibyte = true
                emit(UnsafeRawBufferPointer(rebasing: raw[0..<length]))
                columnAtChunkStart += 1
                return length - held
            case .forbidden(let length):
                hasSeenMultibyte = true
                recordReplacement(
                    column: columnAtChunkStart + 1,
                    warnings: &warnings,
                    "character U+FFFE or U+FFFF is not allowed in XML; replaced by U+FFFD"
                )
                Self.replacementCharacter.withUnsafeBytes { emit($0) }
                columnAtChunkStart += 1
                return length - held
            case .incomplete where !isFinal && input.count < 4:
                carry = joined
                return -1
            case .incomplete(let length), .invalid(let length):
                // Fall back or substitute as the scan would; the cut bytes are in the carry only.
                if shouldFallBack(input, from: 0) {
                    fallBack(raw, at: 0, warnings: &warnings)
                    decodeSingleByte(UnsafeRawBufferPointer(rebasing: raw[0..<held]), from: 0, warnings: &warnings)
                    emitOut(emit)
                    return 0
                }
                recordReplacement(
                    column: columnAtChunkStart + 1,
                    warnings: &warnings,
                    invalidMessage(Array(joined[0..<length]))
                )
                Self.replacementCharacter.withUnsafeBytes { emit($0) }
                columnAtChunkStart += 1
                return max(0, length - held)
            }
        }
    }

    // MARK: Substitution

    static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    private mutating func replace(
        _ input: UnsafeRawBufferPointer,
        at index: Int,
        length: Int,
        _ copied: inout Int,
        _ isDirty: inout Bool,
        warnings: inout WarningLog,
        _ message: String
    ) {
        flush(input, upTo: index, &copied, &isDirty)
        out.append(contentsOf: Self.replacementCharacter)
        copied = index + length
        recordReplacement(column: column(input, at: index, warnings), warnings: &warnings, message)
    }

    mutating func recordReplacement(column: Int?, warnings: inout WarningLog, _ message: String) {
        hasRecovered = true
        warnings.add(line: line, column: column, message)
    }

    /// Moves the clean bytes before `index` into `out`, starting the copy on the first call.
    private mutating func flush(
        _ input: UnsafeRawBufferPointer,
        upTo index: Int,
        _ copied: inout Int,
        _ isDirty: inout Bool
    ) {
        if !isDirty {
            isDirty = true
            out.removeAll(keepingCapacity: true)
            out.reserveCapacity(input.count + 64)
        }
        out.append(contentsOf: input[copied..<index])
        copied = index
    }

    private mutating func emitOut(_ emit: (UnsafeRawBufferPointer) -> Void) {
        out.withUnsafeBytes { emit($0) }
        out.removeAll(keepingCapacity: true)
    }

    static func controlMessage(_ byte: UInt8) -> String {
        "control character U+\(hex(UInt32(byte), width: 4)) is not allowed in XML; replaced by U+FFFD"
    }

    private func invalidMessage(_ bytes: [UInt8]) -> String {
        let shown = bytes.prefix(4).map { "0x" + Self.hex(UInt32($0), width: 2) }.joined(separator: " ")
        switch source {
        case .converted(let encoding): return "bytes not valid in \(encoding) replaced by U+FFFD"
        default: return "invalid UTF-8 (\(shown)) replaced by U+FFFD"
        }
    }

    // MARK: windows-1252 fallback

    /// At the first invalid sequence of a document that may fall back: no valid multi-byte
    /// sequence so far, and more invalid than valid sequences in the rest of the bytes at hand.
    private mutating func shouldFallBack(_ input: UnsafeRawBufferPointer, from start: Int) -> Bool {
        guard case .utf8(let mayFallBack) = source, mayFallBack, !hasSeenMultibyte else { return false }
        var valid = 0
        var invalid = 0
        var index = start
        while index < input.count {
            guard input[index] >= 0x80 else {
                index += 1
                continue
            }
            switch Self.sequence(input, at: index) {
            case .valid(let length), .forbidden(let length):
                valid += 1
                index += length
            case .invalid(let length), .incomplete(let length):
                invalid += 1
                index += length
            }
        }
        let decision = invalid > valid
        // Decided either way: later chunks never reconsider.
        if !decision { source = .utf8(mayFallBack: false) }
        return decision
    }

    private mutating func fallBack(_ input: UnsafeRawBufferPointer, at index: Int, warnings: inout WarningLog) {
        source = .singleByte(.windows1252)
        hasRecovered = true
        warnings.add(
            line: line,
            column: column(input, at: index, warnings),
            "not valid UTF-8 (first bad byte 0x\(Self.hex(UInt32(input[index]), width: 2))); read as windows-1252"
        )
    }

    /// Decodes `input[start...]` by the single-byte table into `out` (after what it holds).
    private mutating func decodeSingleByte(_ input: UnsafeRawBufferPointer, from start: Int, warnings: inout WarningLog)
    {
        guard case .singleByte(let table) = source else { return }
        if start == 0 { lastLineFeed = nil }
        out.reserveCapacity(out.count + (input.count - start) * 2)
        for index in start..<input.count {
            let byte = input[index]
            if byte >= 0x80 {
                table.append(byte, to: &out)
            } else if byte >= 0x20 || byte == 0x09 || byte == 0x0D {
                out.append(byte)
            } else if byte == 0x0A {
                out.append(byte)
                line += 1
                lastLineFeed = index
            } else {
                out.append(contentsOf: Self.replacementCharacter)
                recordReplacement(
                    column: column(input, at: index, warnings),
                    warnings: &warnings,
                    Self.controlMessage(byte)
                )
            }
        }
    }

    // MARK: Positions

    /// 1-based column of `index` (at or after the scan position): characters since the last
    /// line feed, or since the chunk start plus the carried column. Nil once `warnings` lists
    /// no more positions, so that a million bad bytes never count a million line prefixes.
    private func column(_ input: UnsafeRawBufferPointer, at index: Int, _ warnings: WarningLog) -> Int? {
        guard !warnings.isFull else { return nil }
        guard let lastLineFeed else { return 1 + columnAtChunkStart + characters(input, from: 0, to: index) }
        return 1 + characters(input, from: lastLineFeed + 1, to: index)
    }

    private mutating func finishChunk(_ input: UnsafeRawBufferPointer, end: Int) {
        if let lastLineFeed {
            columnAtChunkStart = characters(input, from: lastLineFeed + 1, to: end)
        } else {
            columnAtChunkStart += characters(input, from: 0, to: end)
        }
    }

    /// Characters in `input[from..<to]`: bytes that are not UTF-8 continuation bytes (every
    /// byte, for single-byte text).
    private func characters(_ input: UnsafeRawBufferPointer, from: Int, to: Int) -> Int {
        guard from < to else { return 0 }
        if case .singleByte = source { return to - from }
        var count = 0
        for index in from..<to where input[index] & 0xC0 != 0x80 { count += 1 }
        return count
    }

    static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

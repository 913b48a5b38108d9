internal import CLibXML2

/// SAX events as libxml2 reports them, kept in order until the builder reads them.
///
/// Why: read event by event, the builder's code and libxml2's parser loop take turns in the
/// instruction cache, and each evicts the other several times per entry (callgrind's cache
/// model: 20 times the floor's L1 instruction misses, most of them in libxml2's own loop;
/// issue 17). Recorded, a chunk's events cost libxml2 a few stores each, and the builder then
/// reads some hundred entries with its own code hot.
///
/// What libxml2 hands over only for the length of a callback (text, attribute values, entity
/// names, error messages) is copied into `bytes`; interned names (element and attribute names,
/// namespace URIs: libxml2's dictionary, alive with the parser context) are kept as pointers.
/// Each event carries libxml2's line and column at the time, for the warnings it may raise.
///
/// Bounded: `isFull` asks for the events to be read before more are recorded (at most
/// `maxEvents` events and about `maxBytes` bytes), and text longer than `maxTextBytes` is not
/// copied but read at once (see `SAXRecorder`).
struct SAXEventTape: ~Copyable {
    enum Kind: UInt8 {
        case start, end, text, entityDecl, bareAmpersand, unknownEntity, error
        /// A start tag the input ended inside (`SAXRecorder.startElement`): its attributes are
        /// not recorded, as the last one may be cut off.
        case cutOffStart
    }

    struct Event {
        var kind: Kind
        var line: Int32
        var column: Int32
        /// `start`: the element's local name and namespace URI (interned).
        var name: UnsafePointer<UInt8>?
        var namespace: UnsafePointer<UInt8>?
        /// `text` and entity names: where the bytes are in `bytes` (names NUL-terminated);
        /// `start`: the first of its attributes in `attributes`; `error`: its index in `errors`.
        var offset: Int
        var count: Int
    }

    /// One attribute of a `start` event: libxml2's interned names and a copy of the value.
    struct Attribute {
        var name: UnsafePointer<UInt8>?
        var prefix: UnsafePointer<UInt8>?
        var namespace: UnsafePointer<UInt8>?
        var valueOffset: Int
        var valueCount: Int
    }

    /// A libxml2 error or warning, with what `XMLFeedBuilder.record` reads of it.
    struct RecordedError {
        var code: Int
        var isError: Bool
        var line: Int
        var column: Int
        var message: String
        /// XML_ERR_TAG_NAME_MISMATCH: the end tag as written, NUL-terminated in `bytes`.
        var endTagOffset: Int?
    }

    static let maxEvents = 4096
    static let maxBytes = 256 << 10
    static let maxTextBytes = 16 << 10

    private(set) var events = GrowableBuffer<Event>(capacity: 256)
    private(set) var attributes = GrowableBuffer<Attribute>(capacity: 64)
    private(set) var errors: [RecordedError] = []
    private(set) var bytes = ByteBuffer(capacity: 4096)

    var isEmpty: Bool { events.isEmpty }

    /// Time to read the events, before recording more.
    var isFull: Bool { events.count >= Self.maxEvents || bytes.count >= Self.maxBytes }

    /// Forgets every event; the memory is kept for the next chunk.
    mutating func removeAll() {
        events.removeAll()
        attributes.removeAll()
        errors.removeAll(keepingCapacity: true)
        bytes.removeAll()
    }

    mutating func recordStart(
        name: UnsafePointer<UInt8>,
        namespace: UnsafePointer<UInt8>?,
        attributes libxml: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
        count: Int,
        line: Int32,
        column: Int32
    ) {
        let first = attributes.count
        if let libxml {
            for index in 0..<count {
                let slot = libxml + index * 5
                let valueOffset = bytes.count
                var valueCount = 0
                if let start = slot[3], let end = slot[4], end > start {
                    valueCount = end - start
                    bytes.append(UnsafeBufferPointer(start: start, count: valueCount))
                }
                attributes.append(
                    Attribute(
                        name: slot[0],
                        prefix: slot[1],
                        namespace: slot[2],
                        valueOffset: valueOffset,
                        valueCount: valueCount
                    )
                )
            }
        }
        events.append(
            Event(
                kind: .start,
                line: line,
                column: column,
                name: name,
                namespace: namespace,
                offset: first,
                count: attributes.count - first
            )
        )
    }

    mutating func recordCutOffStart(name: UnsafePointer<UInt8>, line: Int32, column: Int32) {
        events.append(Event(kind: .cutOffStart, line: line, column: column, name: name, offset: 0, count: 0))
    }

    @inline(__always)
    mutating func recordEnd(line: Int32, column: Int32) {
        events.append(Event(kind: .end, line: line, column: column, offset: 0, count: 0))
    }

    /// Text right after text (libxml2 reports a title with two entity references in five
    /// pieces) extends the last event, which then carries the position of its last piece: the
    /// builder reads the run at once, as it would have read the pieces one after another.
    @inline(__always)
    mutating func recordText(_ text: UnsafePointer<UInt8>, count: Int, line: Int32, column: Int32) {
        bytes.append(UnsafeBufferPointer(start: text, count: count))
        if events.count > 0, events[events.count - 1].kind == .text {
            events.updateLast { last in
                last.count += count
                last.line = line
                last.column = column
            }
        } else {
            events.append(Event(kind: .text, line: line, column: column, offset: bytes.count - count, count: count))
        }
    }

    /// An event about an entity name (`entityDecl`, `unknownEntity`) or none (`bareAmpersand`).
    mutating func record(_ kind: Kind, name: UnsafePointer<UInt8>?, line: Int32, column: Int32) {
        let offset = bytes.count
        if let name { appendNulTerminated(name) }
        events.append(Event(kind: kind, line: line, column: column, offset: offset, count: 0))
    }

    mutating func recordError(_ error: UnsafePointer<xmlError>, line: Int32, column: Int32) {
        let code = Int(error.pointee.code)
        var endTagOffset: Int?
        if code == 76, let written = error.pointee.str2 {
            endTagOffset = bytes.count
            written.withMemoryRebound(to: UInt8.self, capacity: 1) { appendNulTerminated($0) }
        }
        errors.append(
            RecordedError(
                code: code,
                isError: error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
                line: Int(error.pointee.line),
                column: Int(error.pointee.int2),
                message: error.pointee.message.map { String(cString: $0) } ?? "XML error \(code)",
                endTagOffset: endTagOffset
            )
        )
        events.append(Event(kind: .error, line: line, column: column, offset: errors.count - 1, count: 0))
    }

    private mutating func appendNulTerminated(_ name: UnsafePointer<UInt8>) {
        bytes.append(UnsafeBufferPointer(start: name, count: strlenUInt8(name)))
        bytes.append(0)
    }
}

internal import CLibXML2

/// libxml2's userData for one parse: its SAX2 callbacks record events on a `SAXEventTape`,
/// and `replay` hands them to the builder, in order, once libxml2 returns from a chunk (or the
/// tape is full).
///
/// What must happen while libxml2 waits stays in the callbacks: `getEntity`'s answer (the
/// builder's HTML5 entity lookup, a cache whose order does not matter, or inside an attribute
/// value the parse's `AttributeEntities`) and the reset of
/// libxml2's `wellFormed` flag at each element (`resetRecoveredError`); text that no one reads,
/// directly inside the document and entry containers, is not recorded at all. Everything the builder
/// decides, warns about or stops on happens in `replay`, at the position libxml2 was at when it
/// reported the event: a stop or the entry limit there drops the events recorded after it, as
/// `xmlStopParser` would have stopped libxml2 before reporting them.
///
/// Not Sendable: owned by one `XMLPushParser`, used on the thread that feeds it.
struct SAXRecorder: ~Copyable {
    private var tape = SAXEventTape()
    private let builder: UnsafeMutablePointer<XMLFeedBuilder>
    var context: xmlParserCtxtPtr?
    /// libxml2's five-pointer attribute layout, rebuilt over the tape's copies for `XMLAttributes`.
    private var slots: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private var slotCapacity = 16 * 5
    /// The elements libxml2 has reported open (by start and end events, as the builder's stack
    /// follows them), and how many of them, from the root, are text-free containers
    /// (`XMLName.isTextFreeContainer`): while the two are equal, text is read by no one and is
    /// not recorded. Between an RSS item's fields that is 8 of its 19 text events.
    private var depth = 0
    private var containerDepth = 0
    private var attributeEntities = AttributeEntities()

    init(builder: UnsafeMutablePointer<XMLFeedBuilder>) {
        self.builder = builder
        slots = .allocate(capacity: slotCapacity)
    }

    deinit { slots.deallocate() }

    /// libxml2's line and column now (`xmlSAX2GetLineNumber`/`ColumnNumber` read the same).
    @inline(__always)
    private var position: (line: Int32, column: Int32) {
        guard let input = context?.pointee.input else { return (0, 0) }
        return (input.pointee.line, input.pointee.col)
    }

    // MARK: Recording (from libxml2's callbacks)

    // The three frequent ones are inlined into their C callbacks, with the tape's `recordText`
    // and `recordEnd`: as calls they cost ~30 instructions of prologue and epilogue per event,
    // 19 text events an RSS item (callgrind, issue 17).

    @inline(__always)
    mutating func startElement(
        name: UnsafePointer<UInt8>,
        namespace: UnsafePointer<UInt8>?,
        attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
        count: Int
    ) {
        resetRecoveredError()
        depth += 1
        if containerDepth == depth - 1 && builder.pointee.internedNames.name(name).isTextFreeContainer {
            containerDepth = depth
        }
        guard hasRoom() else { return }
        let (line, column) = position
        // libxml2 reports a start tag before it reads its `>`, where it stands; at the end of
        // the input instead, the body was cut inside the tag (libxml2 then reports "Couldn't
        // find end of Start Tag"), and its last attribute value may be cut short too.
        if let input = context?.pointee.input, let cursor = input.pointee.cur, let end = input.pointee.end,
            cursor >= end
        {
            tape.recordCutOffStart(name: name, line: line, column: column)
            return
        }
        tape.recordStart(
            name: name,
            namespace: namespace,
            attributes: attributes,
            count: count,
            line: line,
            column: column
        )
    }

    @inline(__always)
    mutating func endElement() {
        resetRecoveredError()
        if depth > 0 {
            if containerDepth == depth { containerDepth -= 1 }
            depth -= 1
        }
        guard hasRoom() else { return }
        let (line, column) = position
        tape.recordEnd(line: line, column: column)
    }

    @inline(__always)
    mutating func characters(_ bytes: UnsafePointer<UInt8>, count: Int) {
        guard depth != containerDepth else { return }
        if count > SAXEventTape.maxTextBytes {
            // A long text (a big CDATA section) is read where it is, not copied.
            replay()
            guard !hasEnded else { return }
            builder.pointee.characters(bytes, count: count)
            return
        }
        guard hasRoom() else { return }
        let (line, column) = position
        tape.recordText(bytes, count: count, line: line, column: column)
    }

    mutating func record(_ kind: SAXEventTape.Kind, name: UnsafePointer<UInt8>?) {
        guard hasRoom() else { return }
        let (line, column) = position
        tape.record(kind, name: name, line: line, column: column)
    }

    mutating func record(_ error: UnsafePointer<xmlError>) {
        guard hasRoom() else { return }
        let (line, column) = position
        tape.recordError(error, line: line, column: column)
    }

    /// Reads a full tape; false when that stopped the parse (a limit, the entry limit), and the
    /// event being reported must then be dropped unread: `xmlStopParser` has freed the buffer
    /// its text and attribute values point into (libxml2 2.9.14's `xmlHaltParser`).
    @inline(__always)
    private mutating func hasRoom() -> Bool {
        guard tape.isFull else { return true }
        replay()
        return !hasEnded
    }

    /// The builder stopped or reached the entry limit: nothing after it is read.
    private var hasEnded: Bool { builder.pointee.isStopped || builder.pointee.isTruncated }

    /// How many events are recorded and not yet read (for tests).
    var pendingEvents: Int { tape.events.count }

    /// What `getEntity` answers for `&name;`: its HTML5 entity (the builder's cache), whose
    /// UTF-8 libxml2 hands to `characters()`; `&` for `AmpersandRepair`'s marker of a bare `&`;
    /// for any other name the empty entity, which drops the reference as libxml2's recovery
    /// would, recorded so that the builder warns about it. Inside an attribute value, a general
    /// entity instead (``AttributeEntities``), which libxml2 writes as the reference itself.
    mutating func entity(named name: UnsafePointer<UInt8>) -> UnsafeMutablePointer<xmlEntity>? {
        let isInAttribute = context?.pointee.instate == XML_PARSER_ATTRIBUTE_VALUE
        if let entity = builder.pointee.htmlEntity(named: name) {
            return isInAttribute ? attributeEntities.twin(of: entity) : entity
        }
        if AmpersandRepair.isBareAmpersandMarker(name) {
            record(.bareAmpersand, name: nil)
            // Predefined-type `&`: libxml2 writes `&#38;` for it in an attribute value.
            return EntityCache.shared.ampersand
        }
        record(.unknownEntity, name: name)
        guard isInAttribute, let empty = EntityCache.shared.empty else { return EntityCache.shared.empty }
        return attributeEntities.twin(of: empty)
    }

    /// libxml2 2.9.14 drops every entity reference, even `&amp;`, once `wellFormed` is 0
    /// (`xmlParseReference` returns early), so one stray tag would silently eat later
    /// ampersands in RECOVER mode. The error is already recorded by `serror`; reset the flag so
    /// references keep decoding. Safe because `getEntity` returns no entity libxml2 parses:
    /// predefined-type ones, and inside attribute values `AttributeEntities`' general ones,
    /// marked checked, which libxml2 writes as references.
    @inline(__always)
    private func resetRecoveredError() {
        if let context, context.pointee.wellFormed == 0 { context.pointee.wellFormed = 1 }
    }

    // MARK: Replaying

    /// Hands the recorded events to the builder, in order, until it stops or reaches the entry
    /// limit; then forgets them.
    mutating func replay() {
        guard !tape.isEmpty else { return }
        let builder = self.builder
        let arena = tape.bytes.baseAddress
        for index in 0..<tape.events.count {
            let event = tape.events[index]
            if hasEnded { break }
            builder.pointee.replayedPosition = (event.line, event.column)
            switch event.kind {
            case .text:
                builder.pointee.characters(arena + event.offset, count: event.count)
            case .start:
                guard let name = event.name else { continue }
                builder.pointee.startElement(
                    name: name,
                    namespace: event.namespace,
                    attributes: XMLAttributes(base: attributeSlots(for: event, arena: arena), count: event.count)
                )
            case .cutOffStart:
                guard let name = event.name else { continue }
                builder.pointee.startCutOffElement(name: name)
            case .end:
                builder.pointee.endElement()
            case .entityDecl:
                builder.pointee.noteDeclaredEntity(arena + event.offset)
            case .bareAmpersand:
                builder.pointee.recordBareAmpersand()
            case .unknownEntity:
                builder.pointee.recordUnknownEntity(arena + event.offset)
            case .error:
                let error = tape.errors[event.offset]
                builder.pointee.record(error, endTag: error.endTagOffset.map { arena + $0 })
            }
        }
        builder.pointee.replayedPosition = nil
        tape.removeAll()
    }

    /// The attributes of a `start` event in libxml2's layout, pointing into the tape.
    private mutating func attributeSlots(
        for event: SAXEventTape.Event,
        arena: UnsafePointer<UInt8>
    ) -> UnsafeMutablePointer<UnsafePointer<UInt8>?>? {
        guard event.count > 0 else { return nil }
        if event.count * 5 > slotCapacity {
            slots.deallocate()
            slotCapacity = event.count * 5
            slots = .allocate(capacity: slotCapacity)
        }
        for index in 0..<event.count {
            let attribute = tape.attributes[event.offset + index]
            let slot = slots + index * 5
            let value = arena + attribute.valueOffset
            slot[0] = attribute.name
            slot[1] = attribute.prefix
            slot[2] = attribute.namespace
            slot[3] = value
            slot[4] = value + attribute.valueCount
        }
        return slots
    }
}

// MARK: - C callbacks (no captures; the recorder arrives as libxml2's userData)

/// Calls `body` with the recorder behind libxml2's userData: the `XMLPushParser` owns that
/// memory for the whole parse, and libxml2 calls back on the thread that feeds it.
@inline(__always)
private func withRecorder(_ context: UnsafeMutableRawPointer?, _ body: (inout SAXRecorder) -> Void) {
    guard let context else { return }
    body(&context.assumingMemoryBound(to: SAXRecorder.self).pointee)
}

extension SAXRecorder {
    /// A SAX2 handler with only the recorder's hooks (`feed-parsing.md` §5.2).
    static func handler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = onStartElement
        handler.endElementNs = onEndElement
        handler.characters = onCharacters
        handler.cdataBlock = onCharacters
        handler.ignorableWhitespace = onCharacters
        handler.entityDecl = onEntityDecl
        handler.getEntity = onGetEntity
        handler.serror = onError
        return handler
    }
}

private let onStartElement: startElementNsSAX2Func = {
    context,
    localName,
    _,
    uri,
    _,
    _,
    attributeCount,
    _,
    attributes in
    guard let localName else { return }
    withRecorder(context) {
        $0.startElement(name: localName, namespace: uri, attributes: attributes, count: Int(max(0, attributeCount)))
    }
}

private let onEndElement: endElementNsSAX2Func = { context, _, _, _ in
    withRecorder(context) { $0.endElement() }
}

private let onCharacters: charactersSAXFunc = { context, bytes, count in
    guard let bytes, count > 0 else { return }
    withRecorder(context) { $0.characters(bytes, count: Int(count)) }
}

/// Entity declarations in the document are never recorded as entities (§5.2); only their
/// names are noted, so that a reference to one is reported as "not expanded" rather than as
/// undefined.
private let onEntityDecl: entityDeclSAXFunc = { context, name, _, _, _, _ in
    guard let name else { return }
    withRecorder(context) { $0.record(.entityDecl, name: name) }
}

/// HTML5 names decode (§5.2), never NULL (`SAXRecorder.entity(named:)`).
private let onGetEntity: getEntitySAXFunc = { context, name in
    guard let name else { return EntityCache.shared.empty }
    var found = EntityCache.shared.empty
    withRecorder(context) { found = $0.entity(named: name) }
    return found
}

private let onError: xmlStructuredErrorFunc = { context, error in
    guard let error else { return }
    withRecorder(context) { $0.record(error) }
}

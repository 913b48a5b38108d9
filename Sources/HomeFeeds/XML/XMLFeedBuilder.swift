internal import CLibXML2
import JSONCore

/// The feed state machine behind libxml2's SAX2 events, read from `SAXRecorder`'s tape: turns
/// element and text events of RSS 0.9x/2.0, RSS 1.0, Atom 1.0 and OPML into entries, and
/// enforces the limits of `feed-parsing.md` §6 that libxml2 does not (depth, text per field and
/// per document, entries, time).
///
/// A noncopyable value, not a class: `XMLPushParser` keeps it in memory of its own and the
/// recorder's replay mutates it through that pointer, so a SAX event pays no dynamic exclusivity
/// check on the state it touches (a class's stored properties would, some 80 per RSS item;
/// issue 17).
///
/// Not Sendable: owned by one `XMLPushParser`, used on the thread that feeds it. A limit breach
/// records `stopError` and calls `xmlStopParser`; the events are read from C callbacks, which
/// cannot throw.
struct XMLFeedBuilder: ~Copyable {
    enum Root {
        case rss(FeedFormat)
        case rdf
        case atom
        case opml
    }

    /// What an open element is to the state machine.
    enum Role: UInt8 {
        case other, rssRoot, rdfRoot, atomFeed, opmlRoot
        case channel, item, entry, mediaGroup
        case opmlHead, opmlBody, outline
        /// The element whose text is being captured, and elements nested inside it.
        case field, insideField
    }

    /// Text-bearing elements; ranked ones compete with other elements for the same value
    /// (`FieldRank`).
    enum Field {
        case feedTitle(rank: UInt8)
        case feedLink, opmlTitle
        case entryTitle(rank: UInt8)
        case entryLink, guid, atomID
        case summary(rank: UInt8)
        /// Content beside a better summary, captured only for its first `<img>` (`FeedImage`).
        case contentImages
        case date(rank: UInt8)
    }

    struct Frame {
        var role: Role
        var pushedBase: Bool
        /// libxml2's interned local name (valid for the parser context's lifetime).
        var name: UnsafePointer<UInt8>
        /// Elements libxml2 still holds open right below this one that a mismatched end tag
        /// closed for the state machine (`closeOpenElements(named:)`): their end events follow
        /// this element's, and are ignored.
        var closedBelow = 0
        /// A `script` or `style` element inside a field, whose text is dropped (§2 rule 1).
        var hidesText = false
    }

    let documentURL: String
    let limits: FeedParseLimits
    /// Boxed: `ContinuousClock.Instant` is a resilient type (its size is not known when this
    /// module is compiled), and one stored inline would give this struct a layout found at run
    /// time, so that every field access of every SAX event went through the type's metadata
    /// (issue 17). A class reference keeps the layout fixed.
    let deadline: Deadline
    var context: xmlParserCtxtPtr?
    /// Where libxml2 was when it reported the event being replayed (`SAXRecorder`); nil
    /// between replays, when positions are libxml2's current ones.
    var replayedPosition: (line: Int32, column: Int32)?

    // Document state.
    var root: Root?
    /// The open elements, innermost last: at most `limits.maxDepth`.
    var stack: [Frame] = []
    /// Elements libxml2 still holds open above the innermost frame, closed for the state machine
    /// by a mismatched end tag: their end events come next, and are ignored.
    var closedOnTop = 0
    /// An element came after the root had ended (`beginAfterRoot`), which is warned about once.
    var hasContentAfterRoot = false
    var bases: [String]
    var elementCount = 0
    /// Element names and namespaces classified so far, by their interned address.
    var internedNames = InternedNameCache()
    var stopError: FeedParseError? {
        didSet { isStopped = stopError != nil }
    }
    /// `stopError != nil`, kept as a plain flag for the per-event checks.
    var isStopped = false
    var isTruncated = false
    var firstError: (code: Int, line: Int, column: Int, message: String)?
    /// What the parse recovered from or left out (`FeedParseWarning`).
    var warnings = WarningLog()
    /// Cleared by any error libxml2 recovers from, a bare `&`, an unknown entity, or bytes the
    /// decoder had to replace.
    var isWellFormed = true
    /// Where links may point (`LinkPolicy`): `file:` only for documents read from files.
    var linkPolicy: LinkPolicy
    /// Names of the entities the document declares (never expanded), for warnings.
    var declaredEntities: Set<String> = []
    /// The last HTML5 entity looked up, with its name (owned by the entity).
    var recentEntity: (name: UnsafePointer<UInt8>, entity: UnsafeMutablePointer<xmlEntity>)?

    // Text capture: at most one field at a time (Atom xhtml children add to it).
    var captureField: Field? {
        didSet { updateCapturesText() }
    }
    /// `script` and `style` elements open inside the field (HTML written as XML): their text is
    /// no text (§2 rule 1), and is not captured while one is open.
    var hiddenDepth = 0 {
        didSet { updateCapturesText() }
    }
    /// A field's text is captured whole (`captureField`, unless it is read only for its images,
    /// outside `script` and `style`), kept as a plain flag: the most frequent SAX event (one per
    /// entity reference) then tests no enum payload.
    var capturesText = false
    var captureMode: TextMode = .literal
    /// The field's text is base64 (Atom 0.3 `mode="base64"`, a `;base64` type, binary Atom
    /// content): decoded when the field ends.
    var captureIsBase64 = false
    /// Where in `bases` the captured field's base is: an index, not a copy of the String, since
    /// most fields never read it and a copy per field cost a retain and a release. The field's
    /// element may have pushed that base itself, so `endElement` closes an element before it
    /// pops its base.
    var captureBaseIndex = 0
    var linkResolver = URIReference.Resolver()
    var captureBase: String { bases.indices.contains(captureBaseIndex) ? bases[captureBaseIndex] : documentURL }
    /// The field's bytes as libxml2 delivers them (a byte buffer: a field arrives in many
    /// pieces, one per entity reference).
    var text = ByteBuffer(capacity: 4096)
    var totalTextBytes = 0
    var plain = PlainText()

    // Feed and entry state.
    var feedTitle: String?
    var feedTitleRank = FieldRank.none
    var feedLink: String?
    var feedAlternates = AlternateLinkChoice()
    /// The entry being read, while `isInEntry`. Not an optional: each of the ~27 reads and
    /// writes of an entry's fields then costs a flag test instead of an outlined enum-tag call
    /// (`EntryState?` has no spare bits of its own; issue 17).
    var entry = EntryState()
    var isInEntry = false
    var entriesStarted = 0
    /// Entries in document order, after the duplicate rules.
    var entries: [FeedEntry] = []
    var disambiguator = EntryDisambiguator()

    // OPML state.
    var opmlTitle: String?
    var outlines: [OPMLOutline] = []
    /// Outlines whose only URL the link policy refused (`OPMLDocument.refusedOutlines`).
    var refusedOutlines: [OPMLOutline] = []
    var outlineTexts: [String?] = []

    /// When the parse must stop (`FeedParseLimits.maxParseDuration` from its start).
    final class Deadline {
        let instant: ContinuousClock.Instant

        init(_ instant: ContinuousClock.Instant) {
            self.instant = instant
        }

        /// Not inlined: inlined into `startElement` (read every 256th element), it made every
        /// element fetch `Instant`'s type metadata and reserve stack space sized by it (2 M
        /// instructions in a 20 000-item document; issue 17).
        var hasPassed: Bool {
            @inline(never) get { ContinuousClock.now >= instant }
        }
    }

    init(documentURL: String, limits: FeedParseLimits, deadline: ContinuousClock.Instant) {
        self.documentURL = documentURL
        self.limits = limits
        self.deadline = Deadline(deadline)
        bases = [documentURL]
        linkPolicy = LinkPolicy(documentURL: documentURL)
    }

    private mutating func updateCapturesText() {
        if case .contentImages = captureField {
            capturesText = false
        } else {
            capturesText = captureField != nil && hiddenDepth == 0
        }
    }

    // MARK: SAX events

    mutating func startElement(
        name: UnsafePointer<UInt8>,
        namespace: UnsafePointer<UInt8>?,
        attributes: XMLAttributes
    ) {
        guard !isStopped else { return }
        elementCount += 1
        if stack.count >= limits.maxDepth {
            stop(.limitExceeded(.depth), "element depth exceeds \(limits.maxDepth)")
            return
        }
        if elementCount & 255 == 0 && deadline.hasPassed {
            stop(.limitExceeded(.parseDuration), "parse took longer than \(limits.maxParseDuration)")
            return
        }
        let parent = stack.last?.role
        if parent == .field || parent == .insideField {
            // Markup inside a text field (RSS HTML written as XML, Atom XHTML): a block element
            // separates words, in whatever mode the field is read (§2 rule 1).
            let tag = UnsafeBufferPointer(start: name, count: strlenUInt8(name))
            if HTMLTagNames.isBlock(tag) { appendWordBreak() }
            addInlineImage(name: name, attributes: attributes)
            let hidesText = HTMLTagNames.rawTextCloser(tag) != nil
            if hidesText { hiddenDepth += 1 }
            push(Frame(role: .insideField, pushedBase: false, name: name, hidesText: hidesText))
            return
        }
        // Outside text fields only: markup inside one keeps no attribute but an image's URL (at
        // most 16 candidates an entry), so a large inline `data:` image does not fail the feed.
        var attributes = attributes
        if attributes.count > 0 {
            guard let counted = countAttributeText(attributes) else { return }
            attributes = counted
        }
        var pushedBase = false
        if let xmlBase = attributes.value("base", in: .xml) {
            bases.append(URIReference.resolve(xmlBase, against: bases.last) ?? bases.last ?? documentURL)
            pushedBase = true
        }
        let xmlName = internedNames.name(name)
        let role = begin(
            name: xmlName,
            namespace: internedNames.namespace(namespace),
            localName: name,
            parent: parent,
            attributes: attributes
        )
        // `SAXRecorder` records no text directly inside a chain of such names.
        assert(
            role != .field || !xmlName.isTextFreeContainer,
            "a field under a text-free container name would never see its text"
        )
        push(Frame(role: role, pushedBase: pushedBase, name: name))
    }

    /// An element whose start tag the body ends inside: dropped, with a warning, since the value
    /// of its last attribute may be cut short (`xmlUrl="https://b.te` is another host). It stays
    /// open, as libxml2 holds it, so that the document is read as ending inside it.
    mutating func startCutOffElement(name: UnsafePointer<UInt8>) {
        guard !isStopped else { return }
        let (line, column) = position()
        warnings.add(
            line: line,
            column: column,
            "recovered: the document ends inside the start tag of <\(shownName(name))>, which is dropped"
        )
        isWellFormed = false
        push(Frame(role: .other, pushedBase: false, name: name))
    }

    /// Opens `frame` above the elements a mismatched end tag closed, whose end events then
    /// follow its own.
    private mutating func push(_ frame: Frame) {
        var frame = frame
        frame.closedBelow = closedOnTop
        closedOnTop = 0
        stack.append(frame)
    }

    mutating func endElement() {
        guard !isStopped else { return }
        if closedOnTop > 0 {
            closedOnTop -= 1
            return
        }
        guard let frame = stack.popLast() else { return }
        closedOnTop = frame.closedBelow
        close(frame)
        if frame.pushedBase { bases.removeLast() }
    }

    private mutating func close(_ frame: Frame) {
        switch frame.role {
        case .insideField:
            if frame.hidesText { hiddenDepth -= 1 }
            if captureField != nil,
                HTMLTagNames.isBlock(UnsafeBufferPointer(start: frame.name, count: strlenUInt8(frame.name)))
            {
                appendWordBreak()
            }
        case .field: finishField()
        case .item, .entry: finishEntry()
        case .outline: outlineTexts.removeLast()
        default: break
        }
    }

    /// HTML-style recovery for a mismatched end tag: `</title>` while an unclosed `<br>` is
    /// open closes the open `title` (and the `br`) for the state machine. libxml2 itself pops
    /// only the innermost element per end tag, which would otherwise nest every later item
    /// inside the first one. The closed elements leave the stack, with any `xml:base` they set,
    /// so they count toward no depth and lend no base to what follows; libxml2 still sends
    /// their end events later, which `closedOnTop` and `Frame.closedBelow` count off.
    ///
    /// An end tag that names no open element is ignored, as an HTML parser ignores it: a stray
    /// `</outline>` must not end the `body` around it. libxml2 still closes its innermost
    /// element for it; when that is the stack's innermost frame (no earlier recovery left the
    /// two stacks apart), the end event it sends next is counted off too, and the frame stays
    /// open here (libxml2's later end tags for it and its
    /// ancestors then mismatch by one, which this recovery reads the same way).
    mutating func closeOpenElements(named endName: UnsafePointer<UInt8>) {
        var local = endName
        var cursor = endName
        while cursor.pointee != 0 {
            if cursor.pointee == UInt8(ascii: ":") { local = cursor + 1 }
            cursor += 1
        }
        guard let target = stack.lastIndex(where: { strcmpUInt8($0.name, local) }) else {
            // Only while this stack is libxml2's, element for element: with elements already
            // closed on top, libxml2's innermost is one of those, whose end event `closedOnTop`
            // counts off as it is; and a frame left counting closed elements below it
            // (`closedBelow`) would later restore that count over a real end event (an unclosed
            // `<br>` in one paragraph and a stray `</i>` in the next kept a `description`, and
            // the item around it, open over every later item).
            if closedOnTop == 0 && !stack.isEmpty && !stack.contains(where: { $0.closedBelow > 0 }) {
                closedOnTop = 1
            }
            return
        }
        while stack.count > target, let frame = stack.popLast() {
            closedOnTop += 1 + frame.closedBelow
            close(frame)
            if frame.pushedBase { bases.removeLast() }
        }
    }

    /// Counts the element's attribute values against the text limits as text: each against the
    /// per-field limit, all against the document's. The links, types and names made from them
    /// would otherwise grow the result past both. False when that stopped the parse.
    ///
    /// - Returns: the attributes to read, none when one value is past the per-field limit (the
    ///   element is read without them, with a warning: a `data:` thumbnail of 2 MiB, which no
    ///   link policy keeps, does not fail the feed); nil when the document's limit stopped the parse.
    private mutating func countAttributeText(_ attributes: XMLAttributes) -> XMLAttributes? {
        let (total, largest) = attributes.valueByteCounts
        if largest > limits.maxFieldBytes {
            let (line, column) = position()
            warnings.add(
                line: line,
                column: column,
                "an attribute value exceeds \(limits.maxFieldBytes) bytes: the element's attributes are ignored"
            )
            return XMLAttributes(base: nil, count: 0)
        }
        return countTotalText(total) ? attributes : nil
    }

    /// Counts `bytes` of text kept outside a field (attribute values, an outline's folder path)
    /// against the document's text limit. False when that stopped the parse.
    mutating func countTotalText(_ bytes: Int) -> Bool {
        totalTextBytes += bytes
        guard totalTextBytes <= limits.maxTotalTextBytes else {
            stop(.limitExceeded(.totalTextBytes), "text exceeds \(limits.maxTotalTextBytes) bytes")
            return false
        }
        return true
    }

    /// Appends text to the field being captured; anything else (no field, a field read for
    /// its images, a limit reached, a stopped parse) takes `charactersOffPath`.
    @inline(__always)
    mutating func characters(_ bytes: UnsafePointer<UInt8>, count: Int) {
        guard capturesText, !isStopped, text.count + count <= limits.maxFieldBytes,
            totalTextBytes + count <= limits.maxTotalTextBytes
        else { return charactersOffPath(bytes, count: count) }
        totalTextBytes += count
        text.append(UnsafeBufferPointer(start: bytes, count: count))
    }

    @inline(never)
    private mutating func charactersOffPath(_ bytes: UnsafePointer<UInt8>, count: Int) {
        guard let field = captureField, !isStopped, hiddenDepth == 0 else { return }
        if case .contentImages = field {
            appendScannedText(bytes, count: count)
            return
        }
        if text.count + count > limits.maxFieldBytes {
            stop(.limitExceeded(.fieldBytes), "a text field exceeds \(limits.maxFieldBytes) bytes")
            return
        }
        totalTextBytes += count
        if totalTextBytes > limits.maxTotalTextBytes {
            stop(.limitExceeded(.totalTextBytes), "text exceeds \(limits.maxTotalTextBytes) bytes")
            return
        }
        text.append(UnsafeBufferPointer(start: bytes, count: count))
    }

    /// A block element's word break in the field: one space, read as the field's text is, so
    /// the text limits count it (a field of `<br/>` alone would otherwise grow past them).
    private mutating func appendWordBreak() {
        withUnsafePointer(to: UInt8(ascii: " ")) { characters($0, count: 1) }
    }

    /// The line of the event being read (from 1), for positions in the output such as an OPML
    /// outline's line.
    var currentLine: Int? { position().line }

    // MARK: Stopping

    mutating func stop(_ kind: FeedParseError.Kind, _ message: String) {
        guard stopError == nil else { return }
        let (line, column) = position()
        if let context { xmlStopParser(context) }
        stopError = FeedParseError(kind: kind, source: documentURL, line: line, column: column, message: message)
    }

    /// Stops reading because the entry limit is reached: a bounded result, not an error.
    mutating func truncate() {
        isTruncated = true
        if let context { xmlStopParser(context) }
    }

    mutating func checkDeadline() {
        if stopError == nil && deadline.hasPassed {
            stop(.limitExceeded(.parseDuration), "parse took longer than \(limits.maxParseDuration)")
        }
    }

    // MARK: Text capture

    /// Starts capturing `field`'s text. Never for an element named as a text-free container
    /// (`XMLName.isTextFreeContainer`): the recorder drops text directly inside those.
    mutating func beginCapture(_ field: Field, mode: TextMode, isBase64: Bool = false) -> Role {
        captureField = field
        captureMode = mode
        captureIsBase64 = isBase64
        captureBaseIndex = bases.count - 1
        text.removeAll()
        return .field
    }

    /// Whether the captured text may become Strings without checking it as UTF-8 again: while
    /// the document has been read without a recovery (``isWellFormed``).
    ///
    /// `UTF8Sanitizer` feeds libxml2 only valid UTF-8, and libxml2 hands text back whole: the
    /// input's own bytes, re-encoded characters, and the full UTF-8 of the HTML5 entities. (Into
    /// attribute values it copies one byte of such an entity, which `AttributeEntities` now
    /// avoids, and those values are always checked.) Text is checked anyway once the parse has
    /// recovered from anything, a backstop for a libxml2 recovery no one has seen yet, at no
    /// cost to a well-formed document. ``isWellFormed`` is cleared as the replay reads an error,
    /// which libxml2 reports while it parses the broken part, before the event that ends the
    /// field; libxml2's own `wellFormed` would not do, since `SAXRecorder` sets it back at every
    /// element. (The decoder's repairs clear it too, later, after the piece is replayed: they
    /// need no check, its output being valid UTF-8 whatever it repaired.)
    var isTextTrusted: Bool { isWellFormed }

    /// The captured text as plain text per `mode`, checked as UTF-8 unless `isTextTrusted`.
    mutating func capturedPlainText(_ mode: TextMode) -> String? {
        let isValidUTF8 = isTextTrusted
        return text.withUnsafeBufferPointer { plain.normalize($0, mode: mode, isValidUTF8: isValidUTF8) }
    }

    /// The captured text trimmed (`trimmingASCIIAndNBSP`) but otherwise verbatim (ids), or nil
    /// when empty. Trims the bytes before making the String.
    ///
    /// `mutating` though it only reads: called from `finishField` (once per entry, for the guid
    /// or Atom id), a non-mutating member made the compiler copy the whole builder (832 bytes)
    /// to borrow it.
    mutating func capturedTrimmed() -> String? {
        text.withUnsafeBufferPointer { text in
            let trimmed = text.trimmingASCIIAndNBSP()
            guard !trimmed.isEmpty else { return nil }
            return isTextTrusted ? String(validUTF8: trimmed) : String(decoding: trimmed, as: UTF8.self)
        }
    }

    /// The captured text trimmed and resolved against the field's base (`URIReference`), made
    /// into a String only once, resolved.
    mutating func capturedResolvedLink() -> String? {
        // An absolute, clean link (nearly every one) is taken before the base is read: a copy of
        // the base costs an atomic retain and release.
        if let clean = text.withUnsafeBufferPointer({ URIReference.cleanAbsolute($0.trimmingASCIIAndNBSP()) }) {
            return clean
        }
        let base = captureBase
        return text.withUnsafeBufferPointer { linkResolver.resolve($0.trimmingASCIIAndNBSP(), against: base) }
    }

    func capturedTimestamp() -> FeedTimestamp? {
        text.withUnsafeBufferPointer { FeedTimestamp(utf8: $0) }
    }
}

/// Byte equality of two NUL-terminated strings.
func strcmpUInt8(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>) -> Bool {
    var index = 0
    while lhs[index] == rhs[index] {
        if lhs[index] == 0 { return true }
        index += 1
    }
    return false
}

@inline(__always)
func strlenUInt8(_ pointer: UnsafePointer<UInt8>) -> Int {
    var length = 0
    while pointer[length] != 0 { length += 1 }
    return length
}

/// An element name from the document as messages show it: at most its first 64 bytes.
func shownName(_ name: UnsafePointer<UInt8>) -> String {
    String(decoding: UnsafeBufferPointer(start: name, count: min(strlenUInt8(name), 64)), as: UTF8.self)
}

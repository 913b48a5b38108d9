internal import CLibXML2

/// Reads the icons of a web page's `<head>` as its bytes arrive, with libxml2's HTML push
/// parser, and says when it has seen enough (`isFinished`), so the fetch can end the transfer
/// at the end of the head instead of downloading the page.
///
/// The same discipline as feeds (`feed-parsing.md` §5–§6): `RECOVER | NONET | NOERROR |
/// NOWARNING`, the process-wide deny-all entity loader, a SAX handler with only element hooks
/// (no tree is built, no entity is expanded by us), ≤ 64 KiB chunks, and bounds of its own:
/// at most `maxElements` elements and `maxIcons` icons of each kind are looked at. The byte
/// bound is the caller's (the fetch's body cap). The head ends at `</head>`, at `<body>` or
/// at the first element that can only be in a body (libxml2 implies the body then).
///
/// Bytes go to libxml2 in pieces that end just after a `>`: libxml2 2.9.14's HTML push parser
/// stops emitting events for good once a start tag straddles two chunks (checked on this
/// toolchain: 486 of 10 000 `<link>` tags were reported before the final chunk), so the tail
/// after the last `>` waits for the next bytes.
///
/// Not Sendable: one parser per page, fed from one thread (a libxml2 context must not be
/// shared between threads, `feed-parsing.md` §5.1).
public final class HTMLHeadParser {
    public static let maxElements = 2_000
    public static let maxIcons = 32

    private let collector: HeadCollector
    private var context: htmlParserCtxtPtr?
    /// Bytes after the last `>` fed so far.
    private var pending: [UInt8] = []
    private static let chunkSize = 64 << 10

    /// - Parameter url: the page's URL after redirects, the base of relative links.
    public init(url: String) {
        LibXML2Setup.ensure()
        collector = HeadCollector(pageURL: url)
    }

    deinit {
        if let context {
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            htmlFreeParserCtxt(context)
        }
    }

    /// True once the head has ended or a bound was reached: more bytes change nothing.
    public var isFinished: Bool { collector.isFinished }

    /// Feeds the next bytes of the page.
    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard !collector.isFinished else { return }
        pending.append(contentsOf: bytes)
        var start = 0
        while start < pending.count, !collector.isFinished {
            var end = min(start + Self.chunkSize, pending.count)
            if let last = pending[start..<end].lastIndex(of: UInt8(ascii: ">")) {
                end = last + 1
            } else if end - start < Self.chunkSize {
                break  // no complete tag yet: wait for more bytes
            }
            feed(start..<end, terminate: false)
            start = end
        }
        pending.removeFirst(start)
    }

    /// The icons read; call once the page ended or `isFinished` became true.
    public func finish() -> PageIcons {
        // The head is complete only when it ended within what arrived, not because the body
        // of a cut-short page ended.
        let ended = collector.isFinished && collector.headEnded
        if !collector.isFinished {
            feed(0..<pending.count, terminate: true)
            pending = []
        }
        var icons = collector.icons
        icons.isHeadComplete = ended
        return icons
    }

    private func feed(_ range: Range<Int>, terminate: Bool) {
        if context == nil { createContext() }
        guard let context else { return }
        pending.withUnsafeBytes { raw in
            let chunk = UnsafeRawBufferPointer(rebasing: raw[range])
            _ = htmlParseChunk(
                context,
                chunk.baseAddress?.assumingMemoryBound(to: CChar.self),
                Int32(chunk.count),
                terminate ? 1 : 0
            )
        }
    }

    private func createContext() {
        var handler = htmlSAXHandler()
        // Only element events: no tree, no entity declarations, no text.
        handler.initialized = 1
        handler.startElement = onStartElement
        handler.endElement = onEndElement
        let user = Unmanaged.passUnretained(collector).toOpaque()
        context = collector.pageURL.withCString { url in
            htmlCreatePushParserCtxt(&handler, user, nil, 0, url, XML_CHAR_ENCODING_NONE)
        }
        guard let context else {
            collector.stop(ended: false)
            return
        }
        collector.context = context
        let options =
            Int32(HTML_PARSE_RECOVER.rawValue) | Int32(HTML_PARSE_NONET.rawValue) | Int32(HTML_PARSE_NOERROR.rawValue)
            | Int32(HTML_PARSE_NOWARNING.rawValue)
        _ = htmlCtxtUseOptions(context, options)
    }
}

/// One page's parser is confined to the thread that feeds it.
@available(*, unavailable)
extension HTMLHeadParser: Sendable {}

/// The state behind the SAX callbacks.
final class HeadCollector {
    let pageURL: String
    var context: htmlParserCtxtPtr?
    var icons: PageIcons
    private var base: String
    private var elements = 0
    private(set) var isFinished = false
    private(set) var headEnded = false

    init(pageURL: String) {
        self.pageURL = pageURL
        base = pageURL
        icons = PageIcons(pageURL: pageURL)
    }

    func stop(ended: Bool) {
        guard !isFinished else { return }
        isFinished = true
        headEnded = ended
        if let context { xmlStopParser(context) }
    }

    func start(_ name: String, _ attributes: [String: String]) {
        guard !isFinished else { return }
        elements += 1
        if elements > HTMLHeadParser.maxElements {
            stop(ended: false)
            return
        }
        switch name {
        case "html", "head", "title", "style", "script", "noscript", "template":
            break
        case "base":
            if let href = attributes["href"], let resolved = URIReference.resolve(href, against: pageURL) {
                base = resolved
            }
        case "link":
            link(attributes)
        case "meta":
            let property = (attributes["property"] ?? attributes["name"])?.lowercased()
            if property == "og:image" || property == "og:image:url", icons.openGraphImage == nil,
                let content = attributes["content"], let url = URIReference.resolve(content, against: base)
            {
                icons.openGraphImage = url
            }
        case "body":
            stop(ended: true)
        default:
            // Anything else belongs to the body; libxml2 implies one.
            stop(ended: true)
        }
    }

    func end(_ name: String) {
        if name == "head" { stop(ended: true) }
    }

    private func link(_ attributes: [String: String]) {
        guard let rel = attributes["rel"]?.lowercased(), let href = attributes["href"],
            let url = URIReference.resolve(href, against: base)
        else { return }
        let tokens = Set(rel.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init))
        let icon = PageIcons.Icon(url: url, sizes: PageIcons.sides(attributes["sizes"]), type: attributes["type"])
        if tokens.contains("apple-touch-icon") || tokens.contains("apple-touch-icon-precomposed") {
            if icons.appleTouchIcons.count < HTMLHeadParser.maxIcons { icons.appleTouchIcons.append(icon) }
        } else if tokens.contains("icon") {
            if icons.icons.count < HTMLHeadParser.maxIcons { icons.icons.append(icon) }
        } else if tokens.contains("manifest"), icons.manifestURL == nil {
            icons.manifestURL = url
        }
    }
}

// MARK: - C callbacks (the collector arrives as libxml2's userData)

private func withCollector(_ context: UnsafeMutableRawPointer?, _ body: (HeadCollector) -> Void) {
    guard let context else { return }
    Unmanaged<HeadCollector>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
}

/// The lowercase name (HTML names are case-insensitive; libxml2 already lowercases them).
private func name(_ pointer: UnsafePointer<xmlChar>?) -> String {
    guard let pointer else { return "" }
    return String(cString: pointer).lowercased()
}

private let onStartElement: startElementSAXFunc = { context, elementName, attributes in
    withCollector(context) { collector in
        let element = name(elementName)
        var values: [String: String] = [:]
        // Only the attributes of the elements read; NULL-terminated name/value pairs.
        if element == "link" || element == "meta" || element == "base", let attributes {
            var index = 0
            while index < 64, let key = attributes[index] {
                let value = attributes[index + 1].map { String(cString: $0) } ?? ""
                let lowered = name(key)
                if values[lowered] == nil { values[lowered] = value }
                index += 2
            }
        }
        collector.start(element, values)
    }
}

private let onEndElement: endElementSAXFunc = { context, elementName in
    withCollector(context) { $0.end(name(elementName)) }
}

/// How an Atom text construct or content element is to be read (RFC 4287 §3.1 and §4.1.3.3,
/// and Atom 0.3's `mode`).
struct AtomContent {
    var mode: TextMode
    /// Base64 text: Atom 0.3 `mode="base64"`, a `;base64` type parameter, or Atom content of a
    /// type that is neither text nor XML (RFC 4287 §4.1.3.3 rule 6).
    var isBase64: Bool

    init(_ attributes: XMLAttributes) {
        // The Atom 1.0 forms, compared in place without making Strings.
        if attributes.trimmedBytes("mode") == nil {
            guard let type = attributes.trimmedBytes("type") else {
                self.init(mode: .literal, isBase64: false)
                return
            }
            if HTMLTagNames.equalsIgnoringCase(type, "html") {
                self.init(mode: .html, isBase64: false)
                return
            }
            if HTMLTagNames.equalsIgnoringCase(type, "text") || HTMLTagNames.equalsIgnoringCase(type, "xhtml") {
                self.init(mode: .literal, isBase64: false)
                return
            }
        }
        self.init(
            type: attributes.value("type").map { URIReference.trimASCIIAndNBSP($0).lowercased() } ?? "",
            atom03Mode: attributes.value("mode")
        )
    }

    private init(mode: TextMode, isBase64: Bool) {
        self.mode = mode
        self.isBase64 = isBase64
    }

    private init(type rawType: String, atom03Mode rawMode: String?) {
        let parts = rawType.split(separator: ";", omittingEmptySubsequences: false)
        let type = parts.first.map { String(URIReference.trimASCIIAndNBSP(String($0))) } ?? ""
        let parameters = parts.dropFirst().map { URIReference.trimASCIIAndNBSP(String($0)) }
        let atom03Mode = rawMode.map { URIReference.trimASCIIAndNBSP($0).lowercased() }
        isBase64 = atom03Mode == "base64" || parameters.contains("base64")
        // Escaped or encoded XHTML is markup as text, read like HTML.
        let isMarkupText = isBase64 || atom03Mode == "escaped"
        switch type {
        case "", "text", "text/plain":
            mode = .literal
        case "html", "text/html":
            mode = .html
        case "xhtml", "application/xhtml+xml":
            mode = isMarkupText ? .html : .literal
        default:
            if type.hasPrefix("text/") || type.hasSuffix("+xml") || type.hasSuffix("/xml") {
                mode = isMarkupText && type.hasSuffix("xml") ? .html : .literal
            } else {
                // A binary type: the element holds base64, read as text if it decodes to text.
                mode = .literal
                isBase64 = true
            }
        }
    }
}

/// An Atom `<link>` that may become the entry or feed link, or an enclosure.
struct LinkCandidate {
    /// The `rel`s that matter (RFC 4287 §4.2.7.2): no `rel` means `alternate`.
    enum Relation {
        case alternate, enclosure
    }

    var relation: Relation
    /// No `type`, or `text/html`: the alternate §2 prefers.
    var isHTML: Bool
    var href: String

    var isAlternate: Bool { relation == .alternate }

}

/// §2's choice among an element's `alternate` links, made as they come: the first with type
/// text/html or no type, else the first of any type. Two optional strings instead of an array
/// of every candidate: an entry costs no allocation for its links.
struct AlternateLinkChoice {
    private var firstHTML: String?
    private var first: String?

    mutating func offer(_ candidate: LinkCandidate) {
        if first == nil { first = candidate.href }
        if firstHTML == nil && candidate.isHTML { firstHTML = candidate.href }
    }

    /// The chosen link; nil when none was offered.
    var chosen: String? { firstHTML ?? first }
}

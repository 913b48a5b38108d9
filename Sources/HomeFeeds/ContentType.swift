/// The parts of an HTTP `Content-Type` the parser uses (RFC 9110 §8.3).
struct ContentType {
    /// Lowercased `type/subtype`, e.g. `application/rss+xml`.
    var mediaType: String
    /// The `charset` parameter, lowercased and unquoted, if present and non-empty.
    var charset: String?

    init(_ header: String) {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        mediaType = parts.first.map { $0.trimmingCharacters().lowercased() } ?? ""
        charset = nil
        for parameter in parts.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmingCharacters().lowercased()
            guard name == "charset" else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingCharacters()
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = String(value.dropFirst().dropLast())
            }
            if !value.isEmpty { charset = value.lowercased() }
        }
    }

    var isJSON: Bool { mediaType.hasSuffix("json") }

    /// `text/*`, `application/xml` and `application/*+xml`: the media types whose `charset`
    /// is authoritative over the XML declaration (RFC 7303 §3). For others (say
    /// `application/octet-stream`) the document's own declaration decides.
    var isXMLOrText: Bool {
        mediaType.hasPrefix("text/") || mediaType == "application/xml" || mediaType.hasSuffix("+xml")
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(URIReference.trimASCIIAndNBSP(String(self)))
    }
}

/// Which parser a body goes to: JSON (a JSON Feed) or XML (RSS, Atom, OPML), decided by
/// `FeedDocumentParser` from the HTTP `Content-Type` and the body's first bytes.
enum DocumentSyntax {
    case xml, json

    /// Bytes the syntax is sniffed in: a body whose first 4 KiB are white space is XML.
    static let sniffWindow = 4096

    private static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// A JSON `Content-Type` (`application/json`, `application/feed+json`) is JSON, so that its
    /// errors are JSON errors, unless the body starts with `<` (after a UTF-8 byte-order mark and
    /// white space): an XML feed a misconfigured server labels JSON is read as XML, with a
    /// warning. Otherwise the first character after byte-order
    /// marks and white space, within ``sniffWindow`` bytes, decides: `{` or `[` is JSON,
    /// anything else XML. The marks are UTF-8 ones (two as well, which `JSONFeedReader` then
    /// reports), and a UTF-16 one before a `{` or `[` in UTF-16 (JSON Feed is UTF-8 only, RFC
    /// 8259 §8.1, which the reader reports too); UTF-16 XML stays XML. A file has no
    /// `Content-Type`: its bytes decide.
    ///
    /// - Returns: nil while the bytes at hand cannot tell (white space only, a byte-order mark
    ///   cut short), whatever the pieces the body came in; with `isFinal`, nil only for a body
    ///   of white space.
    static func sniff(_ bytes: UnsafeRawBufferPointer, isFinal: Bool, contentType: ContentType?) -> DocumentSyntax? {
        guard contentType?.isJSON == true else { return sniff(bytes, isFinal: isFinal) }
        // An XML feed a misconfigured server labels JSON is still read (`isXMLServedAsJSON`).
        return isXMLServedAsJSON(bytes, isFinal: isFinal).map { $0 ? .xml : .json }
    }

    /// With a JSON `Content-Type`: whether the body is XML all the same, its first character
    /// after a UTF-8 byte-order mark and white space a `<` (nil while the bytes cannot tell).
    static func isXMLServedAsJSON(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) -> Bool? {
        guard let syntax = sniff(bytes, isFinal: isFinal) else { return isFinal ? false : nil }
        guard syntax == .xml else { return false }
        var index = bytes.starts(with: utf8ByteOrderMark) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "<")
    }

    private static func sniff(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) -> DocumentSyntax? {
        let limit = min(bytes.count, sniffWindow)
        // The first byte of a UTF-16 mark waits for the second.
        if !isFinal, bytes.count == 1, bytes[0] == 0xFF || bytes[0] == 0xFE { return nil }
        if bytes.count >= 2, bytes[0] == 0xFF && bytes[1] == 0xFE || bytes[0] == 0xFE && bytes[1] == 0xFF {
            // UTF-16: the code units after the mark.
            let isLittleEndian = bytes[0] == 0xFF
            var index = 2
            while index + 1 < limit {
                let (low, high) = isLittleEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
                guard high == 0 else { return .xml }
                switch low {
                case 0x20, 0x09, 0x0A, 0x0D: index += 2
                case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
                default: return .xml
                }
            }
            return isFinal || bytes.count >= sniffWindow ? .xml : nil
        }
        var index = 0
        while index < limit {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[index...])
            if rest.starts(with: utf8ByteOrderMark) {
                index += 3
                continue
            }
            // The start of a byte-order mark waits for the rest of it, however the body was cut.
            if !isFinal, rest.count < 3, utf8ByteOrderMark.starts(with: rest) { return nil }
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                return .json
            default:
                return .xml
            }
        }
        return bytes.count >= sniffWindow ? .xml : nil
    }
}

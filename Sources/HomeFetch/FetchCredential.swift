/// A secret sent as the `Authorization` header of one source's requests: a bearer token or a
/// user and password (RFC 6750, RFC 7617).
///
/// The daemon reads it from a credential file (`$CREDENTIALS_DIRECTORY`, systemd's
/// `LoadCredential=`) named by the source's OPML outline. It is sent only to the origin
/// (scheme, host, port) of the source's URL: a redirect to another origin drops it. Its
/// description names the credential, never its value, so logging a source or a request cannot
/// leak it.
///
/// Sendable: an immutable value.
public struct FetchCredential: Sendable, Hashable, CustomStringConvertible {
    /// The credential's name (its file name), for messages.
    public let name: String
    /// The `Authorization` header value.
    let authorization: String

    /// Reads a credential file's text: `bearer TOKEN`, `basic USER:PASSWORD`, or a bare token
    /// (bearer). Surrounding whitespace is ignored; the scheme word is case-insensitive.
    ///
    /// - Returns: nil for an empty value, a control character (a header value is one line), a
    ///   basic credential without `:`, or an unknown scheme word.
    public init?(name: String, text: String) {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty,
            !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F })
        else { return nil }
        let parts = trimmed.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
        self.name = name
        guard parts.count == 2 else {
            authorization = "Bearer " + trimmed
            return
        }
        let value = String(parts[1]).trimmingASCIIWhitespace()
        switch parts[0].lowercased() {
        case "bearer":
            authorization = "Bearer " + value
        case "basic":
            guard value.contains(":") else { return nil }
            authorization = "Basic " + Base64.encode(Array(value.utf8))
        default:
            return nil
        }
    }

    public var description: String { "credential \(name) (redacted)" }
}

extension String {
    fileprivate func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

/// Base64 (RFC 4648 §4) for the `Basic` scheme.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let a = UInt32(bytes[index])
            let b = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let c = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = a << 16 | b << 8 | c
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            out.append(index + 1 < bytes.count ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

internal import Glibc

/// Which absolute links may leave the parser: only links that are safe to follow.
///
/// `http` and `https` with a usable host, and `mailto` for links a person opens (an entry or
/// feed link, an OPML `htmlUrl` or service `url`), but not for resources the daemon fetches
/// (enclosures, OPML `xmlUrl`). `javascript:`, `data:`, `file:`, `ftp:` and anything else are
/// refused, as are malformed `http(s)` URLs (no host, a host with spaces or brackets, a port
/// that is not a number). The one exception is `file:` inside a document that was itself read
/// from a `file:` URL (a local `sources.opml`, `homefeedctl feed parse FILE`): a remote
/// document can never point the daemon at local files.
///
/// Sendable: a value; `refusal` remembers the last accepted `http(s)://authority`, since a
/// feed's links mostly share one.
struct LinkPolicy: Sendable {
    enum Purpose {
        /// A link a person follows: `http`, `https`, `mailto`.
        case page
        /// Something fetched: `http`, `https`.
        case resource
    }

    let allowsFile: Bool
    /// `scheme://authority` of the last accepted `http(s)` link.
    private var lastAuthority: [UInt8] = []

    init(documentURL: String) {
        allowsFile = Self.scheme(of: documentURL) == "file"
    }

    /// Nil when `url` (absolute, as `URIReference.resolve` returns it) may be kept; else why not.
    mutating func refusal(_ url: String, purpose: Purpose) -> String? {
        url.withBorrowedUTF8 { bytes in refusal(bytes, purpose: purpose) }
    }

    private mutating func refusal(_ bytes: UnsafeBufferPointer<UInt8>, purpose: Purpose) -> String? {
        if isLastAuthority(bytes) { return nil }
        guard let schemeLength = Self.schemeLength(bytes) else { return "not an absolute URL" }
        let scheme = UnsafeBufferPointer(rebasing: bytes[0..<schemeLength])
        if Self.equals(scheme, "http") || Self.equals(scheme, "https") {
            switch Self.checkAuthority(bytes, from: schemeLength + 1) {
            case .success(let end):
                lastAuthority = Array(bytes[0..<end])
                return nil
            case .failure(let problem):
                return problem.reason
            }
        }
        if Self.equals(scheme, "mailto") {
            guard purpose == .page else { return "a mailto: link is not a resource" }
            return bytes.count > schemeLength + 1 ? nil : "an empty mailto: link"
        }
        if allowsFile && Self.equals(scheme, "file") { return nil }
        let name = String(decoding: scheme, as: UTF8.self).lowercased()
        return "the \(name): scheme is not followed (only http, https and mailto)"
    }

    /// The warning for a refused link.
    static func message(_ url: String, _ reason: String, what: String) -> String {
        "\(what) \"\(excerpt(url, maxCharacters: 80))\" dropped: \(reason)"
    }

    /// The lowercased scheme of an absolute URL, or nil.
    static func scheme(of url: String) -> String? {
        url.withBorrowedUTF8 { bytes in
            schemeLength(bytes).map { String(decoding: bytes[0..<$0], as: UTF8.self).lowercased() }
        }
    }

    /// Length of `scheme` in `scheme:…` (RFC 3986 §3.1), or nil.
    private static func schemeLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: ":") { return index == 0 ? nil : index }
            let isSchemeByte =
                byte.isASCIILetter
                || (index > 0
                    && (byte.isASCIIDigit || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: ".")))
            guard isSchemeByte, index < 32 else { return nil }
        }
        return nil
    }

    /// ASCII case-insensitive comparison with a lowercase literal.
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        for index in 0..<bytes.count where bytes[index] | 0x20 != literal.utf8Start[index] { return false }
        return true
    }

    /// True when `bytes` starts with `lastAuthority` followed by the end, `/`, `?` or `#`.
    private func isLastAuthority(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = lastAuthority.count
        guard length > 0, bytes.count >= length else { return false }
        if bytes.count > length {
            let next = bytes[length]
            guard next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#") else {
                return false
            }
        }
        return lastAuthority.withUnsafeBufferPointer { cached in
            guard let cachedBase = cached.baseAddress, let base = bytes.baseAddress else { return false }
            return memcmp(cachedBase, base, length) == 0
        }
    }

    struct AuthorityProblem: Error {
        var reason: String
    }

    /// The end of the `//authority` at `start` when it has a host a browser could connect to
    /// (RFC 3986 §3.2, and the WHATWG URL standard's forbidden host code points once
    /// percent-decoded), else the problem. One pass over the authority.
    private static func checkAuthority(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from start: Int
    ) -> Result<Int, AuthorityProblem> {
        guard start + 1 < bytes.count, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") else {
            return .failure(AuthorityProblem(reason: "no host"))
        }
        var end = start + 2
        while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
            bytes[end] != UInt8(ascii: "#")
        {
            end += 1
        }
        // Userinfo ends at the last '@'; the host runs to ':' (a port) or the end.
        var hostStart = start + 2
        var index = end
        while index > hostStart {
            index -= 1
            if bytes[index] == UInt8(ascii: "@") {
                hostStart = index + 1
                break
            }
        }
        var cursor = hostStart
        var hostEnd = end
        if cursor < end && bytes[cursor] == UInt8(ascii: "[") {
            cursor += 1
            while cursor < end && bytes[cursor] != UInt8(ascii: "]") {
                let byte = bytes[cursor]
                let isHex = byte.isASCIIDigit || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
                guard isHex || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") else {
                    return .failure(AuthorityProblem(reason: "an invalid IPv6 host"))
                }
                cursor += 1
            }
            guard cursor < end, cursor > hostStart + 1 else {
                return .failure(AuthorityProblem(reason: "an invalid IPv6 host"))
            }
            hostEnd = cursor + 1
            guard hostEnd == end || bytes[hostEnd] == UInt8(ascii: ":") else {
                return .failure(AuthorityProblem(reason: "garbage after the IPv6 host"))
            }
        } else {
            while cursor < end && bytes[cursor] != UInt8(ascii: ":") {
                var byte = bytes[cursor]
                if byte == UInt8(ascii: "%") {
                    guard cursor + 2 < end, let value = hexValue(bytes[cursor + 1], bytes[cursor + 2]) else {
                        return .failure(AuthorityProblem(reason: "a malformed percent escape in the host"))
                    }
                    byte = value
                    cursor += 2
                }
                if isForbiddenInHost(byte) { return .failure(AuthorityProblem(reason: "an invalid host")) }
                cursor += 1
            }
            hostEnd = cursor
            guard hostEnd > hostStart else { return .failure(AuthorityProblem(reason: "no host")) }
        }
        // The port: digits only, at most 65535 (an empty port is allowed, RFC 3986 §3.2.3).
        if hostEnd < end {
            var port = 0
            for position in (hostEnd + 1)..<end {
                let byte = bytes[position]
                guard byte.isASCIIDigit else { return .failure(AuthorityProblem(reason: "an invalid port")) }
                port = port * 10 + Int(byte - UInt8(ascii: "0"))
                if port > 65_535 { return .failure(AuthorityProblem(reason: "an invalid port")) }
            }
        }
        return .success(end)
    }

    /// Controls, space and `#%/:<>?@[\]^|`, which no host may contain once percent-decoded.
    private static func isForbiddenInHost(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x7F: return true
        case UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "<"),
            UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"),
            UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"):
            return true
        default: return false
        }
    }

    private static func hexValue(_ high: UInt8, _ low: UInt8) -> UInt8? {
        func digit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        guard let high = digit(high), let low = digit(low) else { return nil }
        return high << 4 | low
    }
}

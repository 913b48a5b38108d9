/// The status and the headers of one HTTP response, read line by line as libcurl hands them
/// to the header callback.
///
/// Only the headers homefeed acts on are kept (`wanted`), so a server sending thousands of
/// others costs nothing but the header byte count (`FetchLimits.maxHeaderBytes`). Names are
/// compared case-insensitively (RFC 9110 §5.1); HTTP/2 sends them lowercase anyway. A repeated
/// header is joined with ", " (RFC 9110 §5.3).
///
/// A validator (`ETag`, `Last-Modified`) is sent back later exactly as it came, so one whose
/// bytes a `String` and a header line cannot carry unchanged (not UTF-8, a NUL, a CR) is
/// dropped: changed, it would never match, and the server would send the whole body each time.
struct HTTPResponseHead: Sendable, Equatable {
    /// The status code of the status line; 0 until one was read.
    var status = 0
    /// Wanted headers by lowercase name.
    private var fields: [String: String] = [:]
    /// Validators of this response that could not be kept byte for byte: any later line of the
    /// same name is dropped too.
    private var dropped: Set<String> = []

    /// The headers sent back as they came, in `If-None-Match` and `If-Modified-Since`.
    static let validators: Set<String> = ["etag", "last-modified"]

    /// The headers a fetch reads: validators, caching hints, the body's type, where a redirect
    /// goes, and when to come back.
    static let wanted: Set<String> = [
        "cache-control", "content-type", "etag", "last-modified", "location", "retry-after",
    ]

    /// The value of a wanted header, by case-insensitive name.
    func header(_ name: String) -> String? { fields[name.lowercased()] }

    /// True for the statuses that send the client elsewhere with `Location` (RFC 9110 §15.4):
    /// 301, 302, 303, 307, 308. (300 leaves the choice to the user, 304 is not a redirect.)
    var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) }

    /// True for 301 and 308, the redirects that move a resource for good (RFC 9110 §15.4.2, §15.4.9).
    var isPermanentRedirect: Bool { status == 301 || status == 308 }

    /// True for a 1xx interim response, whose headers are followed by the real response's.
    var isInterim: Bool { (100..<200).contains(status) }

    /// Reads one header line (with its CR LF). A status line starts a new response and drops
    /// what an earlier one (an interim 1xx) said.
    ///
    /// - Returns: true for the empty line that ends the head.
    mutating func read(line bytes: UnsafeRawBufferPointer) -> Bool {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if end == 0 { return true }
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        if line.starts(with: "HTTP/".utf8) {
            self = HTTPResponseHead(status: Self.statusCode(line))
            return false
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let name = String(decoding: line[0..<colon], as: UTF8.self).lowercased()
        guard Self.wanted.contains(name), !dropped.contains(name) else { return false }
        let bytes = line[(colon + 1)...]
        let value: String
        if Self.validators.contains(name) {
            guard let exact = String(validating: bytes, as: UTF8.self),
                !exact.utf8.contains(where: { $0 == 0 || $0 == 13 })
            else {
                dropped.insert(name)
                fields[name] = nil
                return false
            }
            value = Self.trimmed(exact)
        } else {
            value = Self.trimmed(String(decoding: bytes, as: UTF8.self))
        }
        if let earlier = fields[name] {
            fields[name] = earlier + ", " + value
        } else {
            fields[name] = value
        }
        return false
    }

    private init(status: Int) {
        self.status = status
    }

    init() {}

    /// The three digits after the protocol version: `HTTP/1.1 200 OK`, `HTTP/2 304`.
    private static func statusCode(_ line: UnsafeRawBufferPointer) -> Int {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return 0 }
        var code = 0
        var digits = 0
        for byte in line[(space + 1)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 else { break }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits == 3 ? code : 0
    }

    private static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }
}

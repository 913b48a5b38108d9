#if canImport(Glibc)
    internal import Glibc
#endif

/// An `AF_UNIX` stream address: a filesystem path or a name in Linux's abstract namespace.
///
/// Written as Varlink addresses are (varlink-and-systemd.md §1.1): `unix:/run/x.sock` or
/// `unix:@name`; the bare forms `/run/x.sock`, `./x.sock` and `@name` are accepted too.
///
/// Sendable: an immutable value.
public enum UnixAddress: Sendable, Hashable, CustomStringConvertible {
    case path(String)
    /// An abstract name, without the leading `@` (on the wire: a NUL byte, then the name).
    case abstract(String)

    /// `sun_path` holds 108 bytes; a path needs its terminating NUL, so at most 107 bytes
    /// (swift-on-linux.md §6). An abstract name has no terminator but takes one byte for the
    /// leading NUL, so it is limited to 107 bytes too.
    public static let maxLength = 107

    /// Parses `unix:/path`, `unix:@name`, `/path`, a relative path or `@name`.
    ///
    /// - Throws: ``SystemError`` (`EINVAL` for an empty address or another scheme,
    ///   `ENAMETOOLONG` past ``maxLength`` bytes), naming the address.
    public init(parsing text: String) throws(SystemError) {
        var rest = Substring(text)
        if rest.hasPrefix("unix:") {
            rest = rest.dropFirst(5)
            // A `;mode=…` suffix (libvarlink address options) is not part of the path.
            if let semicolon = rest.firstIndex(of: ";") { rest = rest[..<semicolon] }
        } else if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/"), rest.first != "@" {
            throw SystemError(call: "address", errno: EINVAL, path: text, reason: "only unix: addresses are supported")
        }
        guard !rest.isEmpty, rest != "@" else {
            throw SystemError(call: "address", errno: EINVAL, path: text, reason: "empty socket address")
        }
        if rest.first == "@" {
            self = .abstract(String(rest.dropFirst()))
        } else {
            self = .path(String(rest))
        }
        try validate()
    }

    /// Checks the length limit of `sun_path`.
    ///
    /// - Throws: ``SystemError`` with `ENAMETOOLONG`, naming the address.
    public func validate() throws(SystemError) {
        let length: Int
        switch self {
        case .path(let p): length = p.utf8.count
        case .abstract(let name): length = name.utf8.count
        }
        if length > Self.maxLength {
            throw SystemError(
                call: "address",
                errno: ENAMETOOLONG,
                path: description,
                reason: "\(length) bytes; sun_path allows \(Self.maxLength)"
            )
        }
        if case .path(let p) = self, p.utf8.contains(0) {
            throw SystemError(call: "address", errno: EINVAL, path: description, reason: "NUL byte in the path")
        }
    }

    /// `unix:/path` or `unix:@name`.
    public var description: String {
        switch self {
        case .path(let p): "unix:\(p)"
        case .abstract(let name): "unix:@\(name)"
        }
    }

    /// The path for messages: the path itself, or `@name`.
    var displayPath: String {
        switch self {
        case .path(let p): p
        case .abstract(let name): "@\(name)"
        }
    }

    /// Calls `body` with a filled `sockaddr_un` and its exact length.
    ///
    /// The length is `offsetof(sun_path) + bytes (+ 1 for a path's NUL)`. For an abstract name
    /// an exact length is required: `sizeof(sockaddr_un)` would name a different socket, padded
    /// with NULs (varlink-and-systemd.md §6.3).
    ///
    /// - Precondition: ``validate()`` passed (every initializer path runs it).
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        var used = 0
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            switch self {
            case .path(let p):
                let bytes = Array(p.utf8)
                precondition(bytes.count < raw.count, "socket path longer than sun_path")
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
                used = bytes.count + 1
            case .abstract(let name):
                let bytes = Array(name.utf8)
                precondition(bytes.count < raw.count, "abstract name longer than sun_path")
                raw[0] = 0
                UnsafeMutableRawBufferPointer(rebasing: raw[1...]).copyBytes(from: bytes)
                used = bytes.count + 1
            }
        }
        let length = socklen_t(pathOffset + used)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}

internal import SystemCalls

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
    public static let maxLength = UnixSocketAddress.sunPathCapacity - 1

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

    /// Calls `body` with a filled `sockaddr_un` and its exact length (SystemCalls'
    /// ``UnixSocketAddress``).
    ///
    /// - Precondition: ``validate()`` passed (every initializer path runs it).
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        let result: R?
        switch self {
        case .path(let p): result = UnixSocketAddress.withSockaddr(p, abstract: false, body)
        case .abstract(let name): result = UnixSocketAddress.withSockaddr(name, abstract: true, body)
        }
        guard let result else {
            preconditionFailure("\(self) does not fit sun_path; validate() should have refused it")
        }
        return result
    }
}

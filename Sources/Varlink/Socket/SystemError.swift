#if canImport(Glibc)
    internal import Glibc
#endif

/// A failed system call: which call, on what, and errno, in one loggable line such as
/// `bind(/run/homefeed/homefeed.sock): EADDRINUSE` (style.md §3.1).
///
/// Sendable: an immutable value.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed, e.g. `bind`.
    public var call: String
    /// The errno value, or 0 for a failure that is not an errno (see ``reason``).
    public var errno: Int32
    /// The socket path or address the call was about, when there is one.
    public var path: String?
    /// Extra words for failures that errno does not explain ("another server is listening").
    public var reason: String?

    public init(call: String, errno: Int32, path: String? = nil, reason: String? = nil) {
        self.call = call
        self.errno = errno
        self.path = path
        self.reason = reason
    }

    public var description: String {
        var text = path.map { "\(call)(\($0))" } ?? call
        if errno != 0 { text += ": \(Self.name(of: errno))" }
        if let reason { text += errno != 0 ? " (\(reason))" : ": \(reason)" }
        return text
    }

    /// The symbolic name of the errno values a socket program meets, else `errno N`.
    static func name(of code: Int32) -> String {
        switch code {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case EINTR: "EINTR"
        case EIO: "EIO"
        case EBADF: "EBADF"
        case EAGAIN: "EAGAIN"
        case ENOMEM: "ENOMEM"
        case EACCES: "EACCES"
        case EEXIST: "EEXIST"
        case ENOTDIR: "ENOTDIR"
        case EINVAL: "EINVAL"
        case ENFILE: "ENFILE"
        case EMFILE: "EMFILE"
        case ENOSPC: "ENOSPC"
        case EROFS: "EROFS"
        case EPIPE: "EPIPE"
        case ENAMETOOLONG: "ENAMETOOLONG"
        case ENOTSOCK: "ENOTSOCK"
        case EPROTOTYPE: "EPROTOTYPE"
        case EAFNOSUPPORT: "EAFNOSUPPORT"
        case EADDRINUSE: "EADDRINUSE"
        case EADDRNOTAVAIL: "EADDRNOTAVAIL"
        case ECONNABORTED: "ECONNABORTED"
        case ECONNRESET: "ECONNRESET"
        case ENOBUFS: "ENOBUFS"
        case EISCONN: "EISCONN"
        case ENOTCONN: "ENOTCONN"
        case ETIMEDOUT: "ETIMEDOUT"
        case ECONNREFUSED: "ECONNREFUSED"
        default: "errno \(code)"
        }
    }
}

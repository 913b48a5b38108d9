#if canImport(Glibc)
    internal import Glibc
#endif

/// Why a ``VarlinkClient`` operation failed.
///
/// Sendable: an immutable value.
public enum VarlinkClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed: connect (`ENOENT`, `ECONNREFUSED`: no server), send, recv, poll.
    case system(SystemError)
    /// No (complete) reply within the timeout. The connection is closed: a late reply would
    /// otherwise be taken as the answer to the next call.
    case timedOut(method: String)
    /// The server closed the connection before the reply was complete.
    case connectionClosed
    /// The server broke the protocol (malformed reply, oversized message).
    case protocolViolation(VarlinkProtocolError)
    /// The server answered with an error.
    case errorReply(VarlinkError)

    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .timedOut(let method): "\(method): no reply within the timeout"
        case .connectionClosed: "the server closed the connection"
        case .protocolViolation(let error): "protocol violation by the server: \(error)"
        case .errorReply(let error): "\(error)"
        }
    }

    /// Nobody is serving at the address: the socket file is missing, refuses connections, or
    /// is not accessible. A CLI reports this as "daemon not running" (exit 69).
    public var isUnreachable: Bool {
        guard case .system(let error) = self, error.call == "connect" else { return false }
        return [ENOENT, ECONNREFUSED, EACCES, ENOTDIR, EPERM].contains(error.errno)
    }
}

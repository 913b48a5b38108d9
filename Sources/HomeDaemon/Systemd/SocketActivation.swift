import Glibc

/// sd_listen_fds(3) without libsystemd (varlink-and-systemd.md §7.1): finds the listening
/// socket the manager passed, validates it and unsets the variables so children do not
/// inherit them.
///
/// The fds are 3…3+`$LISTEN_FDS`−1, meant for us only when `$LISTEN_PID` is our PID. The one
/// named `varlink` in `$LISTEN_FDNAMES` is ours; a single fd is taken whatever its name
/// (`systemd-socket-activate` without `--fdname`). It must be an `AF_UNIX` stream socket that
/// is listening. Every passed fd gets `FD_CLOEXEC`.
public enum SocketActivation {
    public static let firstDescriptor: Int32 = 3

    public enum Outcome: Sendable, Equatable {
        /// Not activated (no variables, or they were meant for another process): bind the path.
        case notActivated
        /// The validated listening fd.
        case socket(Int32)
    }

    public struct ActivationError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads and unsets `$LISTEN_PID`, `$LISTEN_FDS` and `$LISTEN_FDNAMES`. Call it before any
    /// other thread starts: glibc's unsetenv is not safe against a concurrent getenv.
    ///
    /// - Throws: ``ActivationError`` when the variables are for this process but malformed,
    ///   or the chosen fd is not a listening `AF_UNIX` stream socket.
    public static func take(
        environment: [String: String],
        pid: Int32? = nil
    ) throws(ActivationError) -> Outcome {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let listenPID = environment["LISTEN_PID"] else { return .notActivated }
        guard listenPID == String(pid ?? getpid()) else { return .notActivated }
        guard let text = environment["LISTEN_FDS"], let count = Int32(text), count >= 1, count < 1024 else {
            throw ActivationError(description: "LISTEN_FDS=\(environment["LISTEN_FDS"] ?? "") is not a count of fds")
        }
        for fd in firstDescriptor..<(firstDescriptor + count) {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        let names = environment["LISTEN_FDNAMES"].map {
            $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        }
        let fd: Int32
        if let names, let index = names.firstIndex(of: "varlink"), index < Int(count) {
            fd = firstDescriptor + Int32(index)
        } else if count == 1 {
            fd = firstDescriptor
        } else {
            throw ActivationError(
                description:
                    "\(count) fds passed and none is named varlink (LISTEN_FDNAMES=\(environment["LISTEN_FDNAMES"] ?? ""))"
            )
        }
        try validate(fd)
        return .socket(fd)
    }

    /// Checks that `fd` is an `AF_UNIX` `SOCK_STREAM` socket in the listening state.
    public static func validate(_ fd: Int32) throws(ActivationError) {
        func option(_ name: Int32) throws(ActivationError) -> Int32 {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 else {
                throw ActivationError(description: "fd \(fd) is not a socket: \(String(cString: strerror(errno)))")
            }
            return value
        }
        guard try option(SO_TYPE) == Int32(SOCK_STREAM.rawValue) else {
            throw ActivationError(description: "fd \(fd) is not a stream socket")
        }
        guard try option(SO_DOMAIN) == AF_UNIX else {
            throw ActivationError(description: "fd \(fd) is not an AF_UNIX socket")
        }
        guard try option(SO_ACCEPTCONN) != 0 else {
            throw ActivationError(description: "fd \(fd) is not listening")
        }
    }
}

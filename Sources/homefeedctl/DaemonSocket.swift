import CommandTable
import Foundation
import Varlink

/// The socket a daemon command talks to, and how it was chosen.
///
/// In order: `--socket PATH`, `--user` (the per-user daemon's socket in `$XDG_RUNTIME_DIR`),
/// `--system`, `$HOMEFEED_SOCKET`; else the per-user socket when it exists (a user who runs
/// their own homefeed means that one), else the system socket. The choice is said on every
/// failure to connect, so "not running" never hides which daemon was asked.
struct DaemonSocket: Equatable, CustomStringConvertible {
    /// The system daemon's socket (`systemd/homefeed.socket`).
    static let systemSocket = "/run/homefeed/homefeed.sock"
    /// The per-user daemon's socket (`systemd/user/homefeed.socket`: `%t/homefeed/homefeed.sock`).
    static let userSocketPattern = "$XDG_RUNTIME_DIR/homefeed/homefeed.sock"

    var path: String
    /// How the path was chosen, for people: "the system socket; …".
    var origin: String?

    /// The path and how it was chosen: `/run/homefeed/homefeed.sock (the system socket, --system)`.
    var description: String { origin.map { "\(path) (\($0))" } ?? path }

    init(path: String, origin: String?) {
        self.path = path
        self.origin = origin
    }

    /// Chooses from the command's options and the environment.
    ///
    /// - Parameter socketExists: whether a socket file is at a path (the file system by default).
    /// - Throws: a usage error for more than one of `--socket`, `--user` and `--system`, for
    ///   `--user` without `$XDG_RUNTIME_DIR`, or for a path longer than the 107 bytes of
    ///   `sun_path` (found here, before connecting, naming where the path came from).
    init(
        _ arguments: ParsedArguments,
        environment: [String: String],
        socketExists: (String) -> Bool = DaemonSocket.socketExists
    ) throws(UsageError) {
        let explicit = arguments.string("--socket")
        let given = [explicit != nil, arguments.has("--user"), arguments.has("--system")].filter { $0 }.count
        guard given <= 1 else { throw UsageError("--socket, --user and --system each choose the socket: give one") }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let user = runtime.map { $0 + "/homefeed/homefeed.sock" }
        // The path, how it was chosen, and the name a usage error gives its source.
        let choice: (path: String, origin: String?, source: String)
        if let explicit {
            choice = (explicit, nil, "--socket")
        } else if arguments.has("--user") {
            guard let user else {
                throw UsageError("--user: $XDG_RUNTIME_DIR is not set, so there is no per-user socket")
            }
            choice = (user, "your per-user socket, --user", "--user: \(Self.userSocketPattern)")
        } else if arguments.has("--system") {
            choice = (Self.systemSocket, "the system socket, --system", "--system")
        } else if let variable = environment["HOMEFEED_SOCKET"], !variable.isEmpty {
            choice = (variable, "from $HOMEFEED_SOCKET", "$HOMEFEED_SOCKET")
        } else if let user, socketExists(user) {
            choice = (user, "your per-user socket; --system for the system one", Self.userSocketPattern)
        } else {
            let origin =
                user.map { "the system socket; no per-user socket at \($0)" }
                ?? "the system socket; $XDG_RUNTIME_DIR is not set"
            choice = (Self.systemSocket, origin, "the system socket")
        }
        try Self.checkLength(Self.address(of: choice.path), from: choice.source)
        self.init(path: choice.path, origin: choice.origin)
    }

    /// The Varlink address of the socket: `unix:PATH` (the path as given when it already is one).
    var address: String { Self.address(of: path) }

    private static func address(of path: String) -> String {
        path.hasPrefix("unix:") ? path : "unix:" + path
    }

    /// A usage error naming `source` when `address` is longer than `sun_path` holds.
    private static func checkLength(_ address: String, from source: String) throws(UsageError) {
        do throws(SystemError) {
            _ = try UnixAddress(parsing: address)
        } catch {
            // Another fault (an empty address) is the connection's to report, as before.
            guard error.errno == ENAMETOOLONG else { return }
            throw UsageError("\(source): longer than the \(UnixAddress.maxLength) bytes a Unix socket path may have")
        }
    }

    /// Whether `path` is a socket file (`stat`, following links as `connect` does).
    static func socketExists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }
}

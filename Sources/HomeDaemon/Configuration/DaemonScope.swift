import CommandTable
import FoundationEssentials
public import Glibc

/// Whose home screen a daemon serves: the device's (a system service, `/etc`, `/var`, `/run`)
/// or one user's (a systemd user service, or a run by hand in a login session).
///
/// A daemon is per user when it runs as a user other than root and `$XDG_RUNTIME_DIR` is set:
/// a user manager and a login session set it, the system manager does not (the system unit
/// runs as `homefeedd` without it), and root by hand keeps the system defaults. Only the
/// defaults depend on the scope; flags and systemd's `$STATE_DIRECTORY`, `$CACHE_DIRECTORY`
/// and `$RUNTIME_DIRECTORY` win in both.
public enum DaemonScope: Sendable, Equatable {
    case system
    case user

    public init(environment: [String: String], userID: uid_t) {
        let runtime = environment["XDG_RUNTIME_DIR"] ?? ""
        self = userID != 0 && runtime.hasPrefix("/") ? .user : .system
    }

    /// Where the daemon's files go when neither flags nor systemd say. A per-user directory
    /// whose XDG variable and `$HOME` are both unset has none (nil): only a daemon that needs
    /// it, given no flag for it, fails.
    struct Defaults: Equatable {
        var config: String
        var state: String?
        var cache: String?
        var socket: String
    }

    /// The system paths, or the user's XDG base directories (XDG Base Directory
    /// Specification: a variable that is unset, empty or relative is ignored for its default
    /// under `$HOME`). The user's configuration is `$XDG_CONFIG_HOME/homefeed` when that
    /// directory exists, else the system's `/etc/homefeed`, so a user starts with the shipped
    /// sample and copies it to make their own.
    func defaults(
        environment: [String: String],
        directoryExists: (String) -> Bool = DaemonScope.directoryExists
    ) -> Defaults {
        let system = Defaults(
            config: Self.systemConfig,
            state: "/var/lib/homefeed",
            cache: "/var/cache/homefeed",
            socket: Self.systemSocket
        )
        guard self == .user else { return system }
        func base(_ variable: String, _ fallback: String) -> String? {
            if let value = environment[variable], value.hasPrefix("/") { return value + "/homefeed" }
            guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
            return home + "/" + fallback + "/homefeed"
        }
        let config = base("XDG_CONFIG_HOME", ".config")
        return Defaults(
            // No user directory to look for: the system's, as when it does not exist.
            config: config.map { directoryExists($0) ? $0 : Self.systemConfig } ?? Self.systemConfig,
            state: base("XDG_STATE_HOME", ".local/state"),
            cache: base("XDG_CACHE_HOME", ".cache"),
            socket: Self.userSocket(runtimeDirectory: environment["XDG_RUNTIME_DIR"] ?? "")
        )
    }

    public static let systemConfig = "/etc/homefeed"
    /// The system socket (`systemd/homefeed.socket`).
    public static let systemSocket = "/run/homefeed/homefeed.sock"

    /// The per-user socket in `runtimeDirectory` (`$XDG_RUNTIME_DIR`, the user unit's `%t`).
    public static func userSocket(runtimeDirectory: String) -> String {
        runtimeDirectory + "/homefeed/homefeed.sock"
    }

    static func directoryExists(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }
}

public import Foundation

/// `homefeedd`'s command line and environment, resolved to paths (weakest first: built-in
/// defaults, systemd's directory variables, flags).
public struct DaemonOptions: Sendable, Equatable {
    public var configDirectory: URL
    public var stateDirectory: URL
    public var cacheDirectory: URL
    public var socketPath: String
    public var logLevel: Logger.Level
    public var checkConfig: Bool
    /// `--no-fetch`: serve what the store holds without polling (tests, `make run` variants).
    public var fetching: Bool
    /// `$CREDENTIALS_DIRECTORY` (`LoadCredential=`/`SetCredential=`): secrets for authenticated
    /// feeds, one file per credential. Never taken from the command line, where every user
    /// could read them in /proc; nil outside systemd.
    public var credentialsDirectory: URL?

    public static let usage = """
        usage: homefeedd [--config DIR] [--socket PATH] [--state-dir DIR] [--cache-dir DIR]
                         [--log-level LEVEL] [--no-fetch]
               homefeedd --check-config [--config DIR]

        Builds the home screen from the feeds and links of DIR (default /etc/homefeed), lays it out
        for each configured profile and serves the manifests over Varlink (interface io.homefeed).

          --config DIR       homefeedd.conf, layout.json and sources.opml (default /etc/homefeed)
          --socket PATH      listen here (default $RUNTIME_DIRECTORY/homefeed.sock, else
                             /run/homefeed/homefeed.sock)
          --state-dir DIR    the SQLite database (default $STATE_DIRECTORY, else /var/lib/homefeed)
          --cache-dir DIR    caches (default $CACHE_DIRECTORY, else /var/cache/homefeed)
          --log-level LEVEL  error, warning, notice, info (default) or debug
          --no-fetch         serve stored content only; never poll sources
          --check-config     validate the configuration, print the verdict and exit (0 ok, 1 invalid)

        Secrets (feed tokens) come only from $CREDENTIALS_DIRECTORY, set by systemd's
        LoadCredential=; never from flags. Under systemd the daemon speaks sd_notify
        ($NOTIFY_SOCKET, $WATCHDOG_USEC) and adopts the socket passed as fd 3 ($LISTEN_FDS).

        Example:
          homefeedd --config feeds --state-dir /tmp/hf/state --socket /tmp/hf/homefeed.sock
        """

    /// - Throws: a message for the usage error (exit status 2).
    public init(arguments: [String], environment: [String: String]) throws(ConfigError) {
        func firstPath(_ variable: String) -> String? {
            // systemd passes several directories colon-separated; the first is ours.
            guard let value = environment[variable], !value.isEmpty else { return nil }
            return value.split(separator: ":").first.map(String.init)
        }
        var config = "/etc/homefeed"
        var state = firstPath("STATE_DIRECTORY") ?? "/var/lib/homefeed"
        var cache = firstPath("CACHE_DIRECTORY") ?? "/var/cache/homefeed"
        var socket = firstPath("RUNTIME_DIRECTORY").map { $0 + "/homefeed.sock" } ?? "/run/homefeed/homefeed.sock"
        var level = Logger.Level.info
        var check = false
        var fetching = true
        var index = 0
        func value(_ flag: String) throws(ConfigError) -> String {
            index += 1
            guard index < arguments.count, !arguments[index].isEmpty else {
                throw ConfigError(file: "homefeedd", key: flag, reason: "needs a value")
            }
            return arguments[index]
        }
        while index < arguments.count {
            let flag = arguments[index]
            switch flag {
            case "--config": config = try value(flag)
            case "--state-dir": state = try value(flag)
            case "--cache-dir": cache = try value(flag)
            case "--socket": socket = try value(flag)
            case "--log-level":
                let name = try value(flag)
                guard let parsed = Logger.Level(name: name) else {
                    throw ConfigError(
                        file: "homefeedd",
                        key: flag,
                        reason: "expected error, warning, notice, info or debug, got \"\(name)\""
                    )
                }
                level = parsed
            case "--check-config": check = true
            case "--no-fetch": fetching = false
            default: throw ConfigError(file: "homefeedd", key: flag, reason: "unknown option")
            }
            index += 1
        }
        guard socket.utf8.count <= 107 else {
            throw ConfigError(
                file: "homefeedd",
                key: "--socket",
                reason: "longer than the 107 bytes a Unix socket path may have"
            )
        }
        configDirectory = URL(fileURLWithPath: config, isDirectory: true)
        stateDirectory = URL(fileURLWithPath: state, isDirectory: true)
        cacheDirectory = URL(fileURLWithPath: cache, isDirectory: true)
        socketPath = socket
        logLevel = level
        checkConfig = check
        self.fetching = fetching
        credentialsDirectory = environment["CREDENTIALS_DIRECTORY"].flatMap { value in
            value.hasPrefix("/") ? URL(fileURLWithPath: value, isDirectory: true) : nil
        }
    }

    /// The secrets for authenticated sources (`credential` attributes in the sources list).
    public var credentials: CredentialStore { CredentialStore(directory: credentialsDirectory) }
}

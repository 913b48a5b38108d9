public import CommandTable
public import FoundationEssentials
public import Glibc
import HomefeedVersion
public import LogCore

/// `homefeedd`'s command line and environment, resolved to paths (weakest first: built-in
/// defaults of its ``DaemonScope``, systemd's directory variables, flags).
public struct DaemonOptions: Sendable, Equatable {
    /// Whose daemon this is: the device's (system) or one user's, which picks the defaults.
    public var scope: DaemonScope
    public var configDirectory: URL
    public var stateDirectory: URL
    public var cacheDirectory: URL
    public var socketPath: String
    public var logLevel: LogLevel
    public var checkConfig: Bool
    /// `--no-fetch`: serve what the store holds without polling (tests, `make run` variants).
    public var fetching: Bool
    /// `$CREDENTIALS_DIRECTORY` (`LoadCredential=`/`SetCredential=`): secrets for authenticated
    /// feeds, one file per credential. Never taken from the command line, where every user
    /// could read them in /proc; nil outside systemd.
    public var credentialsDirectory: URL?

    /// `homefeedd`'s command line: its options, help and usage, and how it is parsed.
    public static let command = Command(
        "homefeedd",
        abstract: "build the home screen from feeds and serve its layout manifests over Varlink",
        discussion: """
            Builds the home screen from the feeds and links of the configuration directory, lays it out \
            for each configured profile and serves the manifests over Varlink (interface io.homefeed). \
            With --check-config it validates the configuration, prints the verdict and exits.

            Secrets (feed tokens) come only from $CREDENTIALS_DIRECTORY, set by systemd's \
            LoadCredential=; never from flags. Under systemd the daemon speaks sd_notify \
            ($NOTIFY_SOCKET, $WATCHDOG_USEC) and adopts the socket passed as fd 3 ($LISTEN_FDS).

            Run by a user other than root with $XDG_RUNTIME_DIR set (a login session, or the \
            systemd user service), its defaults are that user's XDG base directories, and a socket \
            it binds itself is 0600: only the user's own processes may connect.
            """,
        version: homefeedVersion,
        options: [
            .value(
                "--config",
                "DIR",
                .directory,
                help: "homefeedd.conf, layout.json and sources.opml (default /etc/homefeed; "
                    + "per user $XDG_CONFIG_HOME/homefeed when it exists)"
            ),
            .value(
                "--socket",
                "PATH",
                .file,
                help: "listen here (default $RUNTIME_DIRECTORY/homefeed.sock, else /run/homefeed/homefeed.sock; "
                    + "per user $XDG_RUNTIME_DIR/homefeed/homefeed.sock)"
            ),
            .value(
                "--state-dir",
                "DIR",
                .directory,
                help: "the SQLite database (default $STATE_DIRECTORY, else /var/lib/homefeed; "
                    + "per user $XDG_STATE_HOME/homefeed)"
            ),
            .value(
                "--cache-dir",
                "DIR",
                .directory,
                help: "caches (default $CACHE_DIRECTORY, else /var/cache/homefeed; per user $XDG_CACHE_HOME/homefeed)"
            ),
            .value(
                "--log-level",
                "LEVEL",
                .choice(levelNames),
                help: levelNames.dropLast().map { $0 == "info" ? "info (default)" : $0 }.joined(separator: ", ")
                    + " or \(levelNames.last ?? "")"
            ),
            .flag("--no-fetch", help: "serve stored content only; never poll sources"),
            .flag("--check-config", help: "validate the configuration, print the verdict and exit"),
        ],
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.ok, "stopped cleanly (SIGTERM), or a valid configuration (--check-config)"),
            ExitStatusMeaning(ExitStatus.failure, "an invalid configuration, or it cannot start or listen"),
            ExitStatusMeaning(ExitStatus.usage, "usage error: an unknown option, a missing or malformed value"),
            ExitStatusMeaning(ExitStatus.outputFailed, "--help or --version cannot be written"),
        ],
        examples: [
            "homefeedd --config feeds --state-dir /tmp/hf/state --socket /tmp/hf/homefeed.sock",
            "homefeedd --check-config --config /etc/homefeed",
        ]
    )

    /// The levels `--log-level` takes (``Logger/thresholds``).
    static let levelNames = Logger.thresholds.map { "\($0)" }

    /// Parses and resolves a command line (no `--help` or `--version` here: see ``command``).
    ///
    /// - Throws: the usage error, reported with ``command``'s usage (exit status 64).
    public init(arguments: [String], environment: [String: String], userID: uid_t = getuid()) throws(UsageError) {
        try self.init(Self.command.parse(arguments), environment: environment, userID: userID)
    }

    /// Resolves parsed options against the environment and the user running the daemon.
    ///
    /// - Throws: a usage error for a socket path too long for `sun_path`, or for a per-user
    ///   daemon given no flag for a directory whose XDG default cannot be found (no `$HOME`).
    public init(_ arguments: ParsedArguments, environment: [String: String], userID: uid_t = getuid())
        throws(UsageError)
    {
        func firstPath(_ variable: String) -> String? {
            // systemd passes several directories colon-separated; the first is ours.
            guard let value = environment[variable], !value.isEmpty else { return nil }
            return value.split(separator: ":").first.map(String.init)
        }
        let scope = DaemonScope(environment: environment, userID: userID)
        let defaults = scope.defaults(environment: environment)
        /// The flag's value, else systemd's variable's, else the default, which a per-user
        /// daemon lacks when `$HOME` is unset: an error only then.
        func directory(_ flag: String, _ variable: String?, _ fallback: String?) throws(UsageError) -> String {
            if let value = arguments.string(flag) ?? variable.flatMap(firstPath) ?? fallback { return value }
            throw UsageError("\(flag): needed, since its per-user default is under $HOME, which is unset")
        }
        let config = arguments.string("--config") ?? defaults.config
        let state = try directory("--state-dir", "STATE_DIRECTORY", defaults.state)
        let cache = try directory("--cache-dir", "CACHE_DIRECTORY", defaults.cache)
        let socket: String
        let socketOrigin: String
        if let flag = arguments.string("--socket") {
            (socket, socketOrigin) = (flag, "--socket")
        } else if let runtime = firstPath("RUNTIME_DIRECTORY") {
            (socket, socketOrigin) = (runtime + "/homefeed.sock", "$RUNTIME_DIRECTORY/homefeed.sock")
        } else {
            (socket, socketOrigin) = (defaults.socket, "the socket path \(defaults.socket)")
        }
        // A choice of ``levelNames``, checked while parsing.
        let level = arguments.string("--log-level").flatMap(Logger.threshold(named:)) ?? .info
        guard socket.utf8.count <= 107 else {
            throw UsageError("\(socketOrigin): longer than the 107 bytes a Unix socket path may have")
        }
        self.scope = scope
        configDirectory = URL(fileURLWithPath: config, isDirectory: true)
        stateDirectory = URL(fileURLWithPath: state, isDirectory: true)
        cacheDirectory = URL(fileURLWithPath: cache, isDirectory: true)
        socketPath = socket
        logLevel = level
        checkConfig = arguments.has("--check-config")
        fetching = !arguments.has("--no-fetch")
        credentialsDirectory = environment["CREDENTIALS_DIRECTORY"].flatMap { value in
            value.hasPrefix("/") ? URL(fileURLWithPath: value, isDirectory: true) : nil
        }
    }

    /// The secrets for authenticated sources (`credential` attributes in the sources list).
    public var credentials: CredentialStore { CredentialStore(directory: credentialsDirectory) }
}

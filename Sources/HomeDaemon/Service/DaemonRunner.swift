import CommandTable
import FoundationEssentials
import Glibc
import HomeFeeds
import HomeFetch
import HomeLayout
import HomefeedVersion
public import TextMeasure
import Varlink

/// Runs the daemon for a set of options: check or load the configuration, open the store,
/// serve, fetch, and handle signals until SIGTERM or SIGINT.
public struct DaemonRunner: Sendable {
    public let options: DaemonOptions

    public init(options: DaemonOptions) {
        self.options = options
    }

    /// - Returns: the process exit status.
    public func run() async -> Int32 {
        let logger = Logger(label: "homefeedd", level: options.logLevel)
        let environment = ProcessInfo.processInfo.environment
        let notifier = SystemdNotifier(environment: environment)
        // First, before any thread starts: taking the socket unsets `$LISTEN_*`, and glibc's
        // unsetenv is not safe against a getenv on another thread (fontconfig's and Pango's,
        // once the text measurer starts). `--check-config` serves nothing and takes nothing.
        let activation: SocketActivation.Outcome
        do throws(SocketActivation.ActivationError) {
            activation = options.checkConfig ? .notActivated : try SocketActivation.take(environment: environment)
        } catch {
            logger.error("socket activation: \(error)")
            notifier.status("Socket activation failed: \(error)")
            return 1
        }
        // Before most threads exist: arenas they would make are capped (MemoryRelief).
        MemoryRelief.tuneAllocator()
        // libxml2's process-wide state (deny-all entity loader) before any thread parses.
        FeedParser.prepare()
        // Handlers first: SIGHUP's default action kills, and one may come before READY=1. SIGTERM
        // and SIGINT stop the start itself (StartupStop); the others wait for the serving loop.
        let startup = StartupStop(notifier: notifier, logger: logger)
        let signals = startup.relay(SignalEvents.stream())
        let textMeasurer = options.checkConfig ? TextMeasurer() : Self.startTextMeasurer(options)
        let configuration: LoadedConfiguration
        do throws(ConfigError) {
            configuration = try await LoadedConfiguration.load(
                directory: options.configDirectory,
                credentials: options.credentials,
                scope: options.scope
            )
        } catch {
            logger.error("invalid configuration: \(error)")
            notifier.status("Invalid configuration: \(error)")
            return 1
        }
        if options.checkConfig {
            // Fonts fontconfig does not have are warnings, not errors: the text is measured in
            // what it substitutes.
            let file = options.configDirectory.appendingPathComponent(LoadedConfiguration.settingsFile).path
            for warning in await HomeService.textStyleWarnings(configuration.settings, measurer: textMeasurer) {
                StandardStream.error.write("warning: \(file): \(warning)\n")
            }
            let profiles = configuration.settings.profiles.map(\.name).joined(separator: ", ")
            let verdict =
                "\(options.configDirectory.path): ok (\(configuration.spec.sections.count) sections, "
                + "\(configuration.sources.sources.count) sources, profiles \(profiles))\n"
            return StandardStream.print(verdict, tool: "homefeedd")
        }
        do {
            for directory in [options.stateDirectory, options.cacheDirectory] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
        } catch {
            logger.error("cannot create directories: \(Self.describe(error))")
            return 1
        }

        let startService = { () async throws -> HomeService in
            try await HomeService(
                configuration: configuration,
                stateDirectory: options.stateDirectory,
                cacheDirectory: options.cacheDirectory,
                logger: logger,
                textMeasurer: textMeasurer,
                storeOpeningStop: startup.storeOpening
            )
        }
        let service: HomeService
        do {
            // SQLite's full integrity_check (and a REINDEX) reads the whole store: on a large file
            // on an SD card, longer than the unit's start timeout, which would kill every start
            // with the check still due. More time is asked for until the service has started.
            if IntegrityCheckMarker(besideStoreAt: HomeService.storePath(in: options.stateDirectory)).isPresent {
                service = try await StartTimeoutExtension.during(
                    send: {
                        startup.whileStarting {
                            notifier.extendTimeout(
                                seconds: StartTimeoutExtension.grant,
                                status: "Checking the whole store (integrity_check)"
                            )
                        }
                    },
                    startService
                )
            } else {
                service = try await startService()
            }
        } catch {
            if startup.isStopped {
                logger.notice("stopped before the start had finished")
                return 0
            }
            logger.error("cannot start: \(error)")
            notifier.status("Cannot start: \(error)")
            HomeService.startFailed(error, stateDirectory: options.stateDirectory, logger: logger)
            return 1
        }
        guard startup.finishStarting() else {
            await service.stop()
            logger.notice("stopped before the start had finished")
            return 0
        }
        let manager = ServiceManager(notifier: notifier, service: service, logger: logger)
        let interface = HomefeedInterface(service: service, reload: { try await manager.reload(reason: "Reload()") })
        await manager.countSubscribers { await interface.subscriberCount }
        // Taken before the socket is served, so no version made meanwhile is missed.
        let versions = await service.versions()
        let server: VarlinkServer
        do throws(SystemError) {
            server = try makeServer(interface, configuration.settings, activation, logger)
        } catch {
            logger.error("cannot listen: \(error)")
            notifier.status("Cannot listen: \(error)")
            await service.stop()
            return 1
        }
        server.start()
        await manager.probeEventLoop { await server.eventLoopTurned() }
        if options.fetching {
            logger.info("fetching with \(FeedFetcher.libraryVersion)")
            await service.startFetching()
        }
        let version = await service.version
        logger.notice(
            "serving version \(version) on \(server.boundAddress?.description ?? "the socket passed by systemd")"
        )
        await manager.ready()
        // One task follows the versions: each new one goes to the GetManifest subscribers, then
        // to STATUS=. It ends when the service stops (the stream ends with the publisher).
        let following = Task {
            for await _ in versions {
                await interface.pushCurrentVersion()
                await manager.updateStatus()
            }
        }
        // Health checks run with or without the watchdog; they ping only when it is on.
        let watchdogInterval = ServiceManager.watchdogInterval(environment: environment)
        let watchdog = Task {
            await manager.runHealthChecks(
                every: watchdogInterval ?? Self.healthCheckInterval,
                pinging: watchdogInterval != nil
            )
        }

        // The store's retention pass (docs/storage.md): at the start (a daemon that was off for
        // long prunes at once), then hourly.
        let retention = Task {
            var wait = Self.firstRetentionDelay
            while (try? await Task.sleep(for: wait)) != nil {
                await service.applyRetention()
                wait = Self.retentionInterval
            }
        }

        for await signal in signals {
            if signal == SIGHUP {
                logger.notice("SIGHUP: reloading the configuration")
                _ = try? await manager.reload(reason: "SIGHUP")
                continue
            }
            logger.notice("signal \(signal): stopping")
            await manager.stopping(signal == SIGTERM ? "SIGTERM" : "SIGINT")
            break
        }
        watchdog.cancel()
        await watchdog.value
        retention.cancel()
        await retention.value
        await interface.finishSubscriptions()
        await server.shutdown()
        await service.stop()
        await following.value
        logger.notice("stopped")
        return 0
    }

    /// The daemon's text measurer, its fontconfig caches under `--cache-dir`, already loading
    /// fontconfig, Pango and the fonts of the configured `[text]` styles on its own queue: they
    /// load while the configuration and the store are read, so the first version's text is
    /// measured without waiting for them. The styles come from a first, quick read of
    /// `homefeedd.conf` (none when it has none, or does not read: the full load reports that).
    public static func startTextMeasurer(_ options: DaemonOptions) -> TextMeasurer {
        let measurer = TextMeasurer(
            configuration: TextMeasurer.Configuration(
                cacheDirectory: options.cacheDirectory.appendingPathComponent("fontconfig").path
            )
        )
        let styles = DaemonSettings.textStyles(in: options.configDirectory)
        if !styles.isEmpty { measurer.warmUp(styles) }
        return measurer
    }

    /// A file system error as the system's message and the path: FoundationEssentials has no
    /// `localizedDescription` (the daemon does not load Foundation, issue 17).
    static func describe(_ error: any Error) -> String {
        guard let error = error as? CocoaError else { return "\(error)" }
        let reason =
            (error.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)) } ?? "\(error.code)"
        guard let path = error.filePath else { return reason }
        return "\(path): \(reason)"
    }

    /// How often the store is checked when no watchdog asks for pings.
    static let healthCheckInterval: Duration = .seconds(30)
    static let firstRetentionDelay: Duration = .zero
    static let retentionInterval: Duration = .seconds(3_600)

    /// Listens on the socket systemd passed (validated by ``SocketActivation``) when there is one
    /// for this process, else binds `--socket` itself (the Varlink library removes a stale
    /// socket file and refuses when another daemon answers there).
    private func makeServer(
        _ interface: HomefeedInterface,
        _ settings: DaemonSettings,
        _ activation: SocketActivation.Outcome,
        _ logger: Logger
    ) throws(SystemError) -> VarlinkServer {
        let service = interface.varlinkService(version: homefeedVersion)
        var configuration = VarlinkServerConfiguration()
        configuration.maxConnections = settings.maxConnections
        configuration.maxConnectionsPerUID = settings.maxConnectionsPerUID
        configuration.reservedConnections = settings.reservedConnections
        configuration.maxStreamingCalls = settings.maxSubscriptions
        configuration.maxStreamingCallsPerUID = settings.maxSubscriptionsPerUID
        configuration.streamingLimitError = HomefeedInterface.tooManySubscriptions
        configuration.maxMessageSize = settings.maxMessageBytes
        configuration.idleTimeout = .milliseconds(Int(settings.idleTimeout * 1000))
        let varlinkLogger = logger.child("varlink").handler
        if case .socket(let fd) = activation {
            return try VarlinkServer(
                adopting: fd,
                service: service,
                configuration: configuration,
                privilegedPeers: interface.privilegedPeers,
                logger: varlinkLogger
            )
        }
        if options.scope == .user {
            // Only the user's own processes: the socket 0600 in a directory of the user's alone
            // ($XDG_RUNTIME_DIR/homefeed, as the user unit's DirectoryMode=0700 makes it).
            configuration.socketMode = 0o600
            let directory = URL(fileURLWithPath: options.socketPath).deletingLastPathComponent().path
            if mkdir(directory, 0o700) != 0, errno != EEXIST {
                throw SystemError(call: "mkdir", errno: errno, path: directory)
            }
        }
        return try VarlinkServer(
            binding: .path(options.socketPath),
            service: service,
            configuration: configuration,
            privilegedPeers: interface.privilegedPeers,
            logger: varlinkLogger
        )
    }
}

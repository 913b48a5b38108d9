import Foundation
import HomeFetch
import HomeLayout
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
        let configuration: LoadedConfiguration
        do throws(ConfigError) {
            configuration = try await LoadedConfiguration.load(directory: options.configDirectory)
        } catch {
            logger.error("invalid configuration: \(error)")
            return 1
        }
        if options.checkConfig {
            let profiles = configuration.settings.profiles.map(\.name).joined(separator: ", ")
            let verdict =
                "\(options.configDirectory.path): ok (\(configuration.spec.sections.count) sections, "
                + "\(configuration.sources.sources.count) sources, profiles \(profiles))\n"
            FileHandle.standardOutput.write(Data(verdict.utf8))
            return 0
        }
        do {
            for directory in [options.stateDirectory, options.cacheDirectory] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
        } catch {
            logger.error("cannot create directories: \(error.localizedDescription)")
            return 1
        }

        let service: HomeService
        do {
            service = try await HomeService(
                configuration: configuration,
                stateDirectory: options.stateDirectory,
                logger: logger
            )
        } catch {
            logger.error("cannot start: \(error)")
            return 1
        }
        let interface = HomefeedInterface(service: service, clientGroup: configuration.settings.clientGroup)
        await interface.connect()
        let server: VarlinkServer
        do throws(SystemError) {
            server = try makeServer(interface.varlinkService(version: Self.version), configuration.settings, logger)
        } catch {
            logger.error("cannot listen: \(error)")
            await service.stop()
            return 1
        }
        server.start()
        if options.fetching { await service.startFetching() }
        let version = await service.version
        logger.notice(
            "serving version \(version) on \(server.boundAddress?.description ?? "the socket passed by systemd")"
        )

        for await signal in SignalEvents.stream() {
            if signal == SIGHUP {
                logger.notice("SIGHUP: reloading the configuration")
                _ = try? await service.reload()
                continue
            }
            logger.notice("signal \(signal): stopping")
            break
        }
        await server.shutdown()
        await service.stop()
        logger.notice("stopped")
        return 0
    }

    public static let version = "0.1.0"

    /// Listens on the socket systemd passed (`$LISTEN_FDS`, fd 3) when there is one for this
    /// process, else binds `--socket` itself.
    private func makeServer(
        _ service: VarlinkService,
        _ settings: DaemonSettings,
        _ logger: Logger
    ) throws(SystemError) -> VarlinkServer {
        var configuration = VarlinkServerConfiguration()
        configuration.maxConnections = settings.maxConnections
        configuration.maxMessageSize = settings.maxMessageBytes
        configuration.idleTimeout = .milliseconds(Int(settings.idleTimeout * 1000))
        let log = logger.child("varlink")
        let varlinkLogger: VarlinkLogger = { level, message in
            log.log(Logger.Level(rawValue: level.rawValue) ?? .info, message())
        }
        let environment = ProcessInfo.processInfo.environment
        if environment["LISTEN_PID"] == String(getpid()), let count = environment["LISTEN_FDS"].flatMap(Int.init),
            count >= 1
        {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
            return try VarlinkServer(adopting: 3, service: service, configuration: configuration, logger: varlinkLogger)
        }
        return try VarlinkServer(
            binding: .path(options.socketPath),
            service: service,
            configuration: configuration,
            logger: varlinkLogger
        )
    }
}

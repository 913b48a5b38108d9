import Foundation
import HomeFetch
import HomeLayout

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
        if options.fetching { await service.startFetching() }
        let version = await service.version
        logger.notice("serving version \(version)")

        for await signal in SignalEvents.stream() {
            if signal == SIGHUP {
                logger.notice("SIGHUP: reloading the configuration")
                _ = try? await service.reload()
                continue
            }
            logger.notice("signal \(signal): stopping")
            break
        }
        await service.stop()
        logger.notice("stopped")
        return 0
    }
}

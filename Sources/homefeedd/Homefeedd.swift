import Foundation
import HomeDaemon

/// `homefeedd`: parse flags, build the daemon, run it until SIGTERM. No logic of its own.
@main
enum Homefeedd {
    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        let options: DaemonOptions
        do throws(ConfigError) {
            options = try DaemonOptions(
                arguments: Array(CommandLine.arguments.dropFirst()),
                environment: ProcessInfo.processInfo.environment
            )
        } catch {
            Logger.standardError("homefeedd: \(error.key ?? ""): \(error.reason)\n\n\(DaemonOptions.usage)")
            exit(2)
        }
        exit(await DaemonRunner(options: options).run())
    }
}

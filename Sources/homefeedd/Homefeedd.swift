import CommandTable
import FoundationEssentials
import Glibc
import HomeDaemon

/// `homefeedd`: parse flags, build the daemon, run it until SIGTERM. No logic of its own.
@main
enum Homefeedd {
    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        let command = DaemonOptions.command
        switch command.resolve(Array(CommandLine.arguments.dropFirst())) {
        case .exit(let status):
            exit(status)
        case .run(let arguments):
            let options: DaemonOptions
            do throws(UsageError) {
                options = try DaemonOptions(arguments, environment: ProcessInfo.processInfo.environment)
            } catch {
                exit(command.reportUsage(error, path: arguments.path))
            }
            exit(await DaemonRunner(options: options).run())
        }
    }
}

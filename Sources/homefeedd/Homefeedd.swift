import CommandTable
import FoundationEssentials
import Glibc
import HomeDaemon
import SystemCalls

/// `homefeedd`: parse flags, build the daemon, run it until SIGTERM. No logic of its own.
@main
enum Homefeedd {
    static func main() async {
        // Before anything opens a descriptor: a log line must never go into a socket or file
        // that took a closed stderr's number (systemd always gives 0-2; a start by hand may not).
        StandardDescriptors.openMissing()
        let command = DaemonOptions.command
        switch command.resolve(Array(CommandLine.arguments.dropFirst())) {
        case .exit(let status):
            exit(status)
        case .run(let arguments):
            // A client that goes away is an EPIPE on its socket, never the end of the daemon. Only
            // here: help and --version printed into a closed pipe end as any program's do.
            signal(SIGPIPE, SIG_IGN)
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

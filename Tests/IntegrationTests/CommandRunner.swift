import Foundation
import TestSupport

/// Runs a built executable of this package (found next to the test bundle) from the package
/// root, its output captured (``ChildProcess/run(_:_:environment:stdin:stdout:directory:)``).
struct CommandRunner {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root, from this file's path (Tests/IntegrationTests/…).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A product of this package, or an absolute path.
    let executable: String

    /// Runs the executable with `environment` added to the test's own; its stdout is collected
    /// unless `stdout` sends it elsewhere (``ChildProcess/run(_:_:environment:stdin:stdout:directory:)``).
    func run(
        _ arguments: [String],
        stdin: Data? = nil,
        stdout: ChildProcess.Stream = .pipe,
        environment: [String: String] = [:]
    ) throws -> Outcome {
        let scratch = try stdin.map { _ in try TemporaryDirectory(prefix: "hf-run") }
        defer { withExtendedLifetime(scratch) {} }  // removed on release
        var input = ChildProcess.Stream.null
        if let stdin, let scratch {
            let path = scratch.url.appendingPathComponent("stdin")
            try stdin.write(to: path)
            input = .file(path.path)
        }
        let completion = try ChildProcess.run(
            executable.hasPrefix("/") ? executable : BuiltProducts.path(executable),
            arguments,
            environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 },
            stdin: input,
            stdout: stdout,
            directory: Self.packageRoot.path
        )
        return Outcome(status: completion.status, stdout: completion.stdoutText, stderr: completion.stderrText)
    }
}

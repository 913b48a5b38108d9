import Foundation
import TestSupport
import Varlink

/// The real `homefeedd` binary on a temporary socket with a copy of the sample configuration.
///
/// Its directory is a `TemporaryDirectory` (directly under /tmp, so the socket path stays far
/// below the 107-byte `sun_path` limit, swift-on-linux.md §6), removed with the harness.
/// `@unchecked Sendable`: the process is only touched by the test that owns the harness.
final class DaemonHarness: @unchecked Sendable {
    private let directory: TemporaryDirectory
    var root: URL { directory.url }
    var configDirectory: URL { root.appendingPathComponent("config") }
    var socketPath: String { root.appendingPathComponent("s.sock").path }
    var logPath: String { root.appendingPathComponent("daemon.log").path }
    private var process: ChildProcess?
    /// The parameters of every `GetManifest` reply ``call(_:_:)`` received, for ``ManifestSchema``.
    private(set) var manifestReplies: [[String: JSONValue]] = []

    init() throws {
        directory = try TemporaryDirectory(prefix: "hfd")
        try FileManager.default.copyItem(
            at: CommandRunner.packageRoot.appendingPathComponent("feeds"),
            to: configDirectory
        )
    }

    deinit {
        // Waits (bounded) for the exit, so no daemon still writes into the directory while it
        // is removed.
        _ = stop(within: 10)
    }

    /// Starts the daemon (with `environment` added to the test's own) and waits (bounded) until
    /// it answers on its socket.
    ///
    /// - Parameter closingInputAndErrors: start it as by hand with `<&- 2>&-`: no stdin and no
    ///   stderr (its log then goes nowhere), stdout still to the log.
    func start(
        _ extra: [String] = ["--no-fetch"],
        environment: [String: String] = [:],
        closingInputAndErrors: Bool = false
    ) throws {
        let process = try ChildProcess(
            BuiltProducts.path("homefeedd"),
            [
                "--config", configDirectory.path, "--state-dir", root.appendingPathComponent("state").path,
                "--cache-dir", root.appendingPathComponent("cache").path, "--socket", socketPath,
            ] + extra,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            stdin: closingInputAndErrors ? .closed : .null,
            stdout: .file(logPath),
            stderr: closingInputAndErrors ? .closed : .inherit,
            stderrToStdout: !closingInputAndErrors
        )
        self.process = process
        for _ in 0..<400 {
            if (try? client()) != nil { return }
            guard process.isRunning else { break }
            usleep(25_000)
        }
        throw HarnessError("homefeedd did not come up: \(self.log())")
    }

    /// Sends SIGTERM and returns the exit status (128 + the signal when a signal ended it).
    @discardableResult
    func stop() -> Int32 {
        guard let process else { return -1 }
        self.process = nil
        process.signal(SIGTERM)
        return process.waitForExit()
    }

    /// Sends SIGTERM and waits at most `seconds` for the exit. Returns the exit status (128 +
    /// the signal when a signal ended it), or nil when the daemon hung: it is then killed.
    func stop(within seconds: Double) -> Int32? {
        guard let process else { return -1 }
        self.process = nil
        process.signal(SIGTERM)
        if let status = process.wait(seconds: seconds) { return status }
        process.signal(SIGKILL)
        _ = process.waitForExit()
        return nil
    }

    /// The running daemon's process id.
    var pid: Int32? { process?.pid }

    /// A line of the daemon's `/proc/<pid>/status` in KiB (`VmHWM`, `VmRSS`).
    func memoryKiB(_ field: String) -> Int? {
        guard let pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            return nil
        }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }

    func client() throws -> VarlinkClient {
        try VarlinkClient(connectingTo: "unix:" + socketPath)
    }

    func call(_ method: String, _ parameters: [String: JSONValue] = [:]) throws -> [String: JSONValue] {
        let client = try client()
        defer { client.close() }
        let reply = try client.call(method, parameters: parameters)
        if method == "io.homefeed.GetManifest" { manifestReplies.append(reply) }
        return reply
    }

    /// The schema violations of the manifests received through ``call(_:_:)`` and of `more`
    /// (replies a test read from its own subscriptions); empty when all are valid.
    func manifestSchemaViolations(_ more: [[String: JSONValue]] = []) throws -> [String] {
        try ManifestSchema.violations(manifestReplies + more)
    }

    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

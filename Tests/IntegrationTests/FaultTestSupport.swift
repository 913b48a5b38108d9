import Foundation
import TestSupport
import Testing
import Varlink

/// Conditions under which the fault tests can run; tests that need them are skipped visibly.
enum Host {
    static var isRoot: Bool { getuid() == 0 }
    static let setpriv = "/usr/bin/setpriv"
    static let python = "/usr/bin/python3"
    static let sqlite3 = "/usr/bin/sqlite3"
    static func has(_ tool: String) -> Bool { FileManager.default.isExecutableFile(atPath: tool) }
    /// Root (to run a client as another user) and util-linux's `setpriv`.
    static var canSwitchUser: Bool { isRoot && has(setpriv) }
}

/// `homefeedd` started on a ``ScratchRoot`` with a chosen environment (`JOURNAL_STREAM`,
/// `NOTIFY_SOCKET`, `WATCHDOG_USEC`), so the log keeps its `<N>` prefixes. `@unchecked
/// Sendable`: owned by one test.
final class FaultDaemon: @unchecked Sendable {
    let root: ScratchRoot
    let socket: String
    private(set) var process: ChildProcess?

    init(root: ScratchRoot) {
        self.root = root
        socket = root.path("s.sock")
    }

    /// Adds `lines` at the top of `[daemon]` in the sample `homefeedd.conf`.
    func configure(_ lines: String) throws {
        let url = root.configDirectory.appendingPathComponent("homefeedd.conf")
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "[daemon]\n", with: "[daemon]\n" + lines).utf8).write(to: url)
    }

    /// Starts the daemon (journal-style log, plus `environment`) and waits, bounded, until it
    /// answers on its socket.
    func start(_ extra: [String] = ["--no-fetch"], environment: [String: String] = [:]) async throws {
        try await offPool { try self.startBlocking(extra, environment: environment) }
    }

    private func startBlocking(_ extra: [String], environment: [String: String]) throws {
        let process = try ChildProcess(
            SystemdTools.homefeedd,
            root.daemonArguments(socket: socket, extra: extra),
            environment: SystemdTools.cleanEnvironment(
                environment.merging(["JOURNAL_STREAM": root.journalStream()]) { a, _ in a }
            ),
            log: root.logPath
        )
        self.process = process
        for _ in 0..<400 {
            if let client = try? VarlinkClient(connectingTo: "unix:" + socket),
                (try? client.call("org.varlink.service.GetInfo")) != nil
            {
                client.close()
                return
            }
            usleep(25_000)
        }
        throw HarnessError("homefeedd did not come up: \(root.log())")
    }

    func call(_ method: String, _ parameters: [String: JSONValue] = [:]) async throws -> [String: JSONValue] {
        let client = try await VarlinkClient.connect(to: .path(socket))
        defer { client.close() }
        return try await client.call(method, parameters: parameters)
    }

    /// The error a call is answered with, or nil when it succeeds.
    func error(_ method: String, _ parameters: [String: JSONValue] = [:]) async throws -> VarlinkError? {
        do {
            _ = try await call(method, parameters)
            return nil
        } catch let error as VarlinkClientError {
            guard case .errorReply(let reply) = error else { throw error }
            return reply
        }
    }

    /// SIGTERM, then the exit status.
    @discardableResult
    func stop() async -> Int32? {
        guard let process else { return nil }
        process.signal(SIGTERM)
        self.process = nil
        return await offPool { process.wait() }
    }

    /// Log lines at `priority` (`<2>`, `<3>` …).
    func logLines(_ priority: Int) -> [String] {
        root.log().split(separator: "\n").map(String.init).filter { $0.hasPrefix("<\(priority)>") }
    }
}

/// A helper program whose stdin the test holds: it runs until the test calls ``finish()``
/// (closing its stdin). Lines it prints are read with ``readLine()``, bounded by a timeout.
/// `@unchecked Sendable`: owned by one test.
final class HelperProcess: @unchecked Sendable {
    private let process: ChildProcess

    init(_ executable: String, _ arguments: [String]) throws {
        process = try ChildProcess(executable, arguments, stdin: .pipe, stdout: .pipe, stderr: .null)
    }

    func write(_ text: String) {
        guard let fd = process.input else { return }
        FileHandle(fileDescriptor: fd, closeOnDealloc: false).write(Data(text.utf8))
    }

    /// The next line the helper prints, or nil after `seconds` without one or at its exit.
    func readLine(seconds: Int32 = 60) -> String? {
        process.readLine(seconds: seconds)
    }

    /// Closes the helper's stdin and waits for it to exit; returns its status.
    @discardableResult
    func finish() -> Int32 {
        process.closeInput()
        return process.waitForExit()
    }
}

/// The sqlite3 CLI holding `BEGIN EXCLUSIVE` on a database until ``release()``: another
/// process's write lock, as a backup tool or an admin's session would hold it.
final class StoreLock: @unchecked Sendable {
    private let helper: HelperProcess

    init(_ path: String) throws {
        helper = try HelperProcess(Host.sqlite3, [path])
        helper.write("BEGIN EXCLUSIVE;\n.print locked\n")
        guard helper.readLine(seconds: 20) == "locked" else { throw HarnessError("sqlite3 could not lock \(path)") }
    }

    func release() {
        helper.write("ROLLBACK;\n")
        helper.finish()
    }
}

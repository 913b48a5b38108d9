import Foundation
import TestSupport
import Varlink

/// A `$NOTIFY_SOCKET` receiver: an `AF_UNIX` datagram socket bound to a path or an abstract
/// name, as PID 1 (or a test harness) would bind it. `@unchecked Sendable`: owned by one test.
final class NotifyReceiver: @unchecked Sendable {
    /// What to put in `$NOTIFY_SOCKET`: the path, or `@name`.
    let socketValue: String
    private let fd: Int32
    private(set) var messages: [String] = []

    /// Binds `path`, or the abstract `name` when `path` is nil.
    init(path: String?, abstractName: String? = nil) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
        let name: [UInt8]
        if let path {
            name = Array(path.utf8) + [0]
            socketValue = path
        } else {
            let abstract = abstractName ?? "hf-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            name = [0] + Array(abstract.utf8)
            socketValue = "@" + abstract
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { raw -> Bool in
            guard name.count <= raw.count else { return false }
            for (index, byte) in name.enumerated() { raw[index] = byte }
            return true
        }
        guard fits else { throw HarnessError("notify address too long") }
        let length = socklen_t(offset + name.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw HarnessError("bind \(socketValue): errno \(errno)") }
    }

    deinit {
        close(fd)
        if !socketValue.hasPrefix("@") { unlink(socketValue) }
    }

    /// The next datagram, or nil after `timeout` milliseconds.
    func receive(timeout: Int32 = 20_000) -> String? {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeout) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        let message = String(decoding: buffer[..<count], as: UTF8.self)
        messages.append(message)
        return message
    }

    /// Receives until a message has `line` as one of its lines; returns that message.
    /// Bounded: nil when nothing arrives for 20 s.
    func await(_ line: String) -> String? {
        while let message = receive() {
            if Self.lines(message).contains(line) { return message }
        }
        return nil
    }

    static func lines(_ message: String) -> [String] {
        message.split(separator: "\n").map(String.init)
    }

    static func value(_ key: String, in message: String) -> String? {
        lines(message).first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }
}

/// A scratch root under /tmp (a `TemporaryDirectory`: short socket paths) with a copy of the
/// sample configuration, removed with the value.
final class ScratchRoot: @unchecked Sendable {
    private let directory: TemporaryDirectory
    var url: URL { directory.url }
    var configDirectory: URL { url.appendingPathComponent("config") }
    var stateDirectory: URL { url.appendingPathComponent("state") }
    var storePath: String { stateDirectory.appendingPathComponent("homefeed.sqlite").path }
    var logPath: String { url.appendingPathComponent("daemon.log").path }

    init() throws {
        directory = try TemporaryDirectory(prefix: "hfs")
        try FileManager.default.copyItem(
            at: CommandRunner.packageRoot.appendingPathComponent("feeds"),
            to: configDirectory
        )
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func daemonArguments(socket: String, extra: [String] = ["--no-fetch"]) -> [String] {
        [
            "--config", configDirectory.path, "--state-dir", stateDirectory.path,
            "--cache-dir", url.appendingPathComponent("cache").path, "--socket", socket,
        ] + extra
    }

    /// `$JOURNAL_STREAM` naming the log file, so the daemon keeps its `<N>` prefixes there as
    /// it does on the journal.
    func journalStream() -> String {
        var info = stat()
        guard stat(logPath, &info) == 0 else { return "" }
        return "\(info.st_dev):\(info.st_ino)"
    }

    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// `PRAGMA integrity_check` with the real sqlite3 tool.
    func integrityCheck() throws -> String {
        let outcome = try CommandRunner(executable: "/usr/bin/sqlite3").run([storePath, "PRAGMA integrity_check;"])
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension ChildProcess {
    /// A daemon or tool a test starts with its stdout and stderr appended to `log` (a scratch
    /// root's log, as the journal would get them) and nothing on its stdin.
    convenience init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String],
        log: String,
        inheriting: Int32? = nil
    ) throws {
        try self.init(
            executable,
            arguments,
            environment: environment,
            stdout: .file(log),
            stderrToStdout: true,
            inheriting: inheriting
        )
    }
}

enum SystemdTools {
    static let socketActivate = "/usr/bin/systemd-socket-activate"
    static var homefeedd: String { BuiltProducts.path("homefeedd") }

    /// The test's environment without anything a service manager would set.
    static func cleanEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] {
            environment[key] = nil
        }
        environment.merge(extra) { $1 }
        return environment
    }

    /// A listening `AF_UNIX` stream socket at `path`, held by the test the way PID 1 holds a
    /// socket unit's: it outlives every daemon started on it. `FD_CLOEXEC`, never fd 3.
    static func listeningSocket(at path: String) throws -> Int32 {
        var fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
        if fd <= 3 {
            let moved = fcntl(fd, F_DUPFD_CLOEXEC, 10)
            close(fd)
            fd = moved
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.prefix(raw.count).enumerated() { raw[index] = byte }
        }
        let length = socklen_t((MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2) + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw HarnessError("bind/listen \(path): errno \(errno)")
        }
        return fd
    }

    /// Waits (bounded) until `path` exists.
    static func waitForFile(_ path: String) -> Bool {
        for _ in 0..<400 {
            if FileManager.default.fileExists(atPath: path) { return true }
            usleep(25_000)
        }
        return false
    }
}

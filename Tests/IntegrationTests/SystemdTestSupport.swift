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

/// A child process spawned with `posix_spawn`, optionally with an inherited fd placed at 3 (the
/// way a service manager passes a listening socket). Output goes to the scratch log. Killed
/// on deinit if the test did not reap it. `@unchecked Sendable`: owned by one test.
final class SpawnedProcess: @unchecked Sendable {
    let pid: pid_t
    private var reaped = false

    /// - Parameters:
    ///   - inheriting: an fd to pass as fd 3 (not 3 itself, and `FD_CLOEXEC` in the parent).
    init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String],
        logPath: String,
        inheriting: Int32?
    )
        throws
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        if let inheriting { posix_spawn_file_actions_adddup2(&actions, inheriting, 3) }
        // Nothing else of the test process leaks into the child: Foundation's Process learns
        // that one of its children exited when a socket it shares with that child closes,
        // which never happens while a daemon spawned here holds a copy (and the test waiting
        // for that exit blocks a cooperative thread for good).
        Self.closeFrom(&actions, inheriting == nil ? 3 : 4)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw HarnessError("posix_spawn \(executable): \(result)") }
        self.pid = pid
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), which Swift's Glibc module
    /// hides behind `_GNU_SOURCE`; looked up at run time.
    private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ fd: Int32) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, fd)
    }

    deinit {
        if !reaped {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    func signal(_ number: Int32) {
        if !reaped { kill(pid, number) }
    }

    /// The exit status (128+N for a signal), or nil if still running after `seconds`.
    func wait(seconds: Int = 30) -> Int32? {
        var status: Int32 = 0
        for _ in 0..<(seconds * 50) {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                reaped = true
                let signal = status & 0x7f
                return signal == 0 ? (status >> 8) & 0xff : 128 + signal
            }
            if result < 0 { return nil }
            usleep(20_000)
        }
        return nil
    }
}

enum SystemdTools {
    static let socketActivate = "/usr/bin/systemd-socket-activate"
    static var homefeedd: String { CommandRunner.productsDirectory.appendingPathComponent("homefeedd").path }

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

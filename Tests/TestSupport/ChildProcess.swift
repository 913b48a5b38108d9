import Foundation
import Glibc
import SystemCalls

/// A child process of a test, started with `posix_spawn` with every descriptor above 2 closed
/// (but one it may be handed as fd 3), and pipes whose test ends are close-on-exec.
///
/// *Why not Foundation's `Process` for a child that lives long* (a fixture server, a daemon, a
/// helper the test feeds): `Process` learns that its child exited when a socket it shares with
/// that child closes. A child that anyone spawns meanwhile (tests run in parallel) inherits
/// that socket, or a pipe the test holds; when that child lives long, the first one's exit is
/// never noticed, `waitUntilExit()` blocks a test for good, and a fixture server whose stdin
/// another child still holds never ends. A child started here holds nothing of the test's.
///
/// Killed and reaped on deinit if the test did not reap it. `@unchecked Sendable`: owned by one
/// test; its state is the child's status, read and set by that test.
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard descriptors goes.
    public enum Stream: Sendable {
        /// The test's own (stderr for diagnostics).
        case inherit
        case null
        /// A pipe whose other end the test keeps (``input`` or ``output``).
        case pipe
        /// A file, appended to.
        case file(String)
    }

    public let pid: Int32
    /// The test's end of the child's stdin, when it is a pipe: closing it is end of input.
    public private(set) var input: Int32?
    /// The test's end of the child's stdout, when it is a pipe.
    public let output: Int32?
    private var status: Int32?

    /// - Parameters:
    ///   - environment: the child's whole environment; nil for the test's own.
    ///   - stderrToStdout: stderr goes where stdout goes (`stderr` is then ignored).
    ///   - inheriting: an fd to hand the child as fd 3 (the way a service manager passes a
    ///     listening socket); not 3 itself.
    public init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        stdin: Stream = .null,
        stdout: Stream = .null,
        stderr: Stream = .inherit,
        stderrToStdout: Bool = false,
        inheriting: Int32? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's ends of the pipes, closed here once it has its copies.
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        var testEnds: [Int32] = []
        func arrange(_ stream: Stream, as target: Int32) throws -> Int32? {
            switch stream {
            case .inherit:
                return nil
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
                return nil
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
                return nil
            case .pipe:
                var ends: [Int32] = [0, 0]
                guard Self.closeOnExecPipe(&ends) else { throw FixtureError("pipe2: errno \(errno)") }
                // [read, write]: the child reads its stdin and writes its stdout.
                let (child, test) = target == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                childEnds.append(child)
                testEnds.append(test)
                posix_spawn_file_actions_adddup2(&actions, child, target)
                return test
            }
        }
        do {
            input = try arrange(stdin, as: 0)
            output = try arrange(stdout, as: 1)
            if stderrToStdout {
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
            } else {
                _ = try arrange(stderr, as: 2)
            }
        } catch {
            for fd in testEnds { close(fd) }
            throw error
        }
        if let inheriting { posix_spawn_file_actions_adddup2(&actions, inheriting, 3) }
        Self.closeFrom(&actions, inheriting == nil ? 3 : 4)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: Int32 = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            for fd in testEnds { close(fd) }
            throw FixtureError("posix_spawn \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    /// `pipe2(O_CLOEXEC)`, which Swift's Glibc module hides behind `_GNU_SOURCE`; looked up at
    /// run time. Close-on-exec from the start: no child spawned meanwhile gets a copy.
    private static func closeOnExecPipe(_ ends: inout [Int32]) -> Bool {
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        guard let symbol = dlsym(nil, "pipe2") else { return false }
        return ends.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { unsafeBitCast(symbol, to: Pipe2.self)($0, O_CLOEXEC) == 0 } ?? false
        }
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), which Swift's Glibc module
    /// hides behind `_GNU_SOURCE`; looked up at run time.
    private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ fd: Int32) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, fd)
    }

    deinit {
        closeInput()
        if let output { close(output) }
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
    }

    /// Ends the child's input (its stdin pipe).
    public func closeInput() {
        if let input { close(input) }
        input = nil
    }

    public func signal(_ number: Int32) {
        if status == nil { kill(pid, number) }
    }

    /// True until the child has exited (and been reaped here).
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// The exit status (128 + N for signal N), or nil if still running after `seconds`.
    public func wait(seconds: Double = 30) -> Int32? {
        for _ in 0..<max(1, Int(seconds * 50)) {
            if let status = reap(blocking: false) { return status }
            usleep(20_000)
        }
        return reap(blocking: false)
    }

    /// Waits for the exit, however long it takes; the status as ``wait(seconds:)`` gives it.
    public func waitForExit() -> Int32 {
        reap(blocking: true) ?? -1
    }

    private func reap(blocking: Bool) -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        let result = retryingEINTR { waitpid(pid, &raw, blocking ? 0 : WNOHANG) }
        // Reaped elsewhere (ECHILD) counts as gone, status unknown.
        if result < 0 {
            status = -1
            return status
        }
        guard result == pid else { return nil }
        let signal = raw & 0x7f
        status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        return status
    }
}

internal import CSystem
import Foundation
import Glibc
public import SystemCalls

/// A child process of a test, started with CSystem's `posix_spawn` wrapper with every
/// descriptor above 2 closed (but one it may be handed as fd 3), and pipes whose test ends are
/// close-on-exec.
///
/// *Why not Foundation's `Process` for a child that lives long* (a fixture server, a daemon, a
/// helper the test feeds): `Process` learns that its child exited when a socket it shares with
/// that child closes. A child that anyone spawns meanwhile (tests run in parallel) inherits
/// that socket, or a pipe the test holds; when that child lives long, the first one's exit is
/// never noticed, `waitUntilExit()` blocks a test for good, and a fixture server whose stdin
/// another child still holds never ends. A child started here holds nothing of the test's.
///
/// *Why not `Process` for a short child either:* on Linux `Process.run()` lists
/// `/proc/self/fd` and copies each entry's whole 256-byte `d_name`, past the end of the record
/// `readdir` returns; where that record ends a page, the copy faults (swift-corelibs-foundation
/// PR #5472, not in Swift 6.3.1). It crashed the test process in CI, and in one run of six here.
/// Every test spawns here.
///
/// Killed and reaped on deinit if the test did not reap it. `@unchecked Sendable`: owned by one
/// test; its state is the child's status, read and set by that test.
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard descriptors goes.
    public enum Stream: Sendable {
        /// The test's own (stderr for diagnostics).
        case inherit
        case null
        /// A pipe whose other end the test keeps (``input``, ``output`` or ``errors``).
        case pipe
        /// A file: read from as stdin, appended to as stdout or stderr.
        case file(String)
        /// No descriptor at all: the child starts with it closed, as after `>&-` in a shell.
        case closed
    }

    public let pid: Int32
    /// The test's end of the child's stdin, when it is a pipe: closing it is end of input.
    public private(set) var input: Int32?
    /// The test's end of the child's stdout, when it is a pipe.
    public let output: Int32?
    /// The test's end of the child's stderr, when it is a pipe.
    public let errors: Int32?
    private var status: Int32?
    /// How the child ended, once reaped here: nil while it runs, or when it was reaped elsewhere.
    public private(set) var termination: ProcessTermination?
    /// What was read from ``output`` past the last line ``readLine(seconds:)`` returned.
    private var buffered: [UInt8] = []

    /// - Parameters:
    ///   - environment: the child's whole environment; nil for the test's own.
    ///   - stderrToStdout: stderr goes where stdout goes (`stderr` is then ignored).
    ///   - inheriting: an fd to hand the child as fd 3 (the way a service manager passes a
    ///     listening socket); not 3 itself.
    ///   - directory: the child's working directory; nil for the test's own.
    public init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        stdin: Stream = .null,
        stdout: Stream = .null,
        stderr: Stream = .inherit,
        stderrToStdout: Bool = false,
        inheriting: Int32? = nil,
        directory: String? = nil
    ) throws {
        // Every descriptor opened here is close-on-exec; CSystem's spawn gives the child its
        // copies as 0, 1, 2 (and 3) and closes the rest. The child's ends close here after.
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        var testEnds: [Int32] = []
        func descriptor(_ stream: Stream, as target: Int32) throws -> (child: Int32, test: Int32?) {
            let fd: Int32
            switch stream {
            case .inherit:
                return (target, nil)
            case .closed:
                return (-1, nil)
            case .null:
                fd = open("/dev/null", O_RDWR | O_CLOEXEC)
            case .file(let path):
                fd =
                    target == 0
                    ? open(path, O_RDONLY | O_CLOEXEC) : open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            case .pipe:
                var ends: [Int32] = [0, 0]
                guard csystem_pipe(&ends) == 0 else { throw FixtureError("pipe2: errno \(errno)") }
                // [read, write]: the child reads its stdin and writes its stdout.
                let (child, test) = target == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                childEnds.append(child)
                testEnds.append(test)
                return (child, test)
            }
            guard fd >= 0 else { throw FixtureError("open for fd \(target): errno \(errno)") }
            childEnds.append(fd)
            return (fd, nil)
        }
        typealias Ends = (child: Int32, test: Int32?)
        let streams: (in: Ends, out: Ends, err: Ends)
        do {
            let input = try descriptor(stdin, as: 0)
            let output = try descriptor(stdout, as: 1)
            streams = (input, output, stderrToStdout ? (output.child, nil) : try descriptor(stderr, as: 2))
        } catch {
            for fd in testEnds { close(fd) }
            throw error
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = csystem_spawn(
            executable,
            argv,
            envp,
            streams.in.child,
            streams.out.child,
            streams.err.child,
            inheriting ?? -1,
            directory,
            &pid
        )
        guard result == 0 else {
            for fd in testEnds { close(fd) }
            let place = directory.map { " in \($0)" } ?? ""
            throw FixtureError("posix_spawn \(executable)\(place): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        input = streams.in.test
        output = streams.out.test
        errors = streams.err.test
    }

    deinit {
        closeInput()
        if let output { close(output) }
        if let errors { close(errors) }
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
    }

    /// What a child run to its exit left: its status (as ``wait(seconds:)`` gives it) and all it
    /// printed on stdout and stderr.
    public struct Completion: Sendable {
        public var status: Int32
        public var stdout: [UInt8]
        public var stderr: [UInt8]

        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `executable` to its exit, its stdout and stderr collected (read together, so a child
    /// that fills one pipe while the test waits on the other does not stall), with no input
    /// beyond `stdin` (a pipe is closed at once).
    ///
    /// Returns once the child has exited and its output pipes are closed: a process it leaves
    /// running with them open holds the call. Blocks its thread until then: call it from a
    /// Dispatch queue, or from a synchronous test that runs a short child.
    ///
    /// - Parameter stdout: where the child's stdout goes; only a pipe is collected
    ///   (`.file("/dev/full")` tries a tool's handling of a failed write).
    public static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        stdin: Stream = .null,
        stdout: Stream = .pipe,
        directory: String? = nil
    ) throws -> Completion {
        let child = try ChildProcess(
            executable,
            arguments,
            environment: environment,
            stdin: stdin,
            stdout: stdout,
            stderr: .pipe,
            directory: directory
        )
        child.closeInput()
        let (stdout, stderr) = child.readToEnd()
        return Completion(status: child.waitForExit(), stdout: stdout, stderr: stderr)
    }

    /// Everything the child prints on its stdout and stderr pipes until it closes them.
    private func readToEnd() -> (stdout: [UInt8], stderr: [UInt8]) {
        var collected: [[UInt8]] = [[], []]
        var open = [output ?? -1, errors ?? -1]
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while open.contains(where: { $0 >= 0 }) {
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard retryingEINTR({ poll(&descriptors, 2, -1) }) > 0 else { break }
            for index in 0..<2 where descriptors[index].revents != 0 {
                let count = retryingEINTR { read(open[index], &chunk, chunk.count) }
                if count > 0 {
                    collected[index] += chunk[..<count]
                } else {
                    open[index] = -1  // closed here on deinit
                }
            }
        }
        return (collected[0], collected[1])
    }

    /// The next line the child prints on its stdout pipe (without the newline), or nil after
    /// `seconds` without one, at its exit, or without a pipe. Blocks: call it off the
    /// cooperative pool.
    public func readLine(seconds: Int32) -> String? {
        guard let output else { return nil }
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard retryingEINTR({ poll(&descriptor, 1, seconds * 1000) }) == 1 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = retryingEINTR { read(output, &chunk, chunk.count) }
            guard count > 0 else { return nil }
            buffered += chunk[..<count]
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
        let ended = ProcessTermination(waitStatus: raw)
        termination = ended
        status = ended.shellStatus
        return status
    }
}

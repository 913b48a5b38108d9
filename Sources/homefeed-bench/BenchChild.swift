import CSystem
import Glibc
import SystemCalls

/// A process the bench starts: a peer (`curl`), a daemon it measures, a busy neighbour, or one
/// of its own benchmarks run apart. Started with CSystem's `posix_spawn` wrapper, in this
/// process group (a Ctrl-C or a `timeout` stops it with the bench), its stdin `/dev/null` and
/// every descriptor above 2 closed.
///
/// Never Foundation's `Process`: on Linux `Process.run()` lists `/proc/self/fd` and copies each
/// entry's whole 256-byte `d_name`, past the end of the record `readdir` returns; where that
/// record ends a page, the copy faults (swift-corelibs-foundation PR #5472, not in Swift 6.3.1).
/// It crashed the test process that way. And its `waitUntilExit()` polls its run loop every
/// 50 ms: a peer timed through it (`curl`) took at least that long, whatever it did.
///
/// The bench waits for every child it starts (``wait()`` or ``terminate()``): nothing here
/// kills or reaps one left behind.
final class BenchChild {
    /// Where the child's stdout or stderr goes.
    enum Output {
        /// The bench's own.
        case inherit
        case null
        /// A pipe the bench reads (``readOutput()``); stdout only.
        case pipe
    }

    let pid: pid_t
    /// The bench's end of the child's stdout pipe.
    private let output: Int32?
    private var termination: ProcessTermination?

    /// Starts `executable`; the bench ends, saying why, when it cannot.
    init(_ executable: String, _ arguments: [String], stdout: Output = .inherit, stderr: Output = .inherit) {
        precondition(stderr != .pipe, "only stdout is read through a pipe")
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        var pipe: [Int32] = [-1, -1]
        if stdout == .pipe, csystem_pipe(&pipe) != 0 { Measure.fatal("pipe: errno \(errno)") }
        defer {
            if null >= 0 { close(null) }
            if pipe[1] >= 0 { close(pipe[1]) }
        }
        guard null >= 0 else { Measure.fatal("/dev/null: errno \(errno)") }
        func descriptor(_ output: Output, inherited: Int32) -> Int32 {
            switch output {
            case .inherit: inherited
            case .null: null
            case .pipe: pipe[1]
            }
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = csystem_spawn(
            executable,
            argv,
            environ,
            null,
            descriptor(stdout, inherited: 1),
            descriptor(stderr, inherited: 2),
            -1,
            nil,
            &pid
        )
        guard result == 0 else {
            if pipe[0] >= 0 { close(pipe[0]) }
            Measure.fatal("cannot run \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        output = pipe[0] >= 0 ? pipe[0] : nil
    }

    deinit {
        if let output { close(output) }
    }

    /// True until the child has ended (and been reaped here).
    var isRunning: Bool { reap(blocking: false) == nil }

    /// Waits for the child to end.
    @discardableResult
    func wait() -> ProcessTermination {
        guard let termination = reap(blocking: true) else { Measure.fatal("waitpid \(pid) failed") }
        return termination
    }

    /// Waits for the child to end; the bench ends, saying `what` ran and how it ended, unless it
    /// exited with status 0.
    func waitForSuccess(_ what: String) {
        let termination = wait()
        guard termination == .exited(0) else { Measure.fatal("\(what) \(termination)") }
    }

    /// Asks the child to end (SIGTERM) and waits for it.
    func terminate() {
        if termination == nil { kill(pid, SIGTERM) }
        wait()
    }

    /// All the child prints on its stdout pipe until it closes it.
    func readOutput() -> [UInt8] {
        guard let output else { return [] }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = retryingEINTR { read(output, &chunk, chunk.count) }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }

    private func reap(blocking: Bool) -> ProcessTermination? {
        if let termination { return termination }
        var status: Int32 = 0
        let result = retryingEINTR { waitpid(pid, &status, blocking ? 0 : WNOHANG) }
        guard result == pid else {
            if result < 0 { Measure.fatal("waitpid \(pid): errno \(errno)") }
            return nil
        }
        termination = ProcessTermination(waitStatus: status)
        return termination
    }
}

import CSystem
import Glibc
import SystemCalls
import ThumbnailProtocol

/// One running `homefeed-thumbnail`: started with a socket pair as its stdin and stdout (so a
/// write to a helper that died is `EPIPE` through `MSG_NOSIGNAL`, never a `SIGPIPE` for the
/// daemon), `/dev/null` as stderr, no other descriptor, and a minimal environment.
///
/// Every call blocks: use it only on a dedicated dispatch queue, never on the cooperative pool
/// (swift-on-linux.md §5.3). Each read waits at most the configured timeout (`poll`); a helper
/// that overruns it is killed with `SIGKILL`.
///
/// Not Sendable: confined to the queue of the ``ThumbnailRenderer`` batch that started it.
final class ThumbnailHelperProcess {
    enum Failure: Error, Equatable {
        case cannotStart(String)
        /// The helper died; the payload says how (`killed by signal 9`, `exited with status 1`).
        case crashed(String)
        /// The helper was ended by a signal that neither its limits nor the daemon send
        /// (``stopSignals``): the service is stopping (systemd signals every process of the
        /// unit) or someone stopped it. Nothing is known about the image it was decoding.
        case stopped(String)
        case timedOut
        case protocolError(String)
    }

    let pid: pid_t
    private let socket: Int32
    private var buffer: [UInt8] = []
    private var isReaped = false
    /// Peak resident set of the helper in KiB: its `VmHWM`, read after each response and
    /// before it exits. (Not `wait4`'s `ru_maxrss`: `posix_spawn` runs the child in the
    /// parent's address space until `exec`, and the kernel counts that space's peak into the
    /// child's.)
    private(set) var peakResidentKiB = 0
    private(set) var hello = ThumbnailHello(vipsVersion: "", limitsApplied: false)
    /// Runs before each `waitpid`, while ``pid`` still names this process (a zombie at worst):
    /// whoever may signal the pid from another thread forgets it here, before the number can
    /// be given to another process.
    var beforeReap: () -> Void = {}

    /// Starts the helper and reads its hello line.
    ///
    /// - Parameter spawned: runs as soon as the process exists, before its hello (which may
    ///   take `timeout`): whoever may kill it meanwhile records it here (and forgets it in
    ///   ``beforeReap``). False kills it at once (its batch was cancelled) and fails the start.
    static func start(
        path: String,
        arguments: [String],
        timeout: Double,
        spawned: (ThumbnailHelperProcess) -> Bool = { _ in true }
    ) -> Result<ThumbnailHelperProcess, Failure> {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | csystem_sock_cloexec(), 0, &pair) == 0 else {
            return .failure(.cannotStart("socketpair: \(String(cString: strerror(errno)))"))
        }
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if devNull >= 0 { close(devNull) } }
        var pid: pid_t = 0
        let argv = [path] + arguments
        let environment = ["PATH=/usr/bin:/bin"]
        let status = withCStrings(argv) { cArguments in
            withCStrings(environment) { cEnvironment in
                csystem_spawn(
                    path,
                    cArguments,
                    cEnvironment,
                    pair[1],
                    pair[1],
                    devNull >= 0 ? devNull : pair[1],
                    -1,
                    nil,
                    &pid
                )
            }
        }
        close(pair[1])
        guard status == 0 else {
            close(pair[0])
            return .failure(.cannotStart("\(path): \(String(cString: strerror(status)))"))
        }
        let helper = ThumbnailHelperProcess(pid: pid, socket: pair[0])
        guard spawned(helper) else {
            helper.kill()
            return .failure(.cannotStart("cancelled before its hello"))
        }
        switch helper.readLine(timeout: timeout) {
        case .failure(let failure):
            helper.kill()
            return .failure(failure == .timedOut ? .cannotStart("no hello within \(timeout) s") : failure)
        case .success(let line):
            do throws(ThumbnailProtocolError) {
                let hello = try ThumbnailHello(line: line)
                guard hello.protocolVersion == ThumbnailProtocol.version else {
                    helper.kill()
                    return .failure(.cannotStart("speaks \(hello.protocolVersion), not \(ThumbnailProtocol.version)"))
                }
                helper.hello = hello
                return .success(helper)
            } catch {
                helper.kill()
                return .failure(.cannotStart(error.description))
            }
        }
    }

    private init(pid: pid_t, socket: Int32) {
        self.pid = pid
        self.socket = socket
    }

    deinit {
        if !isReaped { kill() }
        close(socket)
    }

    /// Sends one request and waits for its response.
    func render(_ request: ThumbnailRequest, timeout: Double) -> Result<ThumbnailResponse, Failure> {
        guard send(request.line) else { return .failure(death()) }
        switch readLine(timeout: timeout) {
        case .failure(let failure):
            if failure == .timedOut { kill() }
            return .failure(failure == .timedOut ? .timedOut : failure)
        case .success(let line):
            do throws(ThumbnailProtocolError) {
                let response = try ThumbnailResponse(line: line)
                notePeak()
                guard response.id == request.id else {
                    kill()
                    return .failure(.protocolError("answered request \(response.id), not \(request.id)"))
                }
                return .success(response)
            } catch {
                kill()
                return .failure(.protocolError(error.description))
            }
        }
    }

    /// Ends the batch: closes the helper's input and waits (at most `timeout`) for it to exit.
    func finish(timeout: Double) {
        guard !isReaped else { return }
        notePeak()
        shutdown(socket, Int32(SHUT_WR))
        let deadline = Self.now() + timeout
        while Self.now() < deadline {
            if reap(blocking: false) { return }
            usleep(10_000)
        }
        kill()
    }

    /// `SIGKILL`, then reaps the process.
    func kill() {
        guard !isReaped else { return }
        Glibc.kill(pid, SIGKILL)
        _ = reap(blocking: true)
    }

    /// Reads the helper's `VmHWM` (its peak resident set so far) from `/proc`.
    private func notePeak() {
        guard let status = try? readProcStatus() else { return }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let value = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
            peakResidentKiB = max(peakResidentKiB, value.flatMap { Int($0) } ?? 0)
        }
    }

    private func readProcStatus() throws -> String {
        let fd = open("/proc/\(pid)/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileCallError(call: "open", path: "/proc/\(pid)/status", code: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = retryingEINTR { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - I/O

    private func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let sent = retryingEINTR {
                    Glibc.send(socket, base + offset, raw.count - offset, csystem_msg_nosignal())
                }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// The next line, without its `\n`.
    private func readLine(timeout: Double) -> Result<[UInt8], Failure> {
        let deadline = Self.now() + timeout
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                return .success(line)
            }
            guard buffer.count <= ThumbnailProtocol.maxLineBytes else {
                kill()
                return .failure(.protocolError("a line longer than \(ThumbnailProtocol.maxLineBytes) bytes"))
            }
            guard deadline - Self.now() > 0 else { return .failure(.timedOut) }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            // The timeout is measured again on each try, so a signal does not extend it.
            let ready = retryingEINTR {
                poll(&descriptor, 1, Int32(min(max(deadline - Self.now(), 0) * 1000, 60_000).rounded(.up)))
            }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 16 << 10)
            let count = retryingEINTR { chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) } }
            if count < 0, errno == EAGAIN { continue }
            guard count > 0 else { return .failure(death()) }
            buffer += chunk[0..<count]
        }
    }

    /// How the helper ended, once its output closed.
    private func death() -> Failure {
        if !isReaped { _ = reap(blocking: true) }
        if case .signalled(let signal) = termination, Self.stopSignals.contains(signal) {
            return .stopped(exitDescription)
        }
        return .crashed(exitDescription)
    }

    /// Signals that stop a process from outside: a decoder's fault ends it with `SIGSEGV`,
    /// `SIGABRT` or `SIGBUS`, its limits with `SIGXCPU` or `SIGKILL`.
    static let stopSignals: Set<Int32> = [SIGTERM, SIGINT, SIGHUP, SIGQUIT]

    private var termination = ProcessTermination.exited(0)
    private var exitDescription: String {
        switch termination {
        case .signalled(SIGXCPU): "\(termination) (CPU limit)"
        case .signalled(SIGKILL): "\(termination) (killed)"
        default: termination.description
        }
    }

    /// `waitpid`; true once the process is gone.
    private func reap(blocking: Bool) -> Bool {
        beforeReap()
        var status: Int32 = 0
        let result = retryingEINTR { waitpid(pid, &status, blocking ? 0 : WNOHANG) }
        if result == 0 { return false }
        isReaped = true
        termination = ProcessTermination(waitStatus: status)
        return true
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Calls `body` with a NULL-terminated array of C strings.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}

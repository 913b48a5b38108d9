import Foundation
import Testing

@testable import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// When the event loop polls before it sleeps (``IdleSpin``): only while calls come back to
/// back, and only while polling brings them sooner than sleeping does.
@Suite struct IdleSpinTests {
    /// A loop that has just taken the first of a run of back-to-back calls.
    private func calling() -> IdleSpin {
        var spin = IdleSpin()
        spin.noteWait(events: 1, waited: 5_000)
        return spin
    }

    /// `count` waits, each ending with one event after `gap` ns.
    private func calls(_ spin: inout IdleSpin, _ count: Int, gap: UInt64) {
        for _ in 0..<count { spin.noteWait(events: 1, waited: gap) }
    }

    @Test("a loop that has only slept, timed out or woken late never spins")
    func sparseNeverSpins() {
        var spin = IdleSpin()
        #expect(!spin.isArmed)
        spin.noteWait(events: 1, waited: 2_000_000_000)
        #expect(!spin.isArmed)
        spin.noteWait(events: 0, waited: 1_000)
        #expect(!spin.isArmed, "a timer's wake-up is not a call")
        spin.noteWait(events: 1, waited: IdleSpin.denseGap)
        #expect(!spin.isArmed)
        spin.noteWait(events: 1, waited: IdleSpin.denseGap - 1)
        #expect(spin.isArmed)
        spin.noteWait(events: 1, waited: 10_000_000)
        #expect(!spin.isArmed, "a pause in the calls ends the spinning at once")
    }

    @Test("back-to-back calls make it spin, and it goes on spinning while that brings them sooner")
    func spinsWhileItHelps() {
        var spin = calling()
        // Spinning: calls 6 µs apart.
        calls(&spin, IdleSpin.stretch - 1, gap: 6_000)
        #expect(spin.isArmed)
        calls(&spin, 1, gap: 6_000)
        // The trial of sleeping: calls 9 µs apart.
        var armed: [Bool] = []
        for _ in 0..<IdleSpin.trial {
            armed.append(spin.isArmed)
            spin.noteWait(events: 1, waited: 9_000)
        }
        #expect(armed.allSatisfy { !$0 }, "a trial of sleeping does not spin")
        #expect(spin.isArmed, "sleeping brought the calls later")
        calls(&spin, IdleSpin.stretch - 1, gap: 6_000)
        #expect(spin.isArmed)
    }

    @Test("when sleeping brings calls sooner (a busy machine) it stops spinning, and spins again when that changes")
    func stopsWhileSleepingIsFaster() {
        var spin = calling()
        calls(&spin, IdleSpin.stretch, gap: 4_000)
        calls(&spin, IdleSpin.trial, gap: 2_500)
        #expect(!spin.isArmed, "sleeping won the trial")
        calls(&spin, IdleSpin.stretch - 1, gap: 2_500)
        #expect(!spin.isArmed)
        // The machine goes quiet: sleeping now costs a wake-up from idle.
        calls(&spin, 1, gap: 9_000)
        #expect(spin.isArmed, "the trial of spinning")
        calls(&spin, IdleSpin.trial, gap: 9_000)
        #expect(!spin.isArmed, "spinning was no sooner than the stretch's mean (2.5 µs, one 9 µs)")
        calls(&spin, IdleSpin.stretch, gap: 9_000)
        #expect(spin.isArmed, "the next trial of spinning")
        calls(&spin, IdleSpin.trial, gap: 6_000)
        #expect(spin.isArmed, "spinning won it")
        calls(&spin, IdleSpin.stretch - 1, gap: 6_000)
        #expect(spin.isArmed)
    }

    @Test("a gap counts up to the dense limit, so one stall does not decide a trial")
    func stallsAreCapped() {
        var spin = calling()
        calls(&spin, IdleSpin.stretch, gap: 30_000)
        // The trial of sleeping: 62 calls 5 µs apart, one a second late, which ends the run
        // of calls (the next wait is the first of a new run, not a sample), and one more.
        calls(&spin, IdleSpin.trial - 2, gap: 5_000)
        calls(&spin, 1, gap: 1_000_000_000)
        #expect(!spin.isArmed)
        calls(&spin, 1, gap: 5_000)
        calls(&spin, 1, gap: 5_000)
        // (63 × 5 µs + 50 µs) / 64 = 5.7 µs, sooner than 30 µs; uncapped it would be 15.6 ms.
        #expect(!spin.isArmed, "sleeping won")
    }

    @Test("a trial of sleeping on a machine slow to wake (gaps past the dense limit) still ends, and spinning wins")
    func slowWakeTrialEnds() {
        var spin = calling()
        calls(&spin, IdleSpin.stretch, gap: 6_000)
        // Sleeping: 60 µs a call, past the dense limit, so no wait of the trial spins.
        calls(&spin, IdleSpin.trial, gap: 60_000)
        #expect(!spin.isArmed)
        calls(&spin, 1, gap: 6_000)
        #expect(spin.isArmed, "the trial ended and spinning won")
    }

    @Test("a wait that only looked (pushes in the lane) is no sample, and the wait after it does not spin")
    func pollsAreNoSamples() {
        var spin = calling()
        calls(&spin, IdleSpin.stretch - 1, gap: 6_000)
        #expect(spin.isArmed)
        for _ in 0..<10 { spin.notePoll() }
        #expect(!spin.isArmed)
        // The first wait after the polls starts a run; the one after it is the stretch's last sample.
        calls(&spin, 1, gap: 6_000)
        #expect(spin.isArmed)
        calls(&spin, 1, gap: 6_000)
        #expect(!spin.isArmed, "the trial of sleeping")
    }
}

/// The spin on a running loop: it ends when the calls do.
@Suite("Idle spin on a loop", .timeLimit(.minutes(1)))
struct IdleSpinLoopTests {
    /// Echoes each byte it reads, on the loop thread: a call answered inline.
    private final class ByteEcho: EventLoopHandler, @unchecked Sendable {
        let fd: Int32
        init(fd: Int32) { self.fd = fd }

        func handleEvents(_ events: UInt32) {
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) == 1 { _ = send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) }
        }
    }

    @Test("after back-to-back calls, an idle loop sleeps: its thread spends no CPU")
    func sleepsWhenCallsStop() async throws {
        let loop = try EventLoop(name: "spin")
        loop.start()
        let pair = try SocketPair()
        let echo = ByteEcho(fd: pair.writer)
        let fd = pair.writer
        loop.submit { _ = loop.setInterest(fd, token: loop.register(echo), from: 0, to: EventLoop.readable) }
        // Enough round trips for a stretch and a trial, so the loop has spun and measured.
        var byte: UInt8 = 7
        for round in 0..<(2 * (IdleSpin.stretch + IdleSpin.trial)) {
            #expect(send(pair.reader, &byte, 1, 0) == 1)
            #expect(recv(pair.reader, &byte, 1, 0) == 1, "round \(round)")
        }
        let thread = try #require(threadCPUNanoseconds(named: "varlink-spin"))
        try await Task.sleep(for: .milliseconds(300))
        let idle = try #require(threadCPUNanoseconds(named: "varlink-spin")) - thread
        // A spin that did not end would take the whole 300 ms.
        #expect(idle < 30_000_000, "the idle loop thread ran \(idle / 1_000) µs in 300 ms")
        await loop.stop()
    }

    /// The CPU time of this process's thread named `name` (ns, `/proc/self/task/*/schedstat`).
    private func threadCPUNanoseconds(named name: String) -> UInt64? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
        for task in tasks {
            let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            guard comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8),
                let first = stat.split(separator: " ").first
            else { continue }
            return UInt64(first)
        }
        return nil
    }
}

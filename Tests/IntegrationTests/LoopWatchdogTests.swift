import Foundation
import LogCore
import Synchronization
import TestSupport
import Testing

@testable import HomeDaemon

/// The watchdog covers the Varlink event loop: a loop that does not turn stops the pings, as a
/// failing store does (homefeedd(8), "Watchdog").
@Suite(.timeLimit(.minutes(1)))
struct LoopWatchdogTests {
    /// A loop probe that answers only once opened, as a wedged loop thread that comes back.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func pass() async {
            await withCheckedContinuation { continuation in
                let open = state.withLock { state -> Bool in
                    if !state.open { state.waiters.append(continuation) }
                    return state.open
                }
                if open { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    @Test("no ping while the event loop does not turn; the pings resume when it does")
    func wedgedLoopStopsPings() async throws {
        let sample = try SampleConfiguration(prefix: "hf-loop")
        let log = LogRecorder()
        let service = try await HomeService(
            configuration: try await LoadedConfiguration.load(directory: sample.configDirectory),
            stateDirectory: sample.stateDirectory,
            logger: Logger(label: "test", level: .error, sink: { _ in })
        )
        let directory = try TemporaryDirectory(prefix: "hf-notify")
        let receiver = try NotifyReceiver(path: directory.path + "/notify")
        let manager = ServiceManager(
            notifier: SystemdNotifier(socket: receiver.socketValue),
            service: service,
            logger: Logger(label: "test", level: .notice, sink: log.sink)
        )
        let gate = Gate()
        await manager.probeEventLoop { await gate.pass() }
        let checks = Task { await manager.runHealthChecks(every: .milliseconds(200), pinging: true) }

        // The first tick finds the loop wedged; the store answers all along.
        #expect(await logged("<3>", "event loop has not run a job", in: log), "\(log.lines)")
        // Five more ticks (a second of them, until a second passes without a message): no ping.
        let during = await offPool { () -> [String] in
            var messages: [String] = []
            while messages.count < 10, let message = receiver.receive(timeout: 1_000) { messages.append(message) }
            return messages
        }
        #expect(!during.contains { NotifyReceiver.lines($0).contains("WATCHDOG=1") }, "pinged: \(during)")

        gate.open()
        let resumed = await offPool { receiver.await("WATCHDOG=1") }
        #expect(resumed != nil, "no ping once the loop turned: \(log.lines)")
        #expect(await logged("<5>", "event loop turns again", in: log))
        checks.cancel()
        await checks.value
        await service.stop()
    }

    /// Whether a line with `prefix` containing `text` is logged within 20 s.
    private func logged(_ prefix: String, _ text: String, in log: LogRecorder) async -> Bool {
        for _ in 0..<200 {
            if log.lines.contains(where: { $0.hasPrefix(prefix) && $0.contains(text) }) { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}

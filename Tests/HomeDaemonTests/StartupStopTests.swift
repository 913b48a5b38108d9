import Glibc
import HomeStore
import LogCore
import Synchronization
import Testing

@testable import HomeDaemon

/// SIGTERM while the daemon starts (``StartupStop``): the start stops, and nothing of it is
/// sent to the service manager after `STOPPING=1`.
@Suite(.timeLimit(.minutes(1)))
struct StartupStopTests {
    @Test("start-up messages go out while starting, and none after a SIGTERM stopped the start")
    func noStartMessagesAfterStop() async {
        let startup = StartupStop(notifier: SystemdNotifier(socket: nil), logger: Logger(label: "test", sink: { _ in }))
        let (signals, deliver) = AsyncStream.makeStream(of: Int32.self)
        var relayed = startup.relay(signals).makeAsyncIterator()
        let sent = Mutex(0)
        startup.whileStarting { sent.withLock { $0 += 1 } }
        #expect(sent.withLock { $0 } == 1)

        // SIGHUP is relayed to the serving loop; SIGTERM stops the start and is not.
        deliver.yield(SIGHUP)
        deliver.yield(SIGTERM)
        deliver.finish()
        #expect(await relayed.next() == SIGHUP)
        #expect(await relayed.next() == nil)
        #expect(startup.isStopped)
        #expect(startup.storeOpening.isRequested)
        startup.whileStarting { sent.withLock { $0 += 1 } }
        #expect(sent.withLock { $0 } == 1, "an EXTEND_TIMEOUT_USEC after STOPPING=1")
        #expect(!startup.finishStarting())
    }
}

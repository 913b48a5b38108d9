import Synchronization
import Testing

@testable import Varlink

/// The small per-connection and per-loop tables of the server's hot path.
@Suite("Loop state")
struct LoopStateTests {
    private final class Handler: EventLoopHandler {
        func handleEvents(_ events: UInt32) {}
    }

    @Test("a removed handler's token finds nothing, even once its slot is reused")
    func handlerTable() {
        var table = HandlerTable(firstToken: 2)
        let first = Handler()
        let second = Handler()
        let third = Handler()
        let a = table.insert(first)
        let b = table.insert(second)
        #expect(a != b && a >= 2 && b >= 2)
        #expect(table[a] === first && table[b] === second)
        #expect(table[0] == nil && table[1] == nil)  // the loop's own tokens
        table.remove(a)
        #expect(table[a] == nil)
        let c = table.insert(third)  // reuses a's slot with the next generation
        #expect(c != a)
        #expect(table[a] == nil && table[c] === third && table[b] === second)
        table.remove(a)  // stale: removes nothing
        #expect(table[c] === third)
        table.removeAll()
        #expect(table[b] == nil && table[c] == nil)
    }

    @Test("the timer heap drops what it is told to and still pops in deadline order")
    func heapCompaction() {
        var heap = DeadlineHeap()
        var fired: [UInt64] = []
        for deadline: UInt64 in [50, 10, 40, 20, 30, 60, 5] {
            heap.schedule(at: deadline, token: deadline % 20 == 0 ? deadline : nil) {}
        }
        heap.removeAll { $0.token != nil }  // 20, 40 and 60
        #expect(heap.count == 4)
        while let entry = heap.popDue(now: .max) { fired.append(entry.deadline) }
        #expect(fired == [5, 10, 30, 50])
    }

    @Test("the timers of closed connections are dropped once they outnumber the live ones")
    func deadTimersDropped() throws {
        // Review finding: a client connecting and closing in a loop left one idle timer a
        // connection in the heap until the idle timeout (up to 30 days) passed.
        let loop = try EventLoop(name: "timer-test")  // not started: this thread is its only one
        let live = Handler()
        let liveToken = loop.register(live)
        loop.schedule(at: .max, for: liveToken)
        for _ in 0..<10_000 {
            let token = loop.register(Handler())
            loop.schedule(at: .max, for: token)
            loop.unregister(token)
        }
        #expect(loop.pendingTimers <= EventLoop.timerCompactionFloor + 4 * 2)
        #expect(loop.pendingTimers >= 1)
    }

    @Test("a crowd of malformed clients is logged one line per 5 s, with the count between")
    func protocolErrorsThrottled() {
        // Review finding: a client sending "x\0" in a loop wrote 358 112 lines in 25 s.
        var configuration = VarlinkServerConfiguration()
        configuration.clock = .manual()
        let lines = Mutex<[String]>([])
        let context = ServerContext(
            service: makeTestService(hub: Hub()),
            configuration: configuration,
            privilegedPeers: { _ in false },
            logger: { _, message in lines.withLock { $0.append(message()) } }
        )
        let peer = VarlinkPeer(pid: 42, uid: 1000, gid: 1000)
        for _ in 0..<5 { context.logProtocolError(.notAnObject, peer: peer) }
        configuration.clock.advance(by: .seconds(5))
        context.logProtocolError(.missingMethod, peer: peer)
        #expect(
            lines.withLock { $0 } == [
                "dropping client \(peer): message is not a JSON object",
                "dropping client \(peer): call without a string \"method\" (and 4 more dropped before)",
            ]
        )
    }
}

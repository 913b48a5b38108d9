import Dispatch
import Synchronization
import Testing

@testable import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// ``VarlinkReplySink/sendingTogether(_:)``: what a task hands a loop inside it waits, in order,
/// for the loop's one wake-up at the end.
@Suite("Sending together", .timeLimit(.minutes(1)))
struct WakeBatchTests {
    @Test("work handed to a sleeping loop inside sendingTogether runs after it, in order")
    func handedOverTogether() async throws {
        let loop = try EventLoop(name: "batch-test")
        loop.start()
        let ran = Mutex<[Int]>([])
        let seenInside = VarlinkReplySink.sendingTogether { () -> [Int] in
            for n in 0..<3 { loop.submit { ran.withLock { $0.append(n) } } }
            // Nothing else can wake this loop: were it woken by the first submit, it would
            // run all three well within this pause.
            usleep(50_000)
            return ran.withLock { $0 }
        }
        #expect(seenInside.isEmpty)
        while ran.withLock({ $0.count }) < 3 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ran.withLock { $0 } == [0, 1, 2])
        // Outside a batch the loop is woken at once again.
        loop.submit { ran.withLock { $0.append(3) } }
        while ran.withLock({ $0.count }) < 4 { try await Task.sleep(for: .milliseconds(5)) }
        await loop.stop()
    }

    @Test("streaming replies sent to a sleeping loop inside sendingTogether leave after it, in order")
    func streamingRepliesWaitForTheBatch() async throws {
        let loop = try EventLoop(name: "batch-stream")
        loop.start()
        let (sink, clientFD) = try streamingConnection(on: loop)
        defer { close(clientFD) }
        // From this task, not the loop: the pushes take the inbox's push list, the final reply
        // its items.
        let arrivedInside = try VarlinkReplySink.sendingTogether { () throws -> Int in
            #expect(sendNumbered(4, to: sink) == [true, true, true, true])
            // Were the loop woken by the first send, it would write all four in this pause.
            usleep(50_000)
            var buffer = [UInt8](repeating: 0, count: 4096)
            return max(0, recv(clientFD, &buffer, buffer.count, Int32(MSG_DONTWAIT)))
        }
        #expect(arrivedInside == 0)
        let expected = numberedReplies(4)
        #expect(try await receive(expected.count, from: clientFD) == expected)
        await loop.stop()
    }

    @Test("a batch returns its body's value, and one that throws still wakes what it owed")
    func throwingBody() async throws {
        struct Failure: Error {}
        let loop = try EventLoop(name: "batch-throw")
        loop.start()
        let ran = Atomic<Bool>(false)
        #expect(throws: Failure.self) {
            try VarlinkReplySink.sendingTogether {
                loop.submit { ran.store(true, ordering: .releasing) }
                throw Failure()
            }
        }
        while !ran.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(VarlinkReplySink.sendingTogether { 42 } == 42)
        await loop.stop()
    }

    @Test("a stopped loop keeps its fds until it is freed, so a late wake-up never reaches a reused fd")
    func fdsOutliveTheThread() async throws {
        for startsThread in [true, false] {
            let loop = try EventLoop(name: "fd-lifetime")
            if startsThread { loop.start() }
            await loop.stop()
            #expect(fcntl(loop.wakeFD, F_GETFD) != -1, "eventfd open after stop (started: \(startsThread))")
            #expect(fcntl(loop.epollFD, F_GETFD) != -1, "epoll fd open after stop (started: \(startsThread))")
            // What a thread that found it running would still do: harmless now.
            loop.signalWake()
            let ran = Atomic<Bool>(false)
            loop.submit { ran.store(true, ordering: .releasing) }
            while !ran.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test("a task started inside a batch that submits after it has ended wakes the loop itself")
    func inheritedAfterTheEnd() async throws {
        let loop = try EventLoop(name: "batch-inherit")
        loop.start()
        let ran = Recorder()
        let submitLater = DispatchSemaphore(value: 0)
        let task = VarlinkReplySink.sendingTogether {
            Task {
                // The batch is inherited, and over by the time this submits.
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().async {
                        submitLater.wait()
                        continuation.resume()
                    }
                }
                loop.submit { ran.append(1) }
            }
        }
        submitLater.signal()
        await task.value
        // And the loop is still woken by the next submit from outside any batch.
        loop.submit { ran.append(2) }
        while ran.values.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ran.values == [1, 2])
        await loop.stop()
    }

    /// What the loop ran, in order, from any thread.
    final class Recorder: Sendable {
        private let list = Mutex<[Int]>([])
        var values: [Int] { list.withLock { $0 } }
        func append(_ value: Int) { list.withLock { $0.append(value) } }
    }
}

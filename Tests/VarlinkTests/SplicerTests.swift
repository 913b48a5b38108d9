import CSystem
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// Pushes written from a kernel pipe by reference (``PipedReply``, ``Splicer``), over real
/// pipes and sockets. The splicing cases run on a thread of their own, which the splicer adopts
/// (blocking SIGPIPE there) as an event loop's thread does.
@Suite("Splicing pushes")
struct SplicerTests {
    @Test("only pushes of a page up to 1 MiB get a pipe; final replies and errors never do")
    func whichRepliesArePiped() {
        #expect(PipedReply.forPush(byteCount: 4095) == nil)
        #expect(PipedReply.forPush(byteCount: 4096) != nil)
        #expect(PipedReply.forPush(byteCount: 1 << 20) != nil)
        #expect(PipedReply.forPush(byteCount: (1 << 20) + 1) == nil)
        let blob = JSONValue.string(String(repeating: "x", count: 8000))
        #expect(VarlinkReply(parameters: ["b": blob], continues: true).framed().piped != nil)
        #expect(VarlinkReply(parameters: ["b": blob]).framed().piped == nil)
        #expect(VarlinkReply(parameters: ["b": "small"], continues: true).framed().piped == nil)
        #expect(VarlinkReply(error: VarlinkError("org.example.Big", parameters: ["b": blob])).framed().piped == nil)
        // How the bytes would be written is not part of the reply's value.
        #expect(
            VarlinkReply(parameters: ["b": blob], continues: true).framed()
                == VarlinkReply(parameters: ["b": blob], continues: true).framed()
        )
    }

    @Test("the pipe is made when a second connection writes the reply, sized to its copies, and serves every later one")
    func pipeOnSecondConnection() throws {
        let bytes = payload(10_000, seed: 1)
        let budget = PipeBudget(maximumPipes: 4, maximumBytes: 1 << 20)
        let piped = try #require(PipedReply.forPush(byteCount: bytes.count, budget: budget))
        #expect(piped.source(holding: bytes, for: 10) == nil)
        // The first connection again (its socket was full): still no pipe.
        #expect(piped.source(holding: bytes, for: 10) == nil)
        #expect(budget.livePipes == 0)
        let source = try #require(piped.source(holding: bytes, for: 11))
        withExtendedLifetime(piped) {
            #expect(piped.source(holding: bytes, for: 12) == source)
            #expect(piped.source(holding: bytes, for: 10) == source)
            #expect(budget.livePipes == 1)
            // Thirteen copies of 10 000 bytes, rounded up to a power of two pages: 32 of 4 KiB.
            #expect(source.copies == 13 && source.copies == PipedReply.copies(of: bytes.count))
            #expect(pipeCapacity(source.fd, holding: 0) == pipeSize(holding: source.copies * bytes.count))
        }
    }

    /// The sizes a ``PipedReply`` asked for, refused above `limit` as the user's pipe limits
    /// refuse them (they do not apply to root, whom the tests run as).
    final class LimitedPipes: Sendable {
        let limit: Int
        let asked = Mutex<[Int]>([])

        init(limit: Int) {
            self.limit = limit
        }

        func size(_ fd: Int32, _ bytes: Int32) -> Int32 {
            asked.withLock { $0.append(Int(bytes)) }
            return Int(bytes) > limit ? -1 : csystem_pipe_capacity(fd, bytes)
        }
    }

    @Test(
        "where the user's pipe limits refuse room for the copies, the pipe holds one copy, sized to it, and every socket gets it whole"
    )
    func oneCopyPastPipeLimits() async throws {
        let bytes = payload(10_000, seed: 6)
        let budget = PipeBudget(maximumPipes: 4, maximumBytes: 1 << 20)
        let limits = LimitedPipes(limit: bytes.count)
        let piped = try #require(PipedReply.forPush(byteCount: bytes.count, budget: budget, sizePipe: limits.size))
        _ = piped.source(holding: bytes, for: 1)
        let source = try #require(piped.source(holding: bytes, for: 2))
        // Thirteen copies asked first, refused; then one.
        #expect(limits.asked.withLock { $0 } == [PipedReply.copies(of: bytes.count) * bytes.count, bytes.count])
        #expect(source.copies == 1)
        #expect(pipeCapacity(source.fd, holding: 0) == pipeSize(holding: bytes.count))
        #expect(budget.livePipes == 1)
        let received = try await onAdoptedThread { splicer in
            let pairs = try (0..<5).map { _ in try SocketPair() }
            let fds = pairs.map(\.writer)
            let fanOut = fds.withUnsafeBufferPointer { splicer.fanOut(bytes.count, from: source, to: $0) }
            return (fanOut, pairs.map { $0.readAvailable() })
        }
        #expect(received.0 == Splicer.FanOut(written: 5, stop: nil))
        #expect(received.1.allSatisfy { $0 == bytes })
        withExtendedLifetime(piped) {}
    }

    @Test("where the user's pipe limits refuse even one copy's room, no pipe is kept or charged: the push is copied")
    func copiedPastPipeLimits() throws {
        let bytes = payload(10_000, seed: 7)
        let budget = PipeBudget(maximumPipes: 4, maximumBytes: 1 << 20)
        let limits = LimitedPipes(limit: bytes.count - 1)
        let piped = try #require(PipedReply.forPush(byteCount: bytes.count, budget: budget, sizePipe: limits.size))
        _ = piped.source(holding: bytes, for: 1)
        #expect(piped.source(holding: bytes, for: 2) == nil)
        #expect(limits.asked.withLock { $0 } == [PipedReply.copies(of: bytes.count) * bytes.count, bytes.count])
        #expect(budget.livePipes == 0)
        // Refused once, the reply stays copied without asking again.
        #expect(piped.source(holding: bytes, for: 3) == nil)
        #expect(limits.asked.withLock { $0.count } == 2)
    }

    @Test("pipes alive at once stay within their budget, in number and in bytes; past it pushes are copied")
    func pipeBudget() throws {
        let bytes = payload(10_000, seed: 10)
        let budget = PipeBudget(maximumPipes: 2, maximumBytes: 1 << 20)
        func piped() throws -> (PipedReply, PipedReply.Source?) {
            let reply = try #require(PipedReply.forPush(byteCount: bytes.count, budget: budget))
            _ = reply.source(holding: bytes, for: 1)
            return (reply, reply.source(holding: bytes, for: 2))
        }
        var first: PipedReply? = try piped().0
        let second = try piped()
        let third = try piped()
        #expect(second.1 != nil)
        #expect(third.1 == nil)
        // Refused once, the reply stays copied.
        #expect(third.0.source(holding: bytes, for: 3) == nil)
        #expect(budget.livePipes == 2)
        withExtendedLifetime(first) {}
        first = nil
        #expect(budget.livePipes == 1)
        #expect(try piped().1 != nil)
        #expect(budget.livePipes == 1)
        withExtendedLifetime((second, third)) {}

        // Room for one pipe of this size and a half.
        let size = pipeSize(holding: PipedReply.copies(of: bytes.count) * bytes.count)
        let narrow = PipeBudget(maximumPipes: 8, maximumBytes: size * 3 / 2)
        let one = try #require(PipedReply.forPush(byteCount: bytes.count, budget: narrow))
        let two = try #require(PipedReply.forPush(byteCount: bytes.count, budget: narrow))
        for reply in [one, two] { _ = reply.source(holding: bytes, for: 1) }
        #expect(one.source(holding: bytes, for: 2) != nil)
        #expect(two.source(holding: bytes, for: 2) == nil)
        #expect(narrow.livePipes == 1)
        withExtendedLifetime((one, two)) {}
    }

    @Test("on a thread that did not adopt it, or once its loop disowned it, the splicer declines: the caller copies")
    func otherThread() async throws {
        let bytes = payload(8000, seed: 2)
        let (elsewhere, disowned) = try await onAdoptedThread { splicer in
            let pair = try SocketPair()
            let source = try pipeSource(holding: bytes)
            defer { withExtendedLifetime(source) {} }
            nonisolated(unsafe) let adopted = splicer
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var elsewhere: (Bool, Splicer.Outcome)?
            let (from, to) = (source.source, pair.writer)
            Thread {
                elsewhere = (adopted.isReady(for: bytes.count), adopted.send(bytes.count, from: from, to: to))
                done.signal()
            }.start()
            done.wait()
            splicer.disown()
            let disowned = splicer.send(bytes.count, from: source.source, to: pair.writer)
            return (elsewhere, (splicer.isReady(for: bytes.count), disowned, pair.readAvailable().count))
        }
        #expect(elsewhere?.0 == false && elsewhere?.1 == .unavailable)
        #expect(disowned.0 == false && disowned.1 == .unavailable && disowned.2 == 0)
    }

    @Test("whole pushes go one after another, each byte-exact, from pipes past the default 64 kB too")
    func wholePushes() async throws {
        let pushes = [payload(6700, seed: 3), payload(65_536, seed: 4), payload(150_000, seed: 5)]
        let (outcomes, received, spliced) = try await onAdoptedThread { splicer in
            // Room for the largest push whole (the kernel doubles the size asked for).
            let pair = try SocketPair(sendBuffer: 200_000)
            let sources = try pushes.map { try pipeSource(holding: $0) }
            defer { withExtendedLifetime(sources) {} }
            var outcomes: [Splicer.Outcome] = []
            var received: [[UInt8]] = []
            for (push, source) in zip(pushes + pushes, sources + sources) {
                outcomes.append(splicer.send(push.count, from: source.source, to: pair.writer))
                received.append(pair.readAll(count: push.count))
            }
            received.append(pair.readAvailable())
            return (outcomes, received, splicer.splicedReplies.load(ordering: .relaxed))
        }
        #expect(outcomes == (pushes + pushes).map { .sent($0.count) })
        #expect(received == pushes + pushes + [[]])
        #expect(spliced == 6)
    }

    @Test("a socket that takes part of a push gets that part only: the rest never reaches the next push")
    func partialPush() async throws {
        let big = payload(400_000, seed: 6)
        let small = payload(5000, seed: 7)
        let (outcomes, received, spliced) = try await onAdoptedThread { splicer in
            let pair = try SocketPair(sendBuffer: 4096)
            let bigSource = try pipeSource(holding: big)
            let smallSource = try pipeSource(holding: small)
            defer { withExtendedLifetime((bigSource, smallSource)) {} }
            let first = splicer.send(big.count, from: bigSource.source, to: pair.writer)
            // The socket is full now: nothing goes, and nothing is left behind either.
            let second = splicer.send(small.count, from: smallSource.source, to: pair.writer)
            guard case .sent(let taken) = first else { return ([first, second], [[UInt8]](), 0) }
            let part = pair.readAll(count: taken)
            let third = splicer.send(small.count, from: smallSource.source, to: pair.writer)
            let next = pair.readAll(count: small.count)
            return (
                [first, second, third], [part, next, pair.readAvailable()],
                splicer.splicedReplies.load(ordering: .relaxed)
            )
        }
        guard case .sent(let taken) = outcomes.first else {
            Issue.record("nothing of the push went into an empty socket: \(outcomes)")
            return
        }
        #expect(taken > 0 && taken < big.count)
        #expect(Array(outcomes.dropFirst()) == [.wouldBlock, .sent(small.count)])
        #expect(received == [Array(big.prefix(taken)), small, []])
        #expect(spliced == 1)
    }

    @Test("a queue finishes by sendmsg a push the socket took in part, and the reply behind it follows byte-exact")
    func queueAfterPartialSplice() async throws {
        let budget = PipeBudget(maximumPipes: 4, maximumBytes: 1 << 20)
        let bytes = payload(300_000, seed: 11)
        let push = pipedPush(bytes, budget: budget)
        let next = payload(5000, seed: 12)
        let laterBytes = payload(6000, seed: 13)
        let later = pipedPush(laterBytes, budget: budget)
        let (results, received, splicedFirst) = try await onAdoptedThread { splicer in
            // The first connection writes the pushes by copying; it is not read here.
            let first = try SocketPair()
            var firstQueue = OutputQueue()
            firstQueue.append(push)
            _ = firstQueue.write(to: first.writer, splicer: splicer)
            _ = later.piped?.source(holding: laterBytes, for: first.writer)
            // The second splices them from their pipes, into a socket that takes a few kB at a
            // time; the later push goes after the first was taken in part (and the rest of it
            // taken out of the scratch pipe).
            let second = try SocketPair(sendBuffer: 4096)
            var queue = OutputQueue()
            queue.append(push)
            queue.append(next)
            var results = [queue.write(to: second.writer, splicer: splicer)]
            let splicedFirst = splicer.splicedBytes
            var received = second.readAvailable()
            var queuedLater = false
            while results.count < 10_000 {
                if results.last == .done {
                    if queuedLater { break }
                    queue.append(later)
                    queuedLater = true
                }
                results.append(queue.write(to: second.writer, splicer: splicer))
                received += second.readAvailable()
            }
            return (results, received + second.readAvailable(), splicedFirst)
        }
        #expect(budget.livePipes == 2)
        #expect(results.first == .wouldBlock(progressed: true))
        #expect(results.last == .done)
        // The first write spliced a part of the push, which sendmsg finished.
        #expect(splicedFirst > 0 && splicedFirst < bytes.count)
        #expect(received == bytes + next + laterBytes)
        withExtendedLifetime((push, later)) {}
    }

    @Test("a peer that has gone is EPIPE, and the SIGPIPE splice raises stays blocked on the loop's thread")
    func peerGone() async throws {
        let bytes = payload(9000, seed: 8)
        let later = payload(9000, seed: 9)
        let (gone, pipePending, next, received) = try await onAdoptedThread { splicer in
            let pair = try SocketPair()
            pair.closeReader()
            let first = try pipeSource(holding: bytes)
            let gone = splicer.send(bytes.count, from: first.source, to: pair.writer)
            var pending = sigset_t()
            sigpending(&pending)
            // The scratch pipe was emptied: the next push, to a live socket, is that push alone.
            let other = try SocketPair()
            let second = try pipeSource(holding: later)
            defer { withExtendedLifetime((first, second)) {} }
            let next = splicer.send(later.count, from: second.source, to: other.writer)
            return (gone, sigismember(&pending, SIGPIPE) == 1, next, other.readAll(count: later.count))
        }
        #expect(gone == .failed(EPIPE))
        #expect(pipePending)
        #expect(next == .sent(later.count))
        #expect(received == later)
    }

    @Test("a child started from the loop's thread, which blocks SIGPIPE, has no signal blocked and none ignored")
    func childSignals() async throws {
        // As homefeedd does. Process-wide, for the rest of the run: no test relies on SIGPIPE
        // (every socket write uses MSG_NOSIGNAL, ChildProcess children start at the default).
        signal(SIGPIPE, SIG_IGN)
        let lines = try await onAdoptedThread { _ in
            let child = try ChildProcess("/bin/cat", ["/proc/self/status"], stdout: .pipe)
            var lines: [String] = []
            while let line = child.readLine(seconds: 10) { lines.append(line) }
            _ = child.waitForExit()
            return lines
        }
        func mask(_ name: String) -> UInt64? {
            lines.first { $0.hasPrefix(name + ":") }.flatMap {
                UInt64($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16)
            }
        }
        #expect(mask("SigBlk") == 0)
        // SIGPIPE, ignored here, is at its default there, as is every other standard signal
        // (glibc keeps its own two real-time signals, 32 and 33, to itself).
        #expect(mask("SigIgn").map { $0 & 0x7FFF_FFFF } == 0)
    }
}

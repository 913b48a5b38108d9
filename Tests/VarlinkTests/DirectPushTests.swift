import Testing

@testable import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// A push to a connection with nothing queued goes from its delivery straight to the socket
/// (``ConnectionState/sendPush(_:callID:context:fd:now:splicer:)``); the output queue takes
/// what the socket does not, and everything after it, so replies keep their order, whole.
@Suite(.timeLimit(.minutes(1)))
struct DirectPushTests {
    /// The state under test is driven directly: nothing is delivered through the sink.
    final class NoTransport: ReplyTransport {
        func deliver(
            _ reply: VarlinkEncodedReply?,
            isFinal: Bool,
            policy: VarlinkBacklogPolicy,
            callID: UInt64,
            streaming: Bool
        ) {}
    }

    static func streamingState() -> (state: ConnectionState, sink: VarlinkReplySink) {
        var state = ConnectionState(maxMessageSize: 1 << 20, now: 0)
        let sink = state.activate(more: true, oneway: false, transport: NoTransport())
        return (state, sink)
    }

    /// Writes the queue out, reading as it goes.
    static func drain(_ state: inout ConnectionState, into pair: SocketPair, splicer: Splicer?) -> [UInt8] {
        var received = pair.readAvailable()
        var writes = 0
        while !state.output.isEmpty, writes < 10_000 {
            _ = state.write(to: pair.writer, now: 3, splicer: splicer)
            received += pair.readAvailable()
            writes += 1
        }
        return received
    }

    @Test(
        "a push the socket takes goes straight out; one it takes in part is finished from the queue, the next behind it"
    )
    func partlySent() throws {
        // The kernel doubles this to 8 KiB: a push of 20 kB is cut even on an empty socket.
        let pair = try SocketPair(sendBuffer: 4096)
        let context = makeTestContext()
        var (state, sink) = Self.streamingState()
        let callID = try #require(state.active?.id)
        let small = VarlinkEncodedReply(framedBytes: payload(100, seed: 2), continues: true, piped: nil)
        let large = VarlinkEncodedReply(framedBytes: payload(20_000, seed: 3), continues: true, piped: nil)

        let first = state.sendPush(small, callID: callID, context: context, fd: pair.writer, now: 1, splicer: nil)
        guard case .drained? = first else {
            Issue.record("a small push to an empty socket: \(String(describing: first))")
            return
        }
        #expect(state.output.isEmpty)
        #expect(pair.readAvailable() == small.framedBytes)

        let second = state.sendPush(large, callID: callID, context: context, fd: pair.writer, now: 2, splicer: nil)
        guard case .blocked? = second else {
            Issue.record("a push larger than the socket buffer: \(String(describing: second))")
            return
        }
        // The part the socket did not take is queued, from where it stopped.
        #expect(state.output.byteCount > 0 && state.output.byteCount < large.framedBytes.count)
        #expect(state.stalledSince == 2)

        // With output queued, the next push is not written straight: the caller queues it.
        #expect(state.sendPush(small, callID: callID, context: context, fd: pair.writer, now: 3, splicer: nil) == nil)
        #expect(
            state.queue(small, isFinal: false, policy: .queue, callID: callID, of: .unknown, context: context, now: 3)
                != nil
        )
        let received = Self.drain(&state, into: pair, splicer: nil)
        #expect(received == large.framedBytes + small.framedBytes)
        #expect(state.stalledSince == nil)
        withExtendedLifetime(sink) {}
    }

    @Test(
        "a push is not written straight for a stale call, to a closed or closing connection, behind a held-back push, to a full socket, or past the output limit"
    )
    func notWritten() throws {
        let pair = try SocketPair()
        let context = makeTestContext()
        let push = VarlinkEncodedReply(framedBytes: payload(100, seed: 4), continues: true, piped: nil)
        var refused: [String] = []
        func check(
            _ name: String,
            stale: Bool = false,
            context: ServerContext = context,
            _ change: (inout ConnectionState) -> Void
        ) {
            var (state, sink) = Self.streamingState()
            let callID = (state.active?.id ?? 0) + (stale ? 1 : 0)
            change(&state)
            if state.sendPush(push, callID: callID, context: context, fd: pair.writer, now: 1, splicer: nil) == nil {
                refused.append(name)
            }
            withExtendedLifetime(sink) {}
        }
        check("stale", stale: true) { _ in }
        check("closed") { $0.isClosed = true }
        check("closing") { $0.closesAfterFlush = true }
        check("held back") { $0.coalesced = push }
        check("waiting for room") { $0.interest |= EventLoop.writable }
        var small = VarlinkServerConfiguration()
        small.maxOutputBytes = push.framedBytes.count - 1
        check("over the limit", context: makeTestContext(configuration: small)) { _ in }
        check("none of those") { _ in }
        #expect(refused == ["stale", "closed", "closing", "held back", "waiting for room", "over the limit"])
        #expect(pair.readAvailable() == push.framedBytes)
    }

    @Test("a push to a reader that has gone fails with EPIPE, queuing nothing")
    func readerGone() throws {
        let pair = try SocketPair()
        let context = makeTestContext()
        var (state, sink) = Self.streamingState()
        let callID = try #require(state.active?.id)
        pair.closeReader()
        let push = VarlinkEncodedReply(framedBytes: payload(100, seed: 5), continues: true, piped: nil)
        let written = state.sendPush(push, callID: callID, context: context, fd: pair.writer, now: 1, splicer: nil)
        guard case .failed(let code)? = written else {
            Issue.record("\(String(describing: written))")
            return
        }
        #expect(code == EPIPE)
        #expect(state.output.isEmpty)
        withExtendedLifetime(sink) {}
    }

    @Test("a piped push goes straight from its pipe; what the socket did not take is finished by sendmsg, byte-exact")
    func splicedStraight() async throws {
        let budget = PipeBudget(maximumPipes: 4, maximumBytes: 1 << 20)
        let bytes = payload(300_000, seed: 6)
        let push = pipedPush(bytes, budget: budget)
        let (first, spliced, queued, received, splicedAfter) = try await onAdoptedThread { splicer in
            let context = makeTestContext()
            // The pipe is made for the second connection a push is written to.
            let earlier = try SocketPair()
            var (earlierState, earlierSink) = Self.streamingState()
            let earlierCall = earlierState.active?.id ?? 0
            _ = earlierState.sendPush(
                push,
                callID: earlierCall,
                context: context,
                fd: earlier.writer,
                now: 1,
                splicer: splicer
            )
            let pair = try SocketPair(sendBuffer: 4096)
            var (state, sink) = Self.streamingState()
            let first = state.sendPush(
                push,
                callID: state.active?.id ?? 0,
                context: context,
                fd: pair.writer,
                now: 1,
                splicer: splicer
            )
            let spliced = splicer.splicedBytes
            let queued = state.output.byteCount
            let received = Self.drain(&state, into: pair, splicer: splicer)
            withExtendedLifetime((earlierSink, sink)) {}
            return (first, spliced, queued, received, splicer.splicedBytes)
        }
        guard case .blocked? = first else {
            Issue.record("a push larger than the socket buffer: \(String(describing: first))")
            return
        }
        #expect(budget.livePipes == 1)
        #expect(spliced > 0 && spliced < bytes.count)
        #expect(queued == bytes.count - spliced)
        #expect(received == bytes)
        // The rest went by sendmsg: nothing more was spliced.
        #expect(splicedAfter == spliced)
        withExtendedLifetime(push) {}
    }
}

#if canImport(Glibc)
    internal import Glibc
#endif

/// Everything of a ``Connection`` that changes, in one value: the input and output buffers, the
/// active call, the epoll interest and the deadlines.
///
/// Why one value: every access to a stored `var` of a class is a dynamic exclusivity check
/// (about 80 instructions; debug builds still make it on ``Connection/state``, release builds
/// no longer do), and a call touched the connection's fields 13 times. The loop-thread work of
/// a call is now a few mutating methods of this value (``receive(from:into:limit:now:)``,
/// ``nextCall(context:backlogLimit:reusing:transport:)``,
/// ``finishInline(_:sink:of:context:fd:now:splicer:)``, ``settle(fd:loop:context:)``): one
/// access each, the fields inside read and written as a local struct's (issue 17, callgrind).
///
/// Nothing here calls a handler or anything that could come back into the connection: the
/// owner calls out (handlers, logging, closing) between these methods, never inside them.
///
/// Not thread-safe: a value owned by one ``Connection`` on its loop thread.
struct ConnectionState {
    /// The loop's token for the connection, 0 until ``Connection/start()``.
    var token: UInt64 = 0
    /// The epoll events the fd is registered for (0: not in the epoll set).
    var interest: UInt32 = 0

    var input: VarlinkFrameSplitter
    /// The client shut down its sending side; answer what is buffered, then close.
    var inputEnded = false

    var output = OutputQueue()
    /// The held-back push while backlogged (``VarlinkBacklogPolicy/replacePending``).
    var coalesced: VarlinkEncodedReply?

    struct ActiveCall {
        var id: UInt64
        var sink: VarlinkReplySink
    }
    var active: ActiveCall?
    var lastCallID: UInt64 = 0
    /// The sink of the last call answered inline, for the next call to reuse if nothing else
    /// kept it (``reusableSink(more:oneway:)``).
    var spareSink: VarlinkReplySink?
    /// The storage of the last call's parameters, emptied, for the next call's decoding; held
    /// by ``Connection/processInput()`` while it runs.
    var spareMembers: [VarlinkCall.Member] = []
    /// The long string values of this connection's last calls (``RecentStrings``).
    var recentStrings = RecentStrings()
    /// The last call answered with a repeatable reply (``RepeatedCall``).
    var repeated = RepeatedCall()
    /// ``Connection/processInput()`` is running: what finishes a call inline leaves it to
    /// start the next.
    var isProcessingInput = false

    var isClosed = false
    /// The active call holds one of the server's streaming-call slots (a `more` call).
    var holdsStreamingSlot = false
    /// A refused streaming call's error is being written; the connection closes once it is out
    /// and takes no further input.
    var closesAfterFlush = false
    /// Monotonic time (ns) of the last input or finished call, for the idle timeout.
    var lastActivity: UInt64
    /// Monotonic time (ns) since which pending output has made no progress.
    var stalledSince: UInt64?
    /// The deadline a timer is armed for, if any; other timers that fire are stale.
    var timerDeadline: UInt64?

    init(maxMessageSize: Int, now: UInt64) {
        input = VarlinkFrameSplitter(maxMessageSize: maxMessageSize)
        lastActivity = now
    }

    // MARK: - Reading

    /// What ``Connection/handleEvents(_:)`` must do for `events`, read in one access.
    /// Mutating though it changes nothing: called on a class's stored property, a non-mutating
    /// method gets a copy of the whole value (its buffers retained and released, 300
    /// instructions, callgrind), a mutating one the value in place.
    mutating func work(for events: UInt32) -> (flush: Bool, read: Bool, hungUp: Bool) {
        guard !isClosed else { return (false, false, false) }
        // A hang-up or error comes with whatever the fd is watched for: the write or the read
        // then reports it (EPIPE, EOF or the error). Watched for nothing else, the fd of a
        // streaming call reports it alone (``updateInterest(fd:loop:context:)``).
        let trouble = EventLoop.hangUp | EventLoop.failed
        return (
            events & (EventLoop.writable | trouble) != 0 && !output.isEmpty,
            interest & EventLoop.readable != 0 && events & (EventLoop.readable | trouble) != 0,
            interest == EventLoop.hangUp && events & trouble != 0
        )
    }

    enum Received {
        case received
        /// `recv` failed with this errno.
        case failed(Int32)
        /// Closed, not just half-closed, during a `more` call: how a client unsubscribes.
        case unsubscribed
    }

    /// Reads what the socket has into ``input`` (up to a whole message more than `limit`).
    mutating func receive(
        from fd: Int32,
        into scratch: UnsafeMutableRawBufferPointer,
        limit: Int,
        now: UInt64
    ) -> Received {
        readLoop: while input.bufferedByteCount <= limit {
            switch Socket.receive(fd, into: scratch) {
            case .done(let n):
                input.append(UnsafeRawBufferPointer(rebasing: scratch[..<n]))
                // A short read took everything there was: level-triggered epoll reports the
                // rest, so skip the recv that would only say EAGAIN.
                if n < scratch.count { break readLoop }
            case .wouldBlock: break readLoop
            case .endOfFile:
                inputEnded = true
                break readLoop
            case .failed(let code):
                return .failed(code)
            }
        }
        // Other calls, and complete calls still buffered (a oneway call sent just before
        // closing), are still run; their replies fail with EPIPE, which closes the connection.
        if inputEnded, let call = active, call.sink.acceptsMore, Socket.isHungUp(fd) { return .unsubscribed }
        lastActivity = now
        return .received
    }

    // MARK: - Calls

    /// Marks ``Connection/processInput()`` as running and hands it the parameter storage to
    /// reuse; nil when it is running already.
    mutating func beginProcessingInput() -> [VarlinkCall.Member]? {
        guard !isProcessingInput else { return nil }
        isProcessingInput = true
        var spare: [VarlinkCall.Member] = []
        swap(&spare, &spareMembers)
        return spare
    }

    /// ``Connection/processInput()`` has started what it could; `spare` is the storage to keep.
    /// Then ``settle(fd:loop:context:)``, in the same access.
    ///
    /// - Returns: 0, or the errno of `epoll_ctl` (the connection must close then).
    mutating func endProcessingInput(
        _ spare: consuming [VarlinkCall.Member],
        fd: Int32,
        loop: EventLoop,
        context: ServerContext
    ) -> Int32 {
        isProcessingInput = false
        spareMembers = spare
        return settle(fd: fd, loop: loop, context: context)
    }

    enum NextCall {
        /// No call can start now (none complete, one active, backlogged or closing).
        case none
        /// Everything complete has been answered and input has ended: close.
        case endOfInput
        case violation(VarlinkProtocolError)
        /// A call to run, started with `sink`, or with none yet when it is a streaming call,
        /// which needs a slot first (``activate(more:oneway:transport:)``).
        case call(VarlinkCall, route: MethodRoutes.Route?, sink: VarlinkReplySink?)
        /// The remembered call again, whose reply still holds (``RepeatedCall``): answer it with
        /// ``finishRepeated(context:fd:now:splicer:)``.
        case repeated
    }

    private enum Decoded {
        case call(VarlinkCall, route: MethodRoutes.Route?)
        case repeated
    }

    /// Decodes the next buffered call, where it lies in the input buffer, if none is active and
    /// the client is keeping up, and makes it the active call unless it is a streaming one; or
    /// finds it repeats the remembered call (``RepeatedCall``), which is then not decoded.
    mutating func nextCall(
        context: ServerContext,
        backlogLimit: Int,
        reusing spare: inout [VarlinkCall.Member],
        transport: some ReplyTransport
    ) -> NextCall {
        guard !isClosed, !closesAfterFlush, active == nil, output.byteCount <= backlogLimit else { return .none }
        let decoded: Decoded?
        do throws(VarlinkProtocolError) {
            decoded = try input.next { message throws(VarlinkProtocolError) -> Decoded in
                if repeated.answers(message) { return .repeated }
                repeated.note(message)
                let (call, route) = try VarlinkCall.decoding(
                    message,
                    // Read here, not by the caller: copied out, the routes were retained and
                    // released for every call, a repeated one too (issue 17, callgrind).
                    routes: context.service.routes,
                    reusing: &spare,
                    recent: &recentStrings
                )
                return .call(call, route: route)
            }
        } catch {
            return .violation(error)
        }
        guard let decoded else {
            // A partial message cannot complete once input has ended.
            return inputEnded && output.isEmpty ? .endOfInput : .none
        }
        switch decoded {
        case .repeated:
            return .repeated
        case .call(let call, let route):
            if call.more, !call.oneway { return .call(call, route: route, sink: nil) }
            return .call(call, route: route, sink: activate(more: call.more, oneway: call.oneway, transport: transport))
        }
    }

    /// Makes the next call, with these flags, the active one: its sink is the spare one when
    /// nothing else kept it, else a new one.
    mutating func activate(more: Bool, oneway: Bool, transport: some ReplyTransport) -> VarlinkReplySink {
        lastCallID &+= 1
        let sink: VarlinkReplySink
        if let spare = reusableSink(more: more, oneway: oneway) {
            spare.reuse(forCallID: lastCallID)
            sink = spare
        } else {
            sink = VarlinkReplySink(acceptsMore: more, isOneway: oneway, transport: transport, callID: lastCallID)
        }
        active = ActiveCall(id: lastCallID, sink: sink)
        return sink
    }

    /// The spare sink, taken, if nothing but this connection references it (a handler may
    /// have kept it) and it has the flags the call needs.
    private mutating func reusableSink(more: Bool, oneway: Bool) -> VarlinkReplySink? {
        var spare = spareSink
        spareSink = nil
        guard isKnownUniquelyReferenced(&spare), let sink = spare, sink.acceptsMore == more, sink.isOneway == oneway
        else { return nil }
        return sink
    }

    enum Written {
        /// Everything is out.
        case drained
        /// The socket is full; the fd must be watched for `EPOLLOUT`.
        case blocked
        /// Writing failed with this errno (`sendmsg`, `send` or `splice`): the connection is
        /// finished.
        case failed(Int32)
        /// More than ``VarlinkServerConfiguration/maxOutputBytes`` would be unsent.
        case overLimit(Int)
        /// A refused call's error is out: close.
        case closeNow
    }

    /// Queues the final reply of the active call, answered inline (nil: nothing to write, a
    /// oneway call), ends the call and writes: the whole reply side of such a call in one
    /// access.
    mutating func finishInline(
        _ reply: VarlinkEncodedReply?,
        sink: VarlinkReplySink,
        of peer: VarlinkPeer,
        context: ServerContext,
        fd: Int32,
        now: UInt64,
        splicer: Splicer?
    ) -> Written {
        var unsent = output.byteCount
        if let reply {
            appendCoalesced()
            unsent = output.append(reply)
        }
        endCall(of: peer, context: context, now: now)
        spareSink = sink
        if unsent > context.configuration.maxOutputBytes { return .overLimit(unsent) }
        return write(to: fd, now: now, splicer: splicer)
    }

    /// Writes the remembered reply of a repeated call (``NextCall/repeated``), which never
    /// became the active call: straight from the memo when nothing is queued before it (one
    /// `send`, no reference to the reply taken or dropped), else, or for what the socket did not
    /// take, through the output queue.
    mutating func finishRepeated(
        context: ServerContext,
        fd: Int32,
        now: UInt64,
        splicer: Splicer?
    ) -> Written {
        lastActivity = now
        if output.isEmpty, coalesced == nil {
            guard let sent = repeated.send(to: fd) else {
                stalledSince = nil
                return .drained
            }
            let bytes = repeated.replyBytes
            return queueUnsent(after: sent, of: bytes, now: now) { $0.append(bytes) }
        }
        appendCoalesced()
        let unsent = output.append(repeated.replyBytes)
        if unsent > context.configuration.maxOutputBytes { return .overLimit(unsent) }
        return write(to: fd, now: now, splicer: splicer)
    }

    /// Writes a push of the active call `callID` straight to the socket when nothing is queued
    /// or held back before it and the socket is not known to be full: a fan-out's push then
    /// goes from its delivery to the socket without entering the queue, which took and dropped
    /// its two references and added and removed a chunk for each of a thousand connections
    /// (issue 17). What the socket does not take is queued, as in
    /// ``finishRepeated(context:fd:now:splicer:)``.
    ///
    /// - Returns: nil when this does not apply; the caller then queues the push as any reply.
    mutating func sendPush(
        _ reply: VarlinkEncodedReply,
        callID: UInt64,
        context: ServerContext,
        fd: Int32,
        now: UInt64,
        splicer: Splicer?
    ) -> Written? {
        guard takesDirectPush(byteCount: reply.framedBytes.count, callID: callID, context: context) else { return nil }
        return finishPush(reply, after: OutputQueue.send(reply, to: fd, splicer: splicer), now: now)
    }

    /// Whether a push of `byteCount` bytes of the active call `callID` may be written straight
    /// to the socket (``sendPush(_:callID:context:fd:now:splicer:)``): nothing is queued or held
    /// back before it, the socket is not known to be full, the connection is not closing, and
    /// the push is no larger than the client may have unsent (a larger one is queued, and so
    /// refused).
    func takesDirectPush(byteCount: Int, callID: UInt64, context: ServerContext) -> Bool {
        guard !isClosed, !closesAfterFlush, output.isEmpty, coalesced == nil, interest & EventLoop.writable == 0,
            let call = active, call.id == callID
        else { return false }
        return byteCount > 0 && byteCount <= context.configuration.maxOutputBytes
    }

    /// Finishes a push written straight to the socket (``takesDirectPush(byteCount:callID:context:)``)
    /// after `sent`: nothing more when the socket took it whole, else what it left is queued.
    mutating func finishPush(_ reply: VarlinkEncodedReply, after sent: Socket.Transfer, now: UInt64) -> Written {
        if sent == .done(reply.framedBytes.count) { return .drained }
        // A chunk is spliced only from its start: a rest goes by sendmsg, without the pipe.
        return queueUnsent(after: sent, of: reply.framedBytes, now: now) { $0.append(reply) }
    }

    /// Queues what a write straight to the socket (``finishRepeated(context:fd:now:splicer:)``,
    /// ``finishPush(_:after:now:)``) left of a reply's `bytes`: the rest from
    /// where the socket stopped, or, when it took nothing, the whole reply as `queueWhole`
    /// queues it; the output stalls from `now`.
    private mutating func queueUnsent(
        after transfer: Socket.Transfer,
        of bytes: [UInt8],
        now: UInt64,
        queueWhole: (inout OutputQueue) -> Void
    ) -> Written {
        switch transfer {
        case .done(let sent) where sent > 0:
            output.append(bytes, sent: sent)
        case .done, .endOfFile:
            // Nothing taken of a non-empty reply without an error: the peer is gone (as for
            // the queue's own writes).
            return .failed(EPIPE)
        case .wouldBlock:
            queueWhole(&output)
        case .failed(let code):
            return .failed(code)
        }
        stalledSince = now
        return .blocked
    }

    /// Queues a reply of the call `callID` that came through its sink (nil: nothing to write),
    /// or holds it back as the pending push when it may replace one and the client is behind;
    /// a final reply ends the call.
    ///
    /// - Returns: the unsent bytes now, or nil when the reply is stale (the connection closed,
    ///   or the call is no longer the active one) and was dropped.
    mutating func queue(
        _ reply: VarlinkEncodedReply?,
        isFinal: Bool,
        policy: VarlinkBacklogPolicy,
        callID: UInt64,
        of peer: VarlinkPeer,
        context: ServerContext,
        now: UInt64
    ) -> Int? {
        guard !isClosed, let call = active, call.id == callID else { return nil }
        var unsent = output.byteCount
        if let reply {
            if !isFinal, policy == .replacePending, unsent > context.configuration.outputBacklogLimit {
                if coalesced != nil { context.count { $0.coalescedReplies += 1 } }
                coalesced = reply
            } else {
                appendCoalesced()
                unsent = output.append(reply)
            }
        }
        if isFinal { endCall(of: peer, context: context, now: now) }
        return unsent
    }

    /// The active call has had its final reply: its streaming slot, if it held one, goes back.
    mutating func endCall(of peer: VarlinkPeer, context: ServerContext, now: UInt64) {
        active = nil
        releaseStreamingSlot(of: peer, context: context)
        lastActivity = now
    }

    /// Gives back the streaming slot of the call that just ended, if it held one.
    mutating func releaseStreamingSlot(of peer: VarlinkPeer, context: ServerContext) {
        guard holdsStreamingSlot else { return }
        holdsStreamingSlot = false
        context.releaseStreamingCall(of: peer)
    }

    // MARK: - Interest and deadlines

    /// ``updateInterest(fd:loop:context:)`` then, if that worked, ``updateTimer(loop:context:)``.
    ///
    /// - Returns: 0, or the errno of `epoll_ctl` (the connection must close then).
    mutating func settle(fd: Int32, loop: EventLoop, context: ServerContext) -> Int32 {
        let code = updateInterest(fd: fd, loop: loop, context: context)
        if code == 0 { updateTimer(loop: loop, context: context) }
        return code
    }

    /// Watches the fd for what the connection wants now: input unless it has ended, a refused
    /// call is being answered, or more than a whole message is buffered (pipelining
    /// backpressure); output while some is pending. A streaming call that reads nothing keeps
    /// the fd watched for a hang-up alone (epoll reports it to any registered fd): a client
    /// that closes with calls buffered behind its subscription, or after a half-close, still
    /// unsubscribes at once instead of at the next push.
    ///
    /// - Returns: 0, or the errno of `epoll_ctl` (the connection must close then).
    mutating func updateInterest(fd: Int32, loop: EventLoop, context: ServerContext) -> Int32 {
        guard !isClosed else { return 0 }
        var wanted: UInt32 = 0
        if !inputEnded, !closesAfterFlush, input.bufferedByteCount <= context.configuration.maxMessageSize {
            wanted |= EventLoop.readable
        }
        if !output.isEmpty { wanted |= EventLoop.writable }
        if wanted & EventLoop.readable == 0, active?.sink.acceptsMore == true { wanted |= EventLoop.hangUp }
        let code = loop.setInterest(fd, token: token, from: interest, to: wanted)
        if code == 0 { interest = wanted }
        return code
    }

    /// Arms a timer for the nearest deadline that applies: stalled output, else idleness (no
    /// call in progress). Activity only moves deadlines later, so an armed timer is left alone
    /// unless the new deadline is earlier; when it fires, ``Connection/handleTimer(_:)``
    /// re-checks.
    mutating func updateTimer(loop: EventLoop, context: ServerContext) {
        guard !isClosed, let deadline = currentDeadline(context: context) else { return }
        if let armed = timerDeadline, armed <= deadline { return }
        timerDeadline = deadline
        loop.schedule(at: deadline, for: token)
    }

    func currentDeadline(context: ServerContext) -> UInt64? {
        if let stalledSince {
            return stalledSince &+ context.stalledWriteTimeoutNanoseconds
        }
        if active == nil, output.isEmpty {
            return lastActivity &+ context.idleTimeoutNanoseconds
        }
        return nil
    }

    // MARK: - Writing

    /// Writes as much pending output as the socket takes; once everything is out, a held-back
    /// push is queued and written too.
    ///
    /// - Parameter splicer: the loop's (``OutputQueue/write(to:splicer:)``).
    mutating func write(to fd: Int32, now: UInt64, splicer: Splicer?) -> Written {
        while true {
            switch output.write(to: fd, splicer: splicer) {
            case .wouldBlock(let progressed):
                if progressed || stalledSince == nil { stalledSince = now }
                return .blocked
            case .failed(let code):
                return .failed(code)
            case .done:
                stalledSince = nil
                if closesAfterFlush { return .closeNow }
                guard coalesced != nil else { return .drained }
                appendCoalesced()
            }
        }
    }

    mutating func appendCoalesced() {
        if let held = coalesced {
            coalesced = nil
            output.append(held)
        }
    }
}

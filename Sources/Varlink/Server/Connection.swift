internal import LogCore

#if canImport(Glibc)
    internal import Glibc
#endif

/// One accepted client: its fd, its input and output buffers, and the call it is running, all
/// served by the server's ``EventLoop``.
///
/// Life of a call: readiness fills ``input`` (``handleEvents(_:)``); ``processInput()`` takes
/// one complete message at a time, only while no call is active, so replies go out strictly in
/// call order; the call runs as a task preferring the loop as its executor, so a synchronous
/// handler runs inline on the loop thread; its replies come back through the
/// ``VarlinkReplySink`` (``deliver(_:isFinal:policy:callID:)``), are queued in ``output`` and
/// written at once; the final reply clears ``active`` and the next buffered call starts.
///
/// The fd is in the loop's epoll set only while the connection wants something: input while it
/// reads (not after EOF, not while more than a whole message waits), `EPOLLOUT` while output is
/// pending. A `more` call takes a streaming slot from the server's ``ConnectionAdmission`` for
/// as long as it is active; one the limits refuse is answered with the configured error, and
/// the connection closes once that is written (``closesAfterFlush``).
///
/// Concurrency: `@unchecked Sendable` because **every mutable field is touched only on the
/// loop thread**; ``deliver(_:isFinal:policy:callID:)``, the one entry point other threads
/// use, only submits work to the loop.
final class Connection: EventLoopHandler, ReplyTransport, @unchecked Sendable {
    let fd: Int32
    let peer: VarlinkPeer
    let context: ServerContext
    let loop: EventLoop
    /// The loop's token for this connection, 0 until ``start()``.
    private(set) var token: UInt64 = 0
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
    /// kept it (``reusableSink(for:)``).
    var spareSink: VarlinkReplySink?
    /// The storage of the last call's parameters, emptied, for the next call's decoding.
    var spareMembers: [VarlinkCall.Member] = []
    /// ``start(_:route:)`` is running the call's immediate part; its final reply, if that is
    /// also its first, is held in ``inlineFinalCallID`` and ``inlineFinalReply`` (nil for a
    /// oneway call) and queued right after, with no hop. Two plain optionals, not an optional
    /// tuple of an optional, which Swift copies through generic value witnesses.
    var isStarting = false
    var inlineFinalCallID: UInt64?
    var inlineFinalReply: VarlinkEncodedReply?
    /// ``processInput()`` is running: what finishes a call inline leaves it to start the next.
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

    init(fd: Int32, peer: VarlinkPeer, context: ServerContext, loop: EventLoop) {
        self.fd = fd
        self.peer = peer
        self.context = context
        self.loop = loop
        self.input = VarlinkFrameSplitter(maxMessageSize: context.configuration.maxMessageSize)
        self.lastActivity = loop.now()
    }

    /// Registers with the loop and starts reading. Loop thread, once, right after accept.
    ///
    /// - Returns: false when the fd cannot be watched (`epoll_ctl` failed); the connection is
    ///   closed then.
    @discardableResult
    func start() -> Bool {
        token = loop.register(self)
        updateInterest()
        guard !isClosed else { return false }
        updateTimer()
        return true
    }

    /// Closes the connection from any thread (server shutdown).
    func closeSoon() {
        loop.submit { [self] in close() }
    }

    // MARK: - Events

    func handleEvents(_ events: UInt32) {
        guard !isClosed else { return }
        // A hang-up or error comes with whatever the fd is watched for: the write or the read
        // then reports it (EPIPE, EOF or the error).
        let trouble = EventLoop.hangUp | EventLoop.failed
        if events & (EventLoop.writable | trouble) != 0, !output.isEmpty {
            flush()
        }
        if !isClosed, interest & EventLoop.readable != 0, events & (EventLoop.readable | trouble) != 0 {
            handleReadable()
        }
    }

    /// The events the connection wants now: input unless it has ended, a refused call is being
    /// answered, or more than a whole message is buffered (pipelining backpressure); output
    /// while some is pending.
    func updateInterest() {
        guard !isClosed else { return }
        var wanted: UInt32 = 0
        if !inputEnded, !closesAfterFlush, input.bufferedByteCount <= context.configuration.maxMessageSize {
            wanted |= EventLoop.readable
        }
        if !output.isEmpty { wanted |= EventLoop.writable }
        let code = loop.setInterest(fd, token: token, from: interest, to: wanted)
        if code != 0 {
            context.log(.error) { "connection \(self.peer): epoll_ctl: \(SystemError.name(of: code))" }
            close()
            return
        }
        interest = wanted
    }

    // MARK: - Reading

    private func handleReadable() {
        let limit = context.configuration.maxMessageSize
        let scratch = loop.scratch
        var failed: Int32?
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
                failed = code
                break readLoop
            }
        }
        if let failed {
            context.log(.debug) { "connection \(self.peer): recv: \(SystemError.name(of: failed))" }
            close()
            return
        }
        if inputEnded, let call = active, call.sink.acceptsMore, Socket.isHungUp(fd) {
            // Closed, not just half-closed, during a `more` call: that is how a Varlink client
            // unsubscribes (varlink-and-systemd.md §3). Other calls, and complete calls still
            // buffered (a oneway call sent just before closing), are still run; their replies
            // fail with EPIPE, which closes the connection.
            close()
            return
        }
        lastActivity = loop.now()
        processInput()
    }

    /// Starts the next buffered call if none is active and the client is keeping up; closes
    /// the connection on a protocol violation, or after the last answer once input has ended.
    /// Called again from within (a call answered inline), it returns: the running one goes on.
    func processInput() {
        guard !isProcessingInput else { return }
        isProcessingInput = true
        defer { isProcessingInput = false }
        let backlogLimit = context.configuration.outputBacklogLimit
        let routes = context.service.routes
        while !isClosed, !closesAfterFlush, active == nil, output.byteCount <= backlogLimit {
            var decoded: (call: VarlinkCall, route: MethodRoutes.Route?)?
            do throws(VarlinkProtocolError) {
                // Decoded where it lies in the input buffer, not copied out first.
                decoded = try input.next { message throws(VarlinkProtocolError) in
                    try VarlinkCall.decoding(message, routes: routes, reusing: &spareMembers)
                }
            } catch {
                protocolViolation(error)
                return
            }
            // Taken out of `decoded`, so that once it has run the call holds the only reference
            // to its parameters' storage, which is then emptied in place for the next call.
            guard case (var call, let route)? = decoded.take() else {
                if inputEnded, output.isEmpty {
                    // Everything complete has been answered; a partial message cannot complete.
                    close()
                    return
                }
                break
            }
            start(call, route: route)
            spareMembers = call.recycleParameters()
        }
        updateInterest()
        updateTimer()
    }

    private func protocolViolation(_ error: VarlinkProtocolError) {
        context.count { $0.protocolErrors += 1 }
        context.log(.notice) { "dropping client \(self.peer): \(error)" }
        close()
    }

    private func start(_ call: VarlinkCall, route: MethodRoutes.Route?) {
        if call.more, !call.oneway {
            if let refusal = context.admitStreamingCall(of: peer) {
                refuseStreaming(refusal)
                return
            }
            holdsStreamingSlot = true
        }
        lastCallID &+= 1
        let sink = reusableSink(for: call) ?? VarlinkReplySink(call: call, transport: self, callID: lastCallID)
        active = ActiveCall(id: lastCallID, sink: sink)
        // A call whose answer is ready is answered here, inline: its final reply comes back
        // through the sink into inlineFinalReply and is queued and written at once, with no hop
        // through the loop's queue. Others run as a task preferring the loop.
        isStarting = true
        let method: VarlinkMethod?
        if call.upgrade {
            // This library speaks nothing but Varlink; refuse rather than pretend to upgrade.
            sink.send(VarlinkReply(error: .invalidParameter("upgrade")))
            method = nil
        } else {
            method = context.service.handleImmediately(call, routed: route?.method, peer: peer, replies: sink)
        }
        isStarting = false
        if let callID = inlineFinalCallID {
            let reply = inlineFinalReply
            inlineFinalCallID = nil
            inlineFinalReply = nil
            deliverOnLoop(reply, isFinal: true, policy: .queue, callID: callID)
        }
        guard let method else {
            // Answered inline (unless the immediate handler keeps the call open): the sink may
            // serve the next call.
            if active == nil { spareSink = sink }
            return
        }
        let service = context.service
        let peer = self.peer
        Task(executorPreference: loop) {
            await service.handleAsynchronously(call, with: method, peer: peer, replies: sink)
        }
    }

    /// The sink of the last call answered inline, made the sink of `call` (numbered
    /// ``lastCallID``), if nothing but this connection references it (a handler may have kept
    /// it) and it has the flags `call` needs; nil otherwise.
    private func reusableSink(for call: VarlinkCall) -> VarlinkReplySink? {
        var spare = spareSink
        spareSink = nil
        guard isKnownUniquelyReferenced(&spare), let sink = spare, sink.acceptsMore == call.more,
            sink.isOneway == call.oneway
        else { return nil }
        sink.reuse(forCallID: lastCallID)
        return sink
    }

    /// Answers a streaming call the limits refuse with the configured error (or nothing) and
    /// closes the connection once that is written: the client sees an error or a clean close.
    private func refuseStreaming(_ refusal: ConnectionAdmission.Refusal) {
        context.count { $0.refusedStreamingCalls += 1 }
        context.logRefusal(refusal, peer: peer)
        if let error = context.configuration.streamingLimitError {
            output.append(VarlinkReply(error: error).framed().framedBytes)
        }
        closesAfterFlush = true
        flush()
    }

    /// Gives back the streaming slot of the call that just ended, if it held one.
    func releaseStreamingSlot() {
        guard holdsStreamingSlot else { return }
        holdsStreamingSlot = false
        context.releaseStreamingCall(of: peer)
    }

    // MARK: - Replies

    func deliver(
        _ reply: VarlinkEncodedReply?,
        isFinal: Bool,
        policy: VarlinkBacklogPolicy,
        callID: UInt64,
        isFirst: Bool
    ) {
        // The only reply of a call answered inline: start(_:route:) queues it once the sink's
        // lock is released (isStarting is read only on the loop thread).
        if isFinal, isFirst, loop.isOnLoop, isStarting {
            inlineFinalCallID = callID
            inlineFinalReply = reply
            return
        }
        // On the loop thread this runs right after the sink's lock is released, before the
        // loop waits again; from elsewhere at the loop's next wake-up.
        loop.submit(ReplyDelivery(connection: self, reply: reply, isFinal: isFinal, policy: policy, callID: callID))
    }

    /// Whether a reply for `callID` belongs to the streaming call this connection is running:
    /// such replies take the loop's push lane. Loop thread.
    func isStreaming(callID: UInt64) -> Bool {
        guard let active, active.id == callID else { return false }
        return active.sink.acceptsMore
    }

    func deliverOnLoop(
        _ reply: VarlinkEncodedReply?,
        isFinal: Bool,
        policy: VarlinkBacklogPolicy,
        callID: UInt64
    ) {
        guard !isClosed, let call = active, call.id == callID else { return }
        // Read once and kept up to date, not read again for the limit below: every access to
        // the queue is a dynamic exclusivity check.
        var unsent = output.byteCount
        if let reply {
            if !isFinal, policy == .replacePending, unsent > context.configuration.outputBacklogLimit {
                if coalesced != nil { context.count { $0.coalescedReplies += 1 } }
                coalesced = reply
            } else {
                appendCoalesced()
                unsent = output.append(reply.framedBytes)
            }
        }
        if isFinal {
            active = nil
            releaseStreamingSlot()
            lastActivity = loop.now()
        }
        let maxOutputBytes = context.configuration.maxOutputBytes
        if unsent > maxOutputBytes {
            context.count { $0.droppedSlowClients += 1 }
            context.log(.warning) {
                "dropping client \(self.peer): \(self.output.byteCount) bytes unsent, limit \(maxOutputBytes)"
            }
            close()
            return
        }
        flush()
        // A flush that wrote everything has already run processInput (or closed); only with
        // output still pending must the next buffered call be started from here (unless this
        // reply came inline, from within processInput, which goes on by itself).
        if isFinal, !output.isEmpty { processInput() }
    }

    func appendCoalesced() {
        if let held = coalesced {
            coalesced = nil
            output.append(held.framedBytes)
        }
    }
}

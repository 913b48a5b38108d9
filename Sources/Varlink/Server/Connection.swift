internal import LogCore

#if canImport(Glibc)
    internal import Glibc
#endif

/// One accepted client: its fd, its input and output buffers, and the call it is running, all
/// served by the server's ``EventLoop``.
///
/// Life of a call: readiness fills ``input`` (``handleEvents(_:)``); ``processInput()`` takes
/// one complete message at a time, only while no call is active, so replies go out strictly in
/// call order. A call whose answer is ready (a routing error, `org.varlink.service`, a method's
/// immediate handler) is answered inline: its final reply is queued and written at once, in the
/// same wake-up (``VarlinkReplySink/finishInline(_:)``). Others run as a task preferring the
/// loop as its executor; their replies come back through the ``VarlinkReplySink``
/// (``deliver(_:isFinal:policy:callID:streaming:)``), are queued and written on the loop thread
/// (a push to a connection with nothing queued is written straight from its delivery,
/// ``ConnectionState/sendPush(_:callID:context:fd:now:splicer:)``, or with the slice's other
/// pushes of its reply by one fan-out, ``PushBatch``); the final reply clears the
/// active call and the next buffered call starts.
///
/// The mutable fields are one ``ConnectionState``, worked on through a few mutating methods per
/// call: each access to a class's stored `var` was a dynamic exclusivity check, and still is in
/// debug builds.
///
/// The fd is in the loop's epoll set only while the connection wants something: input while it
/// reads (not after EOF, not while more than a whole message waits), `EPOLLOUT` while output is
/// pending. A `more` call takes a streaming slot from the server's ``ConnectionAdmission`` for
/// as long as it is active; one the limits refuse is answered with the configured error, and
/// the connection closes once that is written (``closesAfterFlush``).
///
/// Concurrency: `@unchecked Sendable` because **every mutable field is touched only on the
/// loop thread**; ``deliver(_:isFinal:policy:callID:streaming:)``, the one entry point other threads
/// use, only submits work to the loop.
final class Connection: EventLoopHandler, ReplyTransport, @unchecked Sendable {
    let fd: Int32
    let peer: VarlinkPeer
    let context: ServerContext
    let loop: EventLoop
    // Not checked for exclusive access at run time in release builds (`@exclusivity(unchecked)`,
    // SE-0176; 7 checks a call, issue 17): only the loop thread touches it (or, once the loop has
    // stopped, its serial fallback queue, ordered after it by the inbox lock), one mutating
    // method of ConnectionState at a time, and those call out to nothing that could come back
    // here (see ConnectionState). Debug builds, which run the tests, keep checking.
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    var state: ConnectionState

    init(fd: Int32, peer: VarlinkPeer, context: ServerContext, loop: EventLoop) {
        self.fd = fd
        self.peer = peer
        self.context = context
        self.loop = loop
        self.state = ConnectionState(maxMessageSize: context.configuration.maxMessageSize, now: loop.now())
    }

    /// Registers with the loop and starts reading. Loop thread, once, right after accept.
    ///
    /// - Returns: false when the fd cannot be watched (`epoll_ctl` failed); the connection is
    ///   closed then.
    @discardableResult
    func start() -> Bool {
        state.token = loop.register(self)
        settle()
        return !state.isClosed
    }

    /// Closes the connection from any thread (server shutdown).
    func closeSoon() {
        loop.submit { [self] in close() }
    }

    // MARK: - Events

    func handleEvents(_ events: UInt32) {
        let work = state.work(for: events)
        if work.hungUp {
            // A streaming call's client is gone (or its socket failed) while nothing was read:
            // it unsubscribed.
            close()
            return
        }
        if work.flush { flush() }
        if work.read, !state.isClosed { handleReadable() }
    }

    /// ``ConnectionState/settle(fd:loop:context:)``: the epoll interest and the timer for what
    /// the connection wants now; closes it when the fd cannot be watched.
    func settle() {
        let code = state.settle(fd: fd, loop: loop, context: context)
        if code != 0 { failedToWatch(code) }
    }

    /// ``ConnectionState/updateInterest(fd:loop:context:)``, closing when it fails.
    func updateInterest() {
        let code = state.updateInterest(fd: fd, loop: loop, context: context)
        if code != 0 { failedToWatch(code) }
    }

    private func failedToWatch(_ code: Int32) {
        context.log(.error) { "connection \(self.peer): epoll_ctl: \(SystemError.name(of: code))" }
        close()
    }

    // MARK: - Reading

    private func handleReadable() {
        // The loop's time, read once for the whole call (each read is an exclusivity check).
        let now = loop.now()
        let received = state.receive(
            from: fd,
            into: loop.scratch,
            limit: context.configuration.maxMessageSize,
            now: now
        )
        switch received {
        case .received:
            processInput(now: now)
        case .failed(let code):
            context.log(.debug) { "connection \(self.peer): recv: \(SystemError.name(of: code))" }
            close()
        case .unsubscribed:
            // Closed, not just half-closed, during a `more` call: that is how a Varlink client
            // unsubscribes (varlink-and-systemd.md §3).
            close()
        }
    }

    /// Starts the next buffered call if none is active and the client is keeping up; closes
    /// the connection on a protocol violation, or after the last answer once input has ended.
    /// Called again from within (a call answered inline), it returns: the running one goes on.
    ///
    /// - Parameter now: the loop's time (``EventLoop/now()``) when the caller has read it.
    func processInput(now: UInt64? = nil) {
        // The parameter storage to reuse is held here while the calls run.
        guard var spare = state.beginProcessingInput() else { return }
        let backlogLimit = context.configuration.outputBacklogLimit
        while true {
            switch state.nextCall(context: context, backlogLimit: backlogLimit, reusing: &spare, transport: self) {
            case .none:
                let code = state.endProcessingInput(consume spare, fd: fd, loop: loop, context: context)
                if code != 0 { failedToWatch(code) }
                return
            case .endOfInput:
                state.isProcessingInput = false
                close()
                return
            case .violation(let error):
                state.isProcessingInput = false
                protocolViolation(error)
                return
            case .repeated:
                let now = now ?? loop.now()
                handle(state.finishRepeated(context: context, fd: fd, now: now, splicer: loop.splicer))
            case .call(let call, let route, let sink):
                var finished = start(call, route: route, sink: sink, now: now)
                // Once it has run, the call holds the only reference to its parameters'
                // storage, which is then emptied in place for the next call.
                spare = finished.recycleParameters()
            }
        }
    }

    private func protocolViolation(_ error: VarlinkProtocolError) {
        context.count { $0.protocolErrors += 1 }
        context.logProtocolError(error, peer: peer)
        close()
    }

    /// Runs `call`, made the active call with `sink` (nil: a streaming call, which takes a
    /// streaming slot first).
    ///
    /// - Returns: the call, moved into the handler's request and back out of it (no copy of
    ///   the call and no request made per handler, issue 17).
    private func start(
        _ call: consuming VarlinkCall,
        route: MethodRoutes.Route?,
        sink: VarlinkReplySink?,
        now: UInt64?
    ) -> VarlinkCall {
        let sink = sink ?? admitStreaming(call)
        guard let sink else { return call }
        let request = VarlinkRequest(call: call, peer: peer, replies: sink)
        let immediate: VarlinkService.Immediate
        if request.call.upgrade {
            // This library speaks nothing but Varlink; refuse rather than pretend to upgrade.
            immediate = .answered(VarlinkReply(error: .invalidParameter("upgrade")).framed())
        } else {
            immediate = context.service.handleImmediately(request, routed: route)
        }
        switch immediate {
        case .answered(let reply, let validity):
            // Queued and written here, with no hop, unless an earlier reply went through the
            // sink's transport (which the final one then follows).
            if sink.finishInline(reply) {
                if let validity, !sink.isOneway, !sink.acceptsMore { state.repeated.remember(reply, while: validity) }
                answerInline(sink.isOneway ? nil : reply, sink: sink, now: now ?? loop.now())
            }
        case .handled:
            break
        case .needsHandler(let method):
            let service = context.service
            Task(executorPreference: loop) {
                await service.handleAsynchronously(request, with: method)
            }
        }
        return request.takeCall()
    }

    /// Queues and writes the final reply of the active call, answered inline; the sink is kept
    /// for the next call.
    private func answerInline(_ reply: VarlinkEncodedReply?, sink: VarlinkReplySink, now: UInt64) {
        handle(
            state.finishInline(
                reply,
                sink: sink,
                of: peer,
                context: context,
                fd: fd,
                now: now,
                splicer: loop.splicer
            )
        )
    }

    /// Acts on how writing a reply answered inline went.
    private func handle(_ written: ConnectionState.Written) {
        switch written {
        case .drained:
            // processInput, which runs this, goes on and settles interest and timer.
            break
        case .blocked:
            context.count { $0.fullSocketWrites += 1 }
        case .failed(let code):
            context.log(.debug) { "connection \(self.peer): send: \(SystemError.name(of: code))" }
            close()
        case .overLimit(let unsent):
            dropSlowClient(unsent: unsent)
        case .closeNow:
            close()
        }
    }

    /// A streaming call's sink, once it has a slot; nil when the limits refuse it (answered
    /// with the configured error, and the connection closes once that is written).
    private func admitStreaming(_ call: VarlinkCall) -> VarlinkReplySink? {
        if let refusal = context.admitStreamingCall(of: peer) {
            refuseStreaming(refusal)
            return nil
        }
        state.holdsStreamingSlot = true
        return state.activate(more: call.more, oneway: call.oneway, transport: self)
    }

    /// Answers a streaming call the limits refuse with the configured error (or nothing) and
    /// closes the connection once that is written: the client sees an error or a clean close.
    private func refuseStreaming(_ refusal: ConnectionAdmission.Refusal) {
        context.count { $0.refusedStreamingCalls += 1 }
        context.logRefusal(refusal, peer: peer)
        if let error = context.configuration.streamingLimitError {
            state.output.append(VarlinkReply(error: error).framed().framedBytes)
        }
        state.closesAfterFlush = true
        flush()
    }

    // MARK: - Replies

    func deliver(
        _ reply: VarlinkEncodedReply?,
        isFinal: Bool,
        policy: VarlinkBacklogPolicy,
        callID: UInt64,
        streaming: Bool
    ) {
        // On the loop thread this runs right after the current item (the sink's lock is then
        // released), before the loop waits again; from elsewhere at the loop's next wake-up.
        loop.submit(
            ReplyDelivery(
                connection: self,
                reply: reply,
                isFinal: isFinal,
                policy: policy,
                callID: callID,
                isStreaming: streaming
            )
        )
    }

    func deliverOnLoop(
        _ reply: VarlinkEncodedReply?,
        isFinal: Bool,
        policy: VarlinkBacklogPolicy,
        callID: UInt64
    ) {
        if !isFinal, let reply,
            let written = state.sendPush(
                reply,
                callID: callID,
                context: context,
                fd: fd,
                now: loop.now(),
                splicer: loop.splicer
            )
        {
            // Written whole, the usual case: nothing else changes (see settle(afterWriting:)).
            if case .drained = written { return }
            settle(afterWriting: written)
            return
        }
        let queued = state.queue(
            reply,
            isFinal: isFinal,
            policy: policy,
            callID: callID,
            of: peer,
            context: context,
            now: loop.now()
        )
        guard let unsent = queued else { return }
        if unsent > context.configuration.maxOutputBytes {
            dropSlowClient(unsent: unsent)
            return
        }
        // A socket found full waits for EPOLLOUT (level-triggered): writing now would only find
        // it full again, after teeing a push into the scratch pipe and taking it back out.
        if state.interest & EventLoop.writable == 0 { flush() }
        // A flush that wrote everything has already run processInput (or closed); only with
        // output still pending must the next buffered call be started from here (unless this
        // reply came inline, from within processInput, which goes on by itself).
        if isFinal, !state.output.isEmpty { processInput() }
    }

    /// Finishes a push that a fan-out wrote straight to the socket (``PushBatch``, after
    /// ``ConnectionState/takesDirectPush(byteCount:callID:context:)``): queues what the socket did not
    /// take, as ``deliverOnLoop(_:isFinal:policy:callID:)`` does.
    func finishDirectPush(_ reply: VarlinkEncodedReply, after sent: Socket.Transfer) {
        settle(afterWriting: state.finishPush(reply, after: sent, now: loop.now()))
    }

    func dropSlowClient(unsent: Int) {
        let maxOutputBytes = context.configuration.maxOutputBytes
        context.count { $0.droppedSlowClients += 1 }
        context.log(.warning) { "dropping client \(self.peer): \(unsent) bytes unsent, limit \(maxOutputBytes)" }
        close()
    }
}

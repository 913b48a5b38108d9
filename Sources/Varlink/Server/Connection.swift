internal import Dispatch

#if canImport(Glibc)
    internal import Glibc
#endif

/// One accepted client: its fd, a private serial queue, and the Dispatch sources and buffers
/// that serve it (swift-on-linux.md §5.1 point 3).
///
/// Life of a call: the read source fills ``input``; ``processInput()`` takes one complete
/// message at a time, only while no call is active, so replies go out strictly in call order;
/// the call runs as a task preferring this connection's queue (``QueueTaskExecutor``); its
/// replies come back through the ``VarlinkReplySink`` (``deliver(_:isFinal:policy:callID:)``),
/// are appended to ``output`` and written with `MSG_NOSIGNAL`; the final reply clears
/// ``active`` and the next buffered call starts.
///
/// A `more` call takes a streaming slot from the server's ``ConnectionAdmission`` for as long
/// as it is active; one the limits refuse is answered with the configured error, and the
/// connection closes once that is written (``closesAfterFlush``).
///
/// Concurrency: `@unchecked Sendable` because **every mutable field is touched only on
/// `queue`**; the sources' handlers, the timer and `deliver`'s hop all run there. The fd is
/// closed only in the read source's cancel handler, after the write source (if any) has been
/// cancelled, so no source ever watches a closed or reused fd.
final class Connection: @unchecked Sendable, ReplyTransport {
    let fd: Int32
    let peer: VarlinkPeer
    let queue: DispatchQueue
    let context: ServerContext
    let executor: QueueTaskExecutor

    var readSource: (any DispatchSourceRead)?
    var writeSource: (any DispatchSourceWrite)?
    var timer: (any DispatchSourceTimer)?
    var isReadSuspended = false
    var isWriteSuspended = false

    var input: VarlinkFrameSplitter
    /// The client shut down its sending side; answer what is buffered, then close.
    var inputEnded = false

    /// Unsent replies, oldest first; `output[outputStart]` is partly sent up to `outputOffset`.
    var output: [[UInt8]] = []
    var outputStart = 0
    var outputOffset = 0
    var outputBytes = 0
    /// The held-back push while backlogged (``VarlinkBacklogPolicy/replacePending``).
    var coalesced: VarlinkEncodedReply?

    struct ActiveCall {
        var id: UInt64
        var sink: VarlinkReplySink
    }
    var active: ActiveCall?
    var lastCallID: UInt64 = 0

    var isClosed = false
    /// The active call holds one of the server's streaming-call slots (a `more` call).
    var holdsStreamingSlot = false
    /// A refused streaming call's error is being written; the connection closes once it is out
    /// and takes no further input.
    var closesAfterFlush = false
    /// Uptime (ns) of the last input or finished call, for the idle timeout.
    var lastActivity: UInt64
    /// Uptime (ns) since which pending output has made no progress.
    var stalledSince: UInt64?
    /// The deadline the timer is armed for, if any.
    var timerDeadline: UInt64?

    init(fd: Int32, peer: VarlinkPeer, context: ServerContext) {
        self.fd = fd
        self.peer = peer
        self.context = context
        self.queue = DispatchQueue(label: "varlink.connection")
        self.executor = QueueTaskExecutor(queue: queue)
        self.input = VarlinkFrameSplitter(maxMessageSize: context.configuration.maxMessageSize)
        self.lastActivity = DispatchTime.now().uptimeNanoseconds
    }

    /// Creates and resumes the sources. Called once, right after accept.
    func start() {
        queue.async { [self] in
            let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            read.setEventHandler { [self] in executor.drain { handleReadable() } }
            read.setCancelHandler { [self] in finishClosing() }
            readSource = read
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [self] in executor.drain { handleTimer() } }
            self.timer = timer
            timer.resume()
            read.resume()
            updateTimer()
        }
    }

    /// Closes the connection from any thread (server shutdown).
    func closeSoon() {
        executor.submit { [self] in close() }
    }

    // MARK: - Reading

    private static let readChunk = 64 * 1024

    private func handleReadable() {
        guard !isClosed, !inputEnded else { return }
        let limit = context.configuration.maxMessageSize
        var failed: Int32?
        readLoop: while input.bufferedByteCount <= limit {
            let result = withUnsafeTemporaryAllocation(byteCount: Self.readChunk, alignment: 1) { buffer in
                let result = Socket.receive(fd, into: buffer)
                if case .done(let n) = result { input.append(UnsafeRawBufferPointer(rebasing: buffer[..<n])) }
                return result
            }
            switch result {
            case .done: continue
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
        lastActivity = DispatchTime.now().uptimeNanoseconds
        // The kernel reports EOF as readable for ever; stop listening and answer what we have.
        // Reading also pauses while more than a whole message is buffered (pipelining
        // backpressure); processInput resumes it.
        if inputEnded || input.bufferedByteCount > limit { suspendReading() }
        processInput()
    }

    private func suspendReading() {
        guard !isReadSuspended, let readSource else { return }
        readSource.suspend()
        isReadSuspended = true
    }

    private func resumeReading() {
        guard isReadSuspended, !inputEnded, !closesAfterFlush, let readSource else { return }
        readSource.resume()
        isReadSuspended = false
    }

    /// Starts the next buffered call if none is active and the client is keeping up; closes
    /// the connection on a protocol violation, or after the last answer once input has ended.
    func processInput() {
        while !isClosed, !closesAfterFlush, active == nil, outputBytes <= context.configuration.outputBacklogLimit {
            let message: [UInt8]?
            do throws(VarlinkProtocolError) {
                message = try input.next()
            } catch {
                protocolViolation(error)
                return
            }
            guard let message else {
                if inputEnded {
                    // Everything complete has been answered; a partial message cannot complete.
                    if outputBytes == 0 { close() }
                    return
                }
                break
            }
            let call: VarlinkCall
            do throws(VarlinkProtocolError) {
                call = try VarlinkCall(decoding: message)
            } catch {
                protocolViolation(error)
                return
            }
            start(call)
        }
        if input.bufferedByteCount <= context.configuration.maxMessageSize { resumeReading() }
        updateTimer()
    }

    private func protocolViolation(_ error: VarlinkProtocolError) {
        context.count { $0.protocolErrors += 1 }
        context.log(.notice) { "dropping client \(self.peer): \(error)" }
        close()
    }

    private func start(_ call: VarlinkCall) {
        if call.more, !call.oneway {
            if let refusal = context.admitStreamingCall(of: peer) {
                refuseStreaming(refusal)
                return
            }
            holdsStreamingSlot = true
        }
        lastCallID &+= 1
        let sink = VarlinkReplySink(call: call, transport: self, callID: lastCallID)
        active = ActiveCall(id: lastCallID, sink: sink)
        if call.upgrade {
            // This library speaks nothing but Varlink; refuse rather than pretend to upgrade.
            sink.send(VarlinkReply(error: .invalidParameter("upgrade")))
            return
        }
        let service = context.service
        let peer = self.peer
        Task(executorPreference: executor) {
            await service.handle(call, peer: peer, replies: sink)
        }
    }

    /// Answers a streaming call the limits refuse with the configured error (or nothing) and
    /// closes the connection once that is written: the client sees an error or a clean close.
    private func refuseStreaming(_ refusal: ConnectionAdmission.Refusal) {
        context.count { $0.refusedStreamingCalls += 1 }
        context.logRefusal(refusal, peer: peer)
        if let error = context.configuration.streamingLimitError {
            append(VarlinkReply(error: error).framed().framedBytes)
        }
        closesAfterFlush = true
        suspendReading()
        flush()
    }

    /// Gives back the streaming slot of the call that just ended, if it held one.
    func releaseStreamingSlot() {
        guard holdsStreamingSlot else { return }
        holdsStreamingSlot = false
        context.releaseStreamingCall(of: peer)
    }

    // MARK: - Replies

    func deliver(_ reply: VarlinkEncodedReply?, isFinal: Bool, policy: VarlinkBacklogPolicy, callID: UInt64) {
        // Inline when called on the queue: then it runs after the sink's lock is released.
        executor.submit { [self] in
            deliverOnQueue(reply, isFinal: isFinal, policy: policy, callID: callID)
        }
    }

    private func deliverOnQueue(
        _ reply: VarlinkEncodedReply?,
        isFinal: Bool,
        policy: VarlinkBacklogPolicy,
        callID: UInt64
    ) {
        guard !isClosed, let call = active, call.id == callID else { return }
        let configuration = context.configuration
        if let reply {
            if !isFinal, policy == .replacePending, outputBytes > configuration.outputBacklogLimit {
                if coalesced != nil { context.count { $0.coalescedReplies += 1 } }
                coalesced = reply
            } else {
                appendCoalesced()
                append(reply.framedBytes)
            }
        }
        if isFinal {
            active = nil
            releaseStreamingSlot()
            lastActivity = DispatchTime.now().uptimeNanoseconds
        }
        if outputBytes > configuration.maxOutputBytes {
            context.count { $0.droppedSlowClients += 1 }
            context.log(.warning) {
                "dropping client \(self.peer): \(self.outputBytes) bytes unsent, limit \(configuration.maxOutputBytes)"
            }
            close()
            return
        }
        flush()
        if isFinal { processInput() }
    }

    func appendCoalesced() {
        if let held = coalesced {
            coalesced = nil
            append(held.framedBytes)
        }
    }

    private func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        output.append(bytes)
        outputBytes += bytes.count
    }

    /// The oldest unsent chunk and how much of it is already sent.
    var firstOutputChunk: (bytes: [UInt8], offset: Int)? {
        outputStart < output.count ? (output[outputStart], outputOffset) : nil
    }

    /// Marks `count` bytes of the oldest chunk as sent, dropping finished chunks.
    func consumeOutput(_ count: Int) {
        outputOffset += count
        outputBytes -= count
        while outputStart < output.count, outputOffset >= output[outputStart].count {
            outputOffset -= output[outputStart].count
            outputStart += 1
        }
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.capacity <= 64)
            outputStart = 0
        } else if outputStart >= 64, outputStart * 2 >= output.count {
            output.removeSubrange(0..<outputStart)
            outputStart = 0
        }
    }
}

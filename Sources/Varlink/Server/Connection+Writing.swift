internal import Dispatch

#if canImport(Glibc)
    internal import Glibc
#endif

/// Writing, timeouts and closing; all on the connection's queue (see ``Connection``).
extension Connection {
    // MARK: - Writing

    /// Writes as much pending output as the socket takes. On `EAGAIN` the write source is armed;
    /// when everything is out it is suspended again, a held-back push is queued, and calls
    /// paused by the backlog resume.
    func flush() {
        var progressed = false
        while let failure = writePending(progressed: &progressed) {
            switch failure {
            case .wouldBlock:
                if progressed || stalledSince == nil { stalledSince = DispatchTime.now().uptimeNanoseconds }
                armWriteSource()
                updateTimer()
                return
            case .failed(let code):
                context.log(.debug) { "connection \(self.peer): send: \(SystemError.name(of: code))" }
                close()
                return
            }
        }
        // All written.
        stalledSince = nil
        if closesAfterFlush {
            close()
            return
        }
        disarmWriteSource()
        if coalesced != nil {
            appendCoalesced()
            flush()
            return
        }
        if active == nil { processInput() }
        updateTimer()
    }

    enum WriteFailure {
        case wouldBlock
        case failed(Int32)
    }

    /// Sends queued chunks until done (nil) or the socket refuses.
    private func writePending(progressed: inout Bool) -> WriteFailure? {
        while let chunk = firstOutputChunk {
            let result = chunk.bytes.withUnsafeBytes { raw in
                Socket.send(fd, UnsafeRawBufferPointer(rebasing: raw[chunk.offset...]))
            }
            switch result {
            case .done(let n):
                progressed = true
                consumeOutput(n)
            case .wouldBlock: return .wouldBlock
            case .failed(let code): return .failed(code)
            case .endOfFile: return .failed(EPIPE)
            }
        }
        return nil
    }

    private func armWriteSource() {
        if let writeSource {
            if isWriteSuspended {
                writeSource.resume()
                isWriteSuspended = false
            }
            return
        }
        let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [self] in executor.drain { flush() } }
        // Cancelling the write source is the first step of closing; the fd stays open until
        // the read source's cancel handler, which runs after this one.
        source.setCancelHandler { [self] in cancelReadSource() }
        writeSource = source
        source.resume()
    }

    private func disarmWriteSource() {
        guard let writeSource, !isWriteSuspended else { return }
        writeSource.suspend()
        isWriteSuspended = true
    }

    // MARK: - Timeouts

    /// Arms the timer for the nearest deadline that applies: stalled output, else idleness (no
    /// call in progress). Activity only moves deadlines later, so an armed timer is left alone
    /// unless the new deadline is earlier; when it fires, ``handleTimer()`` re-checks.
    func updateTimer() {
        guard !isClosed, let timer, let deadline = currentDeadline() else { return }
        if let armed = timerDeadline, armed <= deadline { return }
        timerDeadline = deadline
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(20))
    }

    private func currentDeadline() -> UInt64? {
        let configuration = context.configuration
        if let stalledSince {
            return stalledSince &+ configuration.stalledWriteTimeout.nanoseconds
        }
        if active == nil, outputBytes == 0 {
            return lastActivity &+ configuration.idleTimeout.nanoseconds
        }
        return nil
    }

    func handleTimer() {
        timerDeadline = nil
        guard !isClosed else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        if let deadline = currentDeadline(), deadline <= now {
            if stalledSince != nil {
                context.count { $0.droppedSlowClients += 1 }
                context.log(.warning) { "dropping client \(self.peer): no output progress for the stall timeout" }
            } else {
                context.count { $0.idleTimeouts += 1 }
                context.log(.debug) { "closing idle client \(self.peer)" }
            }
            close()
            return
        }
        updateTimer()
    }
}

extension Connection {
    // MARK: - Closing

    /// Closes the connection: ends the active call's sink and cancels the sources. The fd is
    /// closed later, in the read source's cancel handler (swift-on-linux.md §5.1).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        let sink = active?.sink
        active = nil
        releaseStreamingSlot()
        output = []
        outputBytes = 0
        coalesced = nil
        timer?.cancel()
        if let writeSource {
            // A suspended source must be resumed before it can be cancelled and released.
            if isWriteSuspended {
                writeSource.resume()
                isWriteSuspended = false
            }
            writeSource.cancel()  // its cancel handler cancels the read source
        } else {
            cancelReadSource()
        }
        sink?.markClosed()
    }

    func cancelReadSource() {
        guard let readSource else {
            finishClosing()
            return
        }
        if isReadSuspended {
            readSource.resume()
            isReadSuspended = false
        }
        readSource.cancel()
    }

    /// The read source's cancel handler: no source watches the fd any more.
    func finishClosing() {
        Socket.close(fd)
        readSource = nil
        writeSource = nil
        timer = nil
        context.remove(self)
    }
}

extension Duration {
    /// Whole nanoseconds, saturating; negative durations count as zero.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return UInt64.max / 2 }
        return whole &+ UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}

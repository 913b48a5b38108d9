internal import LogCore

/// Writing, timeouts and closing; all on the loop thread (see ``Connection``).
extension Connection {
    // MARK: - Writing

    /// Writes as much pending output as the socket takes. On `EAGAIN` the fd is watched for
    /// `EPOLLOUT`; when everything is out that stops, a held-back push is queued, and calls
    /// paused by the backlog resume.
    func flush() {
        switch output.write(to: fd) {
        case .wouldBlock(let progressed):
            if progressed || stalledSince == nil { stalledSince = loop.now() }
            updateInterest()
            updateTimer()
            return
        case .failed(let code):
            context.log(.debug) { "connection \(self.peer): send: \(SystemError.name(of: code))" }
            close()
            return
        case .done:
            break
        }
        stalledSince = nil
        if closesAfterFlush {
            close()
            return
        }
        if coalesced != nil {
            appendCoalesced()
            flush()
            return
        }
        if active == nil {
            // Within processInput (a call answered inline), it goes on and updates both itself.
            processInput()  // updates interest and timer
        } else if interest & EventLoop.writable != 0 {
            updateInterest()
            updateTimer()
        }
        // Else (a push written at once, the usual case): a write changes neither what the input
        // wants nor, while a call is active and nothing is stalled, any deadline, so both stay
        // as they are, with no check per subscriber.
    }

    // MARK: - Timeouts

    /// Arms a timer for the nearest deadline that applies: stalled output, else idleness (no
    /// call in progress). Activity only moves deadlines later, so an armed timer is left alone
    /// unless the new deadline is earlier; when it fires, ``handleTimer(_:)`` re-checks.
    func updateTimer() {
        guard !isClosed, let deadline = currentDeadline() else { return }
        if let armed = timerDeadline, armed <= deadline { return }
        timerDeadline = deadline
        loop.schedule(at: deadline, for: token)
    }

    private func currentDeadline() -> UInt64? {
        if let stalledSince {
            return stalledSince &+ context.stalledWriteTimeoutNanoseconds
        }
        if active == nil, output.isEmpty {
            return lastActivity &+ context.idleTimeoutNanoseconds
        }
        return nil
    }

    /// A timer armed for `deadline` fired; one replaced by an earlier deadline is ignored.
    func handleTimer(_ deadline: UInt64) {
        guard !isClosed, timerDeadline == deadline else { return }
        timerDeadline = nil
        if let current = currentDeadline(), current <= loop.now() {
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

    // MARK: - Closing

    /// Closes the connection at once: ends the active call's sink, takes the fd out of the
    /// epoll set, closes it and gives back the connection's admission slots. Nothing else
    /// watches the fd, so closing it here cannot race a reader.
    func close() {
        guard !isClosed else { return }
        _ = loop.setInterest(fd, token: token, from: interest, to: 0)
        isClosed = true
        interest = 0
        let sink = active?.sink
        active = nil
        spareSink = nil  // it references this connection (its transport)
        releaseStreamingSlot()
        output.removeAll()
        coalesced = nil
        loop.unregister(token)
        Socket.close(fd)
        context.remove(self)
        sink?.markClosed()
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

internal import LogCore

/// Writing, timeouts and closing; all on the loop thread (see ``Connection``).
extension Connection {
    // MARK: - Writing

    /// Writes as much pending output as the socket takes. On `EAGAIN` the fd is watched for
    /// `EPOLLOUT`; when everything is out that stops, a held-back push is queued, and calls
    /// paused by the backlog resume.
    func flush() {
        settle(afterWriting: state.write(to: fd, now: loop.now(), splicer: loop.splicer))
    }

    /// Acts on how a write went: watches for `EPOLLOUT` when the socket was full, closes on an
    /// error, and when everything is out, starts the next call or stops watching output.
    func settle(afterWriting written: ConnectionState.Written) {
        switch written {
        case .blocked:
            context.count { $0.fullSocketWrites += 1 }
            settle()
        case .failed(let code):
            context.log(.debug) { "connection \(self.peer): send: \(SystemError.name(of: code))" }
            close()
        case .closeNow:
            close()
        case .overLimit(let unsent):
            dropSlowClient(unsent: unsent)
        case .drained:
            // One read for both: each is an exclusivity check.
            let (callEnded, watchingOutput) = (state.active == nil, state.interest & EventLoop.writable != 0)
            if callEnded {
                // Within processInput (a call answered inline), it goes on and settles itself.
                processInput()  // settles interest and timer
            } else if watchingOutput {
                settle()
            }
        // Else (a push written at once, the usual case): a write changes neither what the
        // input wants nor, while a call is active and nothing is stalled, any deadline, so both
        // stay as they are, with no check per subscriber.
        }
    }

    /// Writes what the socket takes of the pending output and nothing more (no call starts):
    /// at shutdown, before ``close()``, for a connection that was waiting for `EPOLLOUT` when
    /// its last pushes were queued.
    func writeBeforeClose() {
        guard !state.isClosed else { return }
        _ = state.write(to: fd, now: loop.now(), splicer: loop.splicer)
    }

    // MARK: - Timeouts

    /// A timer armed for `deadline` fired; one replaced by an earlier deadline is ignored.
    func handleTimer(_ deadline: UInt64) {
        guard !state.isClosed, state.timerDeadline == deadline else { return }
        state.timerDeadline = nil
        if let current = state.currentDeadline(context: context), current <= loop.now() {
            if state.stalledSince != nil {
                context.count { $0.droppedSlowClients += 1 }
                context.log(.warning) { "dropping client \(self.peer): no output progress for the stall timeout" }
            } else {
                context.count { $0.idleTimeouts += 1 }
                context.log(.debug) { "closing idle client \(self.peer)" }
            }
            close()
            return
        }
        state.updateTimer(loop: loop, context: context)
    }

    // MARK: - Closing

    /// Closes the connection at once: ends the active call's sink, takes the fd out of the
    /// epoll set, closes it and gives back the connection's admission slots. Nothing else
    /// watches the fd, so closing it here cannot race a reader.
    func close() {
        guard !state.isClosed else { return }
        _ = loop.setInterest(fd, token: state.token, from: state.interest, to: 0)
        let sink = state.active?.sink
        state.isClosed = true
        state.interest = 0
        state.active = nil
        state.spareSink = nil  // it references this connection (its transport)
        state.releaseStreamingSlot(of: peer, context: context)
        state.output.removeAll()
        state.coalesced = nil
        loop.unregister(state.token)
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

internal import Synchronization

/// Where the replies to one call go; a method handler gets it in ``VarlinkRequest/replies``.
///
/// A plain call needs nothing of it: the handler returns ``VarlinkOutcome/reply(_:)``. A `more`
/// call may ``send(_:ifBacklogged:)`` replies with `continues: true` before returning its final
/// reply; a subscription returns ``VarlinkOutcome/streaming``, keeps the sink, and pushes
/// replies whenever it likes until it sends a final one or the client goes away
/// (varlink-and-systemd.md §3). The sink is then *closed*: ``isClosed`` is true, sends return
/// ``VarlinkSendResult/closed``, handlers given to ``onClose(_:)`` have run once and
/// ``closed()`` returns, so a service can drop its subscribers without polling.
///
/// Backpressure: pushes sent with ``VarlinkBacklogPolicy/replacePending`` while the client has
/// more unsent output than the server's backlog limit are coalesced on the connection (latest
/// wins), so a slow subscriber costs bounded memory; a client whose output makes no progress
/// for the stall timeout is dropped. Both are server settings
/// (``VarlinkServerConfiguration``).
///
/// Sendable: its state is behind a `Mutex`; delivery to the connection is asynchronous and
/// keeps the order of `send` calls made from one task.
public final class VarlinkReplySink: Sendable {
    /// Whether the call asked for `more`. Replies with `continues: true` only make sense then.
    public let acceptsMore: Bool
    /// Whether the call was `oneway`: replies are discarded, but the final one still ends the
    /// call (so the next pipelined call starts).
    public let isOneway: Bool

    private let transport: any ReplyTransport
    private let state: Mutex<State>

    fileprivate struct State: ~Copyable {
        /// The call's number on its connection; a reused sink (``reuse(forCallID:)``) gets a new one.
        var callID: UInt64
        var isClosed = false
        /// A reply has gone to the transport (see ``finishInline(_:)``).
        var hasDelivered = false
        var closeHandlers: [@Sendable () -> Void] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    convenience init(call: VarlinkCall, transport: any ReplyTransport, callID: UInt64) {
        self.init(acceptsMore: call.more, isOneway: call.oneway, transport: transport, callID: callID)
    }

    init(acceptsMore: Bool, isOneway: Bool, transport: any ReplyTransport, callID: UInt64) {
        self.acceptsMore = acceptsMore
        self.isOneway = isOneway
        self.transport = transport
        self.state = Mutex(State(callID: callID))
    }

    /// Makes this sink, closed by its call's final reply and referenced by nothing but its
    /// connection (which checks `isKnownUniquelyReferenced`), the sink of the connection's next
    /// call with the same ``acceptsMore`` and ``isOneway``: a call answered inline then costs no
    /// sink allocation and release (issue 17, ``Connection``).
    func reuse(forCallID callID: UInt64) {
        state.withLock { $0 = State(callID: callID) }
    }

    /// True once the final reply was sent or the client went away.
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Sends one reply.
    ///
    /// A reply with `continues: true` keeps the call open; anything else (including an error)
    /// ends it. To a call without `more`, every reply is final: `continues` is cleared on a
    /// ``VarlinkReply``; a pre-encoded reply is sent as encoded, so encode it for the call.
    ///
    /// - Returns: ``VarlinkSendResult/closed`` when the sink no longer accepts replies.
    @discardableResult
    public func send(_ reply: VarlinkReply, ifBacklogged policy: VarlinkBacklogPolicy = .queue) -> VarlinkSendResult {
        var reply = reply
        if !acceptsMore { reply.continues = false }
        return send(reply.framed(), ifBacklogged: policy)
    }

    /// Sends one reply encoded once (e.g. the same bytes to every subscriber).
    @discardableResult
    public func send(
        _ encoded: VarlinkEncodedReply,
        ifBacklogged policy: VarlinkBacklogPolicy = .queue
    ) -> VarlinkSendResult {
        send(encoded, isFinal: !encoded.continues || !acceptsMore, policy: policy)
    }

    /// Runs `body`, which sends many replies at once (a push to every subscriber), and wakes
    /// each server loop they go to once, when it returns, rather than at the first reply.
    ///
    /// Why: a loop woken at the first reply starts writing while the sender is still handing it
    /// the rest, on the other core. A Unix socket wakes its reader as if the writer were about
    /// to sleep (`WF_SYNC`), so a client whose core is busy with that hand-over is queued on the
    /// loop's core, behind the whole fan-out. Handed over first, the fan-out starts with the
    /// other core free (issue 17: a push to 1 000 subscribers, four sets of alternating runs in
    /// both orders, a round median 0.2–0.6 ms lower). Replies keep their order. Anything else
    /// sent to those loops meanwhile, from any thread, waits for `body` too: keep it short and
    /// synchronous, a loop over sinks.
    public static func sendingTogether<Result>(_ body: () throws -> Result) rethrows -> Result {
        let batch = WakeBatch()
        defer { batch.wakeOwed() }
        return try WakeBatch.$current.withValue(batch) { try body() }
    }

    /// Sends the final reply, whatever its `continues` says (``VarlinkOutcome/encoded(_:)``).
    @discardableResult
    func sendFinal(_ encoded: VarlinkEncodedReply) -> VarlinkSendResult {
        send(encoded, isFinal: true, policy: .queue)
    }

    private func send(_ encoded: VarlinkEncodedReply, isFinal: Bool, policy: VarlinkBacklogPolicy) -> VarlinkSendResult
    {
        // Delivery happens under the lock (it only enqueues), so concurrent senders reach the
        // connection in the order they took the lock, and nothing follows the final reply.
        let outcome = state.withLock { state -> (sent: Bool, closing: Closing?) in
            if state.isClosed { return (false, nil) }
            state.hasDelivered = true
            transport.deliver(
                isOneway ? nil : encoded,
                isFinal: isFinal,
                policy: policy,
                callID: state.callID,
                streaming: acceptsMore
            )
            return (true, isFinal ? state.close() : nil)
        }
        outcome.closing?.run()
        return outcome.sent ? .sent : .closed
    }

    /// Ends the call with its final reply `encoded`, given back to the caller to queue rather
    /// than to the transport, when nothing was delivered before it (so it cannot overtake an
    /// earlier reply): the server's loop thread then writes a call answered inline with no hop
    /// (issue 17, ``Connection``). When a reply was delivered before, `encoded` goes through the
    /// transport after it, as ``sendFinal(_:)`` sends it.
    ///
    /// - Returns: true when the caller must queue the reply (nothing, for a oneway call) as the
    ///   call's final one; false when it went through the transport or the sink was closed.
    func finishInline(_ encoded: VarlinkEncodedReply) -> Bool {
        let outcome = state.withLock { state -> (inline: Bool, closing: Closing?) in
            if state.isClosed { return (false, nil) }
            let isFirst = !state.hasDelivered
            if !isFirst {
                transport.deliver(
                    isOneway ? nil : encoded,
                    isFinal: true,
                    policy: .queue,
                    callID: state.callID,
                    streaming: acceptsMore
                )
            }
            state.hasDelivered = true
            return (isFirst, state.close())
        }
        outcome.closing?.run()
        return outcome.inline
    }

    /// Runs `handler` once when the sink closes (at once if it already has). It runs on an
    /// arbitrary thread and must not block.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.isClosed { return true }
            state.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Returns when the sink has closed.
    public func closed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.isClosed { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// The connection went away (or the call ended); called by the transport.
    func markClosed() {
        state.withLock { state in state.isClosed ? nil : state.close() }?.run()
    }
}

/// What closing a sink must do once the lock is released.
private struct Closing {
    var handlers: [@Sendable () -> Void]
    var waiters: [CheckedContinuation<Void, Never>]

    func run() {
        for handler in handlers { handler() }
        for waiter in waiters { waiter.resume() }
    }
}

extension VarlinkReplySink.State {
    /// Marks the state closed and hands back what must run outside the lock.
    fileprivate mutating func close() -> Closing {
        isClosed = true
        defer {
            closeHandlers = []
            waiters = []
        }
        return Closing(handlers: closeHandlers, waiters: waiters)
    }
}

/// What ``VarlinkReplySink/send(_:ifBacklogged:)`` did.
public enum VarlinkSendResult: Sendable, Equatable {
    /// Handed to the connection (which may still coalesce it, see ``VarlinkBacklogPolicy``).
    case sent
    /// The call has ended or the client has gone; nothing was sent.
    case closed
}

/// What a connection does with a push while the client is behind (more unsent output than
/// ``VarlinkServerConfiguration/outputBacklogLimit``).
public enum VarlinkBacklogPolicy: Sendable, Equatable {
    /// Queue it behind the backlog. The connection is dropped if its unsent output passes
    /// ``VarlinkServerConfiguration/maxOutputBytes``.
    case queue
    /// Hold it as *the* pending push, replacing any push held before it: the client gets the
    /// latest state when it catches up. For state snapshots such as "manifest version N".
    case replacePending
}

/// The connection side of a sink. `deliver` is called from any thread, inside the sink's lock:
/// implementations only enqueue (hop to their own queue, preserving order) and must never call
/// back into the sink synchronously.
///
/// Class-bound: the sink calls its transport through a single reference, where an opaque
/// existential was copied out of its box (and the connection retained) for every reply
/// (callgrind, issue 17: a push to 1 000 subscribers).
protocol ReplyTransport: AnyObject, Sendable {
    /// - Parameters:
    ///   - reply: the framed reply, or nil for a oneway call (nothing to write).
    ///   - isFinal: this ends the call; the next pipelined call may start.
    ///   - streaming: the reply is one of a `more` call's (the server writes those in its push
    ///     lane).
    func deliver(
        _ reply: VarlinkEncodedReply?,
        isFinal: Bool,
        policy: VarlinkBacklogPolicy,
        callID: UInt64,
        streaming: Bool
    )
}

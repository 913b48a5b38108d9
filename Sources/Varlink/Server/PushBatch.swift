/// Pushes of one slice of the loop's push lane that go out in one ``Splicer/fanOut(_:from:to:)``:
/// consecutive deliveries of the same piped reply, each to a connection that takes a push
/// straight (``ConnectionState/takesDirectPush(byteCount:callID:context:)``).
///
/// Why: written one delivery at a time, the loop's work for each connection came between its
/// `tee` and `splice` and the next ones, and a subscriber reading as fast as the loop wrote was
/// woken for every push. Checked first and written back to back, with one `tee` per group of
/// connections, the fan-out's system calls are half as many and come as fast as the kernel
/// takes them (issue 17).
///
/// A delivery that does not qualify ends the batch: the batch is written before it runs, so
/// every connection's replies keep their order. Loop thread only.
struct PushBatch {
    /// How a delivery was taken by ``add(_:splicer:)``; one it did not take comes back.
    enum Admission {
        case added
        /// It carries another reply than the batch: write the batch, then add it again.
        case otherReply(ReplyDelivery)
        /// It is not a push that can be written straight: write the batch, then run it.
        case notDirect(ReplyDelivery)
    }

    /// The reply every delivery of the batch carries: nil exactly when the batch is empty.
    struct Target {
        let reply: VarlinkEncodedReply
        /// Where the reply's pipe is read from.
        let source: PipedReply.Source
        /// The reply's pipe, to tell a delivery of another reply at a glance (without copying
        /// the reply out of the batch).
        let pipe: PipedReply
    }

    private(set) var deliveries: [ReplyDelivery] = []
    /// The deliveries' sockets, in their order.
    private(set) var fds: [Int32] = []
    private(set) var target: Target?

    /// Adds `delivery` when it is a push of the batch's reply (any piped push, when empty, that
    /// `splicer` can write) that its connection takes straight. Moved in, and back out when not
    /// taken: a copy would retain and release its connection and reply again for every
    /// subscriber.
    mutating func add(_ delivery: consuming ReplyDelivery, splicer: Splicer) -> Admission {
        guard !delivery.isFinal, let pushed = delivery.reply, let pipe = pushed.piped else {
            return .notDirect(delivery)
        }
        // The pipe alone, not the whole target, is read out of the batch for each delivery.
        if let current = target?.pipe, current !== pipe { return .otherReply(delivery) }
        let connection = delivery.connection
        let count = pushed.framedBytes.count
        guard connection.state.takesDirectPush(byteCount: count, callID: delivery.callID, context: connection.context)
        else { return .notDirect(delivery) }
        if target == nil {
            // No pipe is made, and charged to the budget, for a splicer that cannot use it. The
            // reply's first connection gets none either (it may be the only one): it is copied.
            guard splicer.isReady(for: count), let source = pipe.source(holding: pushed.framedBytes, for: connection.fd)
            else {
                return .notDirect(delivery)
            }
            target = Target(reply: pushed, source: source, pipe: pipe)
        }
        fds.append(connection.fd)
        deliveries.append(delivery)
        return .added
    }

    /// Empties the batch, keeping its storage; a delivery holds its connection and reply, which
    /// must not outlive their write.
    mutating func removeAll() {
        deliveries.removeAll(keepingCapacity: true)
        fds.removeAll(keepingCapacity: true)
        target = nil
    }
}

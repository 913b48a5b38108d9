/// Replies for many sinks, handed to the server in one go: a push to a thousand subscribers then
/// takes one hand-over to the event loop instead of a thousand, so the task that pushes and the
/// loop that writes do not contend for the loop's inbox once per subscriber (issue 17).
///
/// ``send(_:to:ifBacklogged:)`` does what ``VarlinkReplySink/send(_:ifBacklogged:)`` does — the
/// sink checks and records the reply, a final one closes it at once — but the reply reaches the
/// connection only when ``deliver()`` runs, in the order the batch was filled. So use a batch
/// where one task owns the sinks (a subscription hub): a reply sent meanwhile to the same sink
/// by another task, directly, may reach the client first. Sinks of something else than a server
/// connection get their replies at once, as from ``VarlinkReplySink/send(_:ifBacklogged:)``.
///
/// Noncopyable: its replies are delivered once. Dropping a batch without ``deliver()`` drops its
/// replies, and the sinks it closed stay closed.
public struct VarlinkReplyBatch: ~Copyable {
    var collector = ReplyCollector()

    public init() {}

    /// Records `encoded` for `sink`, to go out with the batch.
    ///
    /// - Returns: ``VarlinkSendResult/closed`` when the sink no longer accepts replies.
    @discardableResult
    public mutating func send(
        _ encoded: VarlinkEncodedReply,
        to sink: VarlinkReplySink,
        ifBacklogged policy: VarlinkBacklogPolicy = .queue
    ) -> VarlinkSendResult {
        sink.send(encoded, ifBacklogged: policy, into: &collector)
    }

    /// Replies recorded since the batch was last handed over.
    public var count: Int { collector.count }

    /// Hands the replies recorded so far to their connections (one submission per event loop)
    /// and goes on recording: a long fan-out handed over a slice at a time lets the loop start
    /// writing before the last sink is reached.
    public mutating func flush() {
        collector.submit()
        collector = ReplyCollector()
    }

    /// Hands every recorded reply to its connection: one submission per event loop.
    public consuming func deliver() {
        collector.submit()
    }
}

/// The deliveries of a ``VarlinkReplyBatch``, grouped by the event loop that writes them (a
/// server has one; the list stays short).
struct ReplyCollector {
    private var groups: [(loop: EventLoop, deliveries: [ReplyDelivery])] = []
    private(set) var count = 0

    mutating func append(_ delivery: ReplyDelivery, on loop: EventLoop) {
        count += 1
        if let last = groups.indices.last, groups[last].loop === loop {
            groups[last].deliveries.append(delivery)
            return
        }
        if let index = groups.firstIndex(where: { $0.loop === loop }) {
            groups[index].deliveries.append(delivery)
        } else {
            groups.append((loop, [delivery]))
        }
    }

    func submit() {
        for group in groups { group.loop.submit(group.deliveries) }
    }
}

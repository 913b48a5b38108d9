/// A reply on its way to a ``Connection``'s loop thread
/// (``Connection/deliver(_:isFinal:policy:callID:streaming:)``).
///
/// A value in the loop's inbox rather than a closure capturing the same fields: a push to a
/// thousand subscribers then costs no heap allocation per connection (callgrind, issue 17).
/// Sendable: the connection is, and the rest are values.
struct ReplyDelivery: Sendable {
    let connection: Connection
    /// The framed reply, or nil for a oneway call's final one.
    let reply: VarlinkEncodedReply?
    let isFinal: Bool
    let policy: VarlinkBacklogPolicy
    let callID: UInt64
    /// One of a `more` call's replies: it takes the loop's push lane. Said by the sink, so the
    /// loop need not look at the connection to sort a fan-out (a stale one is dropped when it
    /// runs, as any reply for a call that is no longer active).
    let isStreaming: Bool

    /// Loop thread.
    func run() {
        connection.deliverOnLoop(reply, isFinal: isFinal, policy: policy, callID: callID)
    }
}

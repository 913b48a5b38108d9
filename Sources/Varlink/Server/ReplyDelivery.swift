/// A reply on its way to a ``Connection``'s loop thread (``Connection/deliver(_:isFinal:policy:callID:)``).
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

    /// Loop thread.
    func run() {
        connection.deliverOnLoop(reply, isFinal: isFinal, policy: policy, callID: callID)
    }
}

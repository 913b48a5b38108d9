internal import Synchronization

/// The blocking API, for a caller on a thread of its own (the CLI): each call holds the channel
/// for its whole exchange and waits in `poll`, bounded by its timeout (unless that is nil).
extension VarlinkClient {
    /// Calls `method` and returns the reply's parameters.
    ///
    /// - Parameter timeout: the longest wait for the reply; nil waits however long the server
    ///   takes (work that takes as long as it takes, such as a refresh).
    /// - Throws: ``VarlinkClientError/errorReply(_:)`` when the server answers with an error;
    ///   ``VarlinkClientError/timedOut(method:)`` after `timeout` (the connection is then unusable).
    public func call(
        _ method: String,
        parameters: [String: JSONValue] = [:],
        timeout: Duration? = .seconds(45)
    ) throws(VarlinkClientError) -> [String: JSONValue] {
        let reply = try call(VarlinkCall(method: method, parameters: parameters), timeout: timeout)
        return reply.parameters.object ?? [:]
    }

    /// Sends `call` and returns its reply: an empty one at once for a `oneway` call; for a
    /// `more` call only the first (use ``callMore(_:parameters:timeout:onReply:)`` or
    /// ``replies(_:parameters:timeout:)`` to read them all).
    ///
    /// - Throws: as ``call(_:parameters:timeout:)``.
    public func call(_ call: VarlinkCall, timeout: Duration? = .seconds(45)) throws(VarlinkClientError) -> VarlinkReply
    {
        let deadline = Deadline(timeout)
        return try channel.withLock { (channel) throws(VarlinkClientError) -> VarlinkReply in
            try send(call.framed, channel: &channel, method: call.method, deadline: deadline)
            if call.oneway { return VarlinkReply() }
            return try receive(channel: &channel, method: call.method, deadline: deadline)
        }
    }

    /// Sends a `oneway` call: the server does not reply.
    public func callOneway(
        _ method: String,
        parameters: [String: JSONValue] = [:],
        timeout: Duration = .seconds(45)
    ) throws(VarlinkClientError) {
        let call = VarlinkCall(method: method, parameters: parameters, oneway: true)
        try channel.withLock { (channel) throws(VarlinkClientError) in
            try send(call.framed, channel: &channel, method: method, deadline: Deadline(timeout))
        }
    }

    /// Calls `method` with `more: true` and hands each reply to `onReply` until the final one.
    /// `onReply` returns false to stop early; the connection is then shut down, since Varlink
    /// has no other way to end a `more` call.
    ///
    /// - Parameter timeout: the longest wait for each reply; nil waits for ever (subscriptions).
    public func callMore(
        _ method: String,
        parameters: [String: JSONValue] = [:],
        timeout: Duration? = nil,
        onReply: (VarlinkReply) -> Bool
    ) throws(VarlinkClientError) {
        let call = VarlinkCall(method: method, parameters: parameters, more: true)
        try channel.withLock { (channel) throws(VarlinkClientError) in
            try send(call.framed, channel: &channel, method: method, deadline: Deadline(timeout))
            while true {
                let reply = try receive(channel: &channel, method: method, deadline: Deadline(timeout))
                if !onReply(reply) {
                    channel.isBroken = true
                    abort()
                    return
                }
                if !reply.continues { return }
            }
        }
    }
}

internal import Dispatch
internal import Synchronization

/// The async API: the blocking calls run on the client's private serial Dispatch queue, never on
/// the cooperative pool (swift-on-linux.md §5.3); cancelling the task shuts the socket down, so a
/// waiting call ends promptly.
extension VarlinkClient {
    /// Async ``call(_:parameters:timeout:)``.
    public func call(
        _ method: String,
        parameters: [String: JSONValue] = [:],
        timeout: Duration? = .seconds(45)
    ) async throws(VarlinkClientError) -> [String: JSONValue] {
        let reply = try await call(VarlinkCall(method: method, parameters: parameters), timeout: timeout)
        return reply.parameters.object ?? [:]
    }

    /// Async ``call(_:timeout:)``.
    public func call(_ call: VarlinkCall, timeout: Duration? = .seconds(45)) async throws(VarlinkClientError)
        -> VarlinkReply
    {
        let result: Result<VarlinkReply, VarlinkClientError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    do throws(VarlinkClientError) {
                        continuation.resume(returning: .success(try self.call(call, timeout: timeout)))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        } onCancel: {
            abort()
        }
        return try result.get()
    }

    /// Calls `method` with `more: true` and streams the replies; the stream finishes after the
    /// final reply and throws ``VarlinkClientError`` on failure (an error reply included).
    /// Ending the iteration early closes the connection.
    ///
    /// - Parameter timeout: the longest wait for each reply; nil waits for ever.
    public func replies(
        _ method: String,
        parameters: [String: JSONValue] = [:],
        timeout: Duration? = nil
    ) -> AsyncThrowingStream<VarlinkReply, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: VarlinkReply.self)
        let stopped = Mutex(false)
        continuation.onTermination = { [self] termination in
            // Only a consumer that stopped early ends the call; a finished stream leaves the
            // connection usable.
            guard case .cancelled = termination else { return }
            stopped.withLock { $0 = true }
            abort()
        }
        queue.async {
            do throws(VarlinkClientError) {
                try self.callMore(method, parameters: parameters, timeout: timeout) { reply in
                    continuation.yield(reply)
                    return !stopped.withLock { $0 }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }
}

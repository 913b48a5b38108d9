#if canImport(Glibc)
    internal import Glibc
#endif

/// Starts `body` on a plain detached pthread: the thread of an event loop that owns it until
/// the loop returns (the Varlink server's epoll loop, libcurl's multi loop).
///
/// Not Foundation's `Thread`, which would load all of Foundation into the daemon (issue 17),
/// and not Dispatch, whose threads are shared. The body keeps whatever it captures alive for
/// as long as it runs.
///
/// - Returns: `pthread_create`'s error number, 0 on success (out of threads, at start-up, is
///   the caller's to judge).
public func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let result = pthread_create(
        &thread,
        nil,
        { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        },
        context
    )
    guard result == 0 else {
        Unmanaged<Body>.fromOpaque(context).release()
        return result
    }
    pthread_detach(thread)
    return 0
}

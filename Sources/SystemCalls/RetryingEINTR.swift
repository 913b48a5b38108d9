#if canImport(Glibc)
    public import Glibc
#endif

/// Calls `call` again for as long as it fails with `EINTR`, and returns its first other result.
///
/// The one EINTR loop of homefeed (style.md, after swift-nio's syscall wrapper): a signal that
/// arrives during a blocking or interruptible call is never an error to report. What "failed"
/// means is the POSIX convention, a negative result with `errno` set; everything else (a count,
/// `EAGAIN`, another errno) goes back to the caller, which decides. Not for `close(2)`: on Linux
/// the fd is gone even when it reports `EINTR`, and a retry could close an fd another thread has
/// just been given (swift-on-linux.md §6).
///
/// Generic over the result (`Int32` for most calls, `Int` for the `ssize_t` of `read`, `write`,
/// `send`, `recv`) and inlinable, so it costs nothing beyond the loop in the caller.
@inlinable
public func retryingEINTR<Result: SignedInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}

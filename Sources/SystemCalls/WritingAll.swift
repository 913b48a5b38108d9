#if canImport(Glibc)
    internal import Glibc
#endif

/// Writes all of `bytes` to `fd`, retrying after signals and after short writes.
///
/// The one loop behind what the tools write to a descriptor whole: standard output and error
/// (CommandTable's `StandardStream`), a device or FIFO named as an output file
/// (`homefeedctl … --svg FILE`), and homefeed-thumbnail's replies to the daemon.
///
/// - Returns: 0, or the `errno` of the `write` that failed (`EIO` for one that wrote nothing,
///   which `write(2)` does only for an empty buffer); some of `bytes` may have been written.
public func writingAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
    var rest = bytes[...]
    while !rest.isEmpty {
        let count = retryingEINTR { rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
        guard count > 0 else { return count < 0 ? errno : EIO }
        rest = rest.dropFirst(count)
    }
    return 0
}

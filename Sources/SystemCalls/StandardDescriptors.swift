#if canImport(Glibc)
    internal import Glibc
#endif

/// Descriptors 0, 1 and 2, which a process started by hand (`homefeedctl status >&-`) may lack.
///
/// `open` and `socket` take the lowest free number: with standard output closed,
/// homefeedctl's connection to the daemon became fd 1, and what the command printed went into
/// the Varlink connection, with exit status 0. Every executable calls ``openMissing()`` first
/// thing in its `main`, before anything opens a descriptor.
public enum StandardDescriptors {
    /// Opens `/dev/null` (for reading and writing) on each of 0, 1 and 2 that is closed, so
    /// that nothing opened later takes its number: reads get end of file, writes go nowhere.
    ///
    /// - Returns: the descriptors that were closed, in order (each stays closed when
    ///   `/dev/null` cannot be opened, as in a bare chroot).
    @discardableResult
    public static func openMissing() -> [Int32] {
        var missing: [Int32] = []
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
            missing.append(fd)
            // The lowest free number is `fd`: the ones below it are open by now.
            let null = retryingEINTR { open("/dev/null", O_RDWR) }
            if null >= 0, null != fd {
                dup2(null, fd)
                close(null)
            }
        }
        return missing
    }
}

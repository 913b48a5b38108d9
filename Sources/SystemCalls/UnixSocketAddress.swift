#if canImport(Glibc)
    public import Glibc
#endif

/// Builds the `sockaddr_un` of an `AF_UNIX` address, in one place for the Varlink socket, the
/// sd_notify datagram and the benchmarks.
///
/// The length passed to the kernel is exact: `offsetof(sun_path)` plus the path and its NUL, or
/// plus the leading NUL and the name for an abstract address. For an abstract name that matters:
/// `sizeof(sockaddr_un)` would name a different socket, padded with NULs (varlink-and-systemd.md
/// §6.3).
public enum UnixSocketAddress {
    /// The size of `sun_path` (108 on Linux): a path takes at most one byte less for its NUL, an
    /// abstract name one byte less for its leading NUL.
    public static let sunPathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// Calls `body` with a filled `sockaddr_un` for `name` and its exact length.
    ///
    /// - Parameters:
    ///   - name: a filesystem path, or with `abstract` a name in Linux's abstract namespace
    ///     (without the leading `@` or NUL).
    /// - Returns: `body`'s result, or nil when `name` does not fit `sun_path` (a path of 108
    ///   bytes or more, an abstract name of more than 107) or a path contains a NUL byte.
    public static func withSockaddr<Result>(
        _ name: String,
        abstract: Bool,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result? {
        let bytes = Array(name.utf8)
        let start = abstract ? 1 : 0  // an abstract name's leading NUL
        let used = start + bytes.count + (abstract ? 0 : 1)  // a path's terminating NUL
        guard used <= sunPathCapacity, abstract || !bytes.contains(0) else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            // sockaddr_un() is zeroed: the leading NUL and the terminator are already there.
            UnsafeMutableRawBufferPointer(rebasing: raw[start...]).copyBytes(from: bytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? MemoryLayout<sa_family_t>.size
        let length = socklen_t(pathOffset + used)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}

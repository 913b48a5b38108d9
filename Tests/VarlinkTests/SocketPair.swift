@testable import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// A connected pair of Unix stream sockets: a non-blocking writer, as the server's connections
/// are, and a reader.
final class SocketPair {
    let writer: Int32
    private(set) var reader: Int32

    init(sendBuffer: Int32? = nil) throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
            throw SystemError(call: "socketpair", errno: errno)
        }
        (writer, reader) = (fds[0], fds[1])
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        if var size = sendBuffer {
            setsockopt(writer, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(reader, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(writer)
        if reader >= 0 { close(reader) }
    }

    func closeReader() {
        close(reader)
        reader = -1
    }

    /// Exactly `count` bytes, or fewer when the socket gives nothing for 10 s.
    func readAll(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { raw in
                raw.baseAddress.map { recv(reader, $0 + filled, count - filled, 0) } ?? -1
            }
            guard n > 0 else { break }
            filled += n
        }
        return Array(bytes.prefix(filled))
    }

    /// Whatever the socket holds now.
    func readAvailable() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(reader, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { return bytes }
            bytes += chunk.prefix(n)
        }
    }
}

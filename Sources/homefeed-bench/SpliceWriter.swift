import CSystem
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// Writes one message to many sockets by splicing, for the splice floors of the fan-out
/// (``ServeBenchmark/pushFloor(count:bytes:splicing:watched:pausing:)``): `tee` from a pipe
/// holding the message into a scratch pipe, then `splice` into the socket.
///
/// Sendable: its fields never change once made, and the timed rounds use it one after another
/// (`tee` leaves the source pipe as it is; the scratch pipe is empty between writes).
final class SpliceWriter: Sendable {
    enum Grouping {
        /// A `tee` and a `splice` per socket, each a call from Swift.
        case perSocket
        /// One `tee` of 16 messages per 16 sockets and a `splice` each, in the C loop the server
        /// calls (`csystem_splice_fanout`), from a pipe holding the message as many times as the
        /// server's holds a push of its size (`PipedReply.copies(of:)`: 16 of a manifest, 1 past
        /// 64 KiB).
        case grouped
    }

    private let message: [UInt8]
    private let grouping: Grouping
    private let copies: Int
    private let source: [Int32]
    private let scratch: [Int32]

    /// Nil when the pipes cannot be made or do not take the message.
    init?(_ message: [UInt8], grouping: Grouping) {
        var source: [Int32] = [-1, -1]
        var scratch: [Int32] = [-1, -1]
        guard csystem_pipe_nonblock(&source) == 0 else { return nil }
        guard csystem_pipe_nonblock(&scratch) == 0 else {
            for fd in source { close(fd) }
            return nil
        }
        self.message = message
        self.grouping = grouping
        self.source = source
        self.scratch = scratch
        // As many copies as the server's pipe holds (16 of a manifest), in one write so that
        // they fill its pages; both pipes sized to them.
        copies = grouping == .grouped ? PipedReply.copies(of: message.count) : 1
        let all = Array([[UInt8]](repeating: message, count: copies).joined())
        let size = Int32(all.count)
        let grown = csystem_pipe_capacity(scratch[0], 0) >= size || csystem_pipe_capacity(scratch[0], size) >= size
        guard csystem_pipe_capacity(source[0], size) >= size, grown,
            Glibc.write(source[1], all, all.count) == all.count
        else { return nil }
    }

    deinit { for fd in source + scratch { close(fd) } }

    /// Splices the whole message into each of `fds`; the floor's sockets take every message
    /// whole, and a round with one that does not is not a floor (the bench stops).
    func write(to fds: [Int32]) {
        let count = message.count
        if grouping == .grouped {
            var result = csystem_fanout()
            fds.withUnsafeBufferPointer {
                csystem_splice_fanout(
                    source[0],
                    scratch[0],
                    scratch[1],
                    UInt(count),
                    copies,
                    $0.baseAddress,
                    $0.count,
                    &result
                )
            }
            guard result.written == fds.count else { ServeBenchmark.fail("grouped splice floor: \(result)") }
            return
        }
        for fd in fds {
            guard csystem_tee(source[0], scratch[1], UInt(count)) == count,
                csystem_splice(scratch[0], fd, UInt(count)) == count
            else { ServeBenchmark.fail("splice floor: errno \(errno)") }
        }
    }
}

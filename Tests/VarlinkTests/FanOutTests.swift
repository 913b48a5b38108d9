import CSystem
import Synchronization
import Testing

@testable import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// One push written to many sockets at once (``Splicer/fanOut(_:from:to:)``): a `tee` per group
/// of the pipe's copies and a `splice` per socket, stopping at the first socket that does not
/// take the push whole. Over real pipes and socket pairs, on a thread the splicer adopted.
@Suite("Fanning a push out")
struct FanOutTests {
    /// Fills `pair`'s socket until it takes no more; the bytes it took.
    @discardableResult
    static func fill(_ pair: SocketPair) -> Int {
        let chunk = [UInt8](repeating: 0x2A, count: 4096)
        var filled = 0
        while true {
            let n = chunk.withUnsafeBytes { send(pair.writer, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { return filled }
            filled += n
        }
    }

    @Test(
        "every socket gets the push whole, byte-exact, in groups of the pipe's copies, and the scratch pipe ends empty"
    )
    func wholeFanOut() async throws {
        let bytes = payload(6700, seed: 21)
        let later = payload(5000, seed: 22)
        let (result, copies, received, next, spliced) = try await onAdoptedThread { splicer in
            let pairs = try (0..<40).map { _ in try SocketPair() }
            let (reply, source) = try pipeSource(holding: bytes)
            let result = pairs.map(\.writer).withUnsafeBufferPointer {
                splicer.fanOut(bytes.count, from: source, to: $0)
            }
            let received = pairs.map { $0.readAvailable() }
            // A lone push after it is that push alone: nothing of the groups was left behind.
            let other = try SocketPair()
            let (laterReply, laterSource) = try pipeSource(holding: later)
            let outcome = splicer.send(later.count, from: laterSource, to: other.writer)
            withExtendedLifetime((reply, laterReply)) {}
            return (
                result, source.copies, received, (outcome, other.readAll(count: later.count)),
                splicer.splicedReplies.load(ordering: .relaxed)
            )
        }
        // Three groups: 16, 16 and 8 sockets.
        #expect(copies == 16)
        #expect(result == Splicer.FanOut(written: 40, stop: nil))
        #expect(received.allSatisfy { $0 == bytes })
        #expect(next.0 == .sent(later.count) && next.1 == later)
        #expect(spliced == 41)
    }

    @Test(
        "a socket that takes part of the push stops the fan-out: it has that part, later sockets nothing, and a next fan-out starts clean"
    )
    func partlyTaken() async throws {
        // Larger than one socket buffer of the kernel's takes at once, and three copies in the
        // pipe, so the stop comes within a group (a reply this large gets one copy in the server).
        let bytes = payload(100_000, seed: 23)
        let (first, second, received, splicedBytes) = try await onAdoptedThread { splicer in
            // The fourth socket's buffer (the kernel doubles 4 KiB) takes part of the push.
            let pairs = try (0..<10).map { try SocketPair(sendBuffer: $0 == 3 ? 4096 : nil) }
            let source = try Self.pipe(holding: 3, of: bytes)
            defer { Socket.close(source.fd) }
            let fds = pairs.map(\.writer)
            let first = fds.withUnsafeBufferPointer { splicer.fanOut(bytes.count, from: source, to: $0) }
            let before = pairs.map { $0.readAvailable() }
            let second = fds[4...].withUnsafeBufferPointer { splicer.fanOut(bytes.count, from: source, to: $0) }
            let after = pairs.map { $0.readAvailable() }
            return (first, second, zip(before, after).map { $0 + $1 }, splicer.splicedBytes)
        }
        guard first.written == 3, case .sent(let taken)? = first.stop else {
            Issue.record("the fan-out did not stop at the small socket: \(first)")
            return
        }
        #expect(taken > 0 && taken < bytes.count)
        #expect(second == Splicer.FanOut(written: 6, stop: nil))
        // Compared as booleans: a mismatch would print 100 kB arrays.
        #expect(received[..<3].allSatisfy { $0 == bytes })
        #expect(received[3] == Array(bytes.prefix(taken)))
        #expect(received[4...].allSatisfy { $0 == bytes })
        #expect(splicedBytes == 9 * bytes.count + taken)
    }

    /// A pipe holding `copies` of `bytes`, as a ``PipedReply``'s holds its copies.
    static func pipe(holding copies: Int, of bytes: [UInt8]) throws -> PipedReply.Source {
        var fds: [Int32] = [-1, -1]
        guard csystem_pipe_nonblock(&fds) == 0 else { throw SystemError(call: "pipe2", errno: errno) }
        defer { Socket.close(fds[1]) }
        guard pipeCapacity(fds[0], holding: copies * bytes.count) != nil else {
            Socket.close(fds[0])
            throw SystemError(call: "F_SETPIPE_SZ", errno: errno)
        }
        let all = Array([[UInt8]](repeating: bytes, count: copies).joined())
        guard all.withUnsafeBytes({ write(fds[1], $0.baseAddress, $0.count) }) == all.count else {
            Socket.close(fds[0])
            throw SystemError(call: "write", errno: errno)
        }
        return PipedReply.Source(fd: fds[0], copies: copies)
    }

    @Test(
        "a full socket stops the fan-out with wouldBlock, a gone reader with EPIPE; the sockets after them are untouched"
    )
    func fullAndGone() async throws {
        let bytes = payload(9000, seed: 24)
        let (results, received) = try await onAdoptedThread { splicer in
            let pairs = try (0..<4).map { _ in try SocketPair() }
            Self.fill(pairs[1])
            pairs[2].closeReader()
            let (reply, source) = try pipeSource(holding: bytes)
            defer { withExtendedLifetime(reply) {} }
            let fds = pairs.map(\.writer)
            var results: [Splicer.FanOut] = []
            for start in [0, 2, 3] {
                results.append(
                    fds[start...].withUnsafeBufferPointer { splicer.fanOut(bytes.count, from: source, to: $0) }
                )
            }
            let first = pairs[0].readAvailable()
            let last = pairs[3].readAvailable()
            return (results, [first, last])
        }
        #expect(
            results == [
                Splicer.FanOut(written: 1, stop: .wouldBlock),
                Splicer.FanOut(written: 0, stop: .failed(EPIPE)),
                Splicer.FanOut(written: 1, stop: nil),
            ]
        )
        #expect(received == [bytes, bytes])
    }

    @Test("off the adopting thread the fan-out declines at once, writing nothing: the caller copies")
    func declinedElsewhere() async throws {
        let bytes = payload(8000, seed: 25)
        let pair = try SocketPair()
        let (reply, source) = try pipeSource(holding: bytes)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        let splicer = Splicer(discardBuffer: buffer)
        let result = [pair.writer].withUnsafeBufferPointer { splicer.fanOut(bytes.count, from: source, to: $0) }
        #expect(result == Splicer.FanOut(written: 0, stop: .unavailable))
        #expect(pair.readAvailable().isEmpty)
        withExtendedLifetime(reply) {}
    }
}

import Synchronization
import Testing

@testable import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// A loop that has stopped still delivers what is sent to its connections afterwards, on its
/// serial fallback queue: a sink that found its call open is never silently dropped.
@Suite("Stopped loop", .timeLimit(.minutes(1)))
struct StoppedLoopTests {
    @Test("replies sent after the loop stopped reach the connection, in order: pushes and the final one")
    func deliveredAfterStop() async throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        // The server's side is non-blocking, as an accepted connection is.
        #expect(fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK) == 0)
        let loop = try EventLoop(name: "stopped-test")
        loop.start()
        let context = ServerContext(
            service: makeTestService(hub: Hub()),
            configuration: VarlinkServerConfiguration(),
            privilegedPeers: { _ in false },
            logger: varlinkSilentLogger
        )
        let connection = Connection(fd: pair[0], peer: .unknown, context: context, loop: loop)
        let sink = connection.state.activate(more: true, oneway: false, transport: connection)
        await loop.stop()

        // From this task, not the loop: the streaming replies take the inbox's push list, the
        // final one its items; both find the loop stopped.
        for n in 1...3 {
            #expect(sink.send(VarlinkReply(parameters: ["n": .int(n)], continues: true)) == .sent)
        }
        #expect(sink.send(VarlinkReply(parameters: ["n": 4])) == .sent)
        let expected = (1...4).map { n in
            VarlinkReply(parameters: ["n": .int(n)], continues: n < 4).framed().framedBytes
        }.joined()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var polls = 0
        while received.count < expected.count, polls < 2000 {
            let n = recv(pair[1], &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { received += buffer[..<n] } else { try await Task.sleep(for: .milliseconds(5)) }
            polls += 1
        }
        #expect(received == Array(expected))
    }
}

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
        let loop = try EventLoop(name: "stopped-test")
        loop.start()
        let (sink, clientFD) = try streamingConnection(on: loop)
        defer { close(clientFD) }
        await loop.stop()

        // From this task, not the loop: the streaming replies take the inbox's push list, the
        // final one its items; both find the loop stopped.
        #expect(sendNumbered(4, to: sink) == [true, true, true, true])
        let expected = numberedReplies(4)
        let received = try await receive(expected.count, from: clientFD)
        #expect(received == expected)
    }
}

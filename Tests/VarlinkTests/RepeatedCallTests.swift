import Foundation
import Testing

@testable import Varlink

/// A call answered with a repeatable reply (``VarlinkOutcome/repeatable(_:while:)``) is
/// answered again from those bytes when the same connection repeats it byte for byte, until the
/// reply's generation advances (``RepeatedCall``).
@Suite(.timeLimit(.minutes(1)))
struct RepeatedCallTests {
    /// `Polled` for `text`, as exact bytes with the NUL.
    func polled(_ text: String, extra: String = "") -> String {
        #"{"method":"org.example.test.Polled","parameters":{"text":""# + text + #""\#(extra)}}"# + "\0"
    }

    /// Writes `message` and reads the reply's `calls`.
    func calls(_ socket: RawSocket, _ message: String) async throws -> Int? {
        socket.write(message)
        let reply = try #require(await socket.readReply())
        return reply.parameters.object?["calls"]?.intValue
    }

    @Test("a call repeated byte for byte gets the same reply without running the handler again")
    func repeatedBytes() async throws {
        try await withServer { _, address, _ in
            let socket = try RawSocket(address)
            socket.write(polled("same"))
            let first = try #require(await socket.readMessage())
            socket.write(polled("same"))
            let second = try #require(await socket.readMessage())
            #expect(second == first)
            #expect(try await calls(socket, polled("same")) == 1)
            #expect(pollCalls("same") == 1)
            // Bytes of the same length that differ are another call.
            socket.write(polled("emas"))
            #expect(await socket.readReply()?.parameters.object?["text"] == "emas")
            #expect(pollCalls("emas") == 1)
        }
    }

    @Test("the handler runs again once the generation advances, for other bytes, and on another connection")
    func whatEndsARepeat() async throws {
        try await withServer { _, address, _ in
            let socket = try RawSocket(address)
            #expect(try await calls(socket, polled("ends")) == 1)
            pollGeneration("ends").advance()
            #expect(try await calls(socket, polled("ends")) == 2)
            #expect(try await calls(socket, polled("ends")) == 2)
            // The same call spelled with a space is other bytes, and becomes the remembered one.
            let spaced = polled("ends").replacingOccurrences(of: ",", with: ", ")
            #expect(try await calls(socket, spaced) == 3)
            #expect(try await calls(socket, polled("ends")) == 4)
            let other = try RawSocket(address)
            #expect(try await calls(other, polled("ends")) == 5)
            #expect(try await calls(socket, polled("ends")) == 4)
        }
    }

    @Test("pipelined repeats are answered in order, around another call")
    func pipelined() async throws {
        try await withServer { _, address, _ in
            let socket = try RawSocket(address)
            // As long as the polls, so only the bytes tell them apart.
            let echo = #"{"method":"org.example.test.Echo","parameters":{"text":"between"}}"# + "\0"
            #expect(echo.utf8.count == polled("piped").utf8.count)
            socket.write(polled("piped") + polled("piped") + echo + polled("piped"))
            var replies: [[String: JSONValue]] = []
            for _ in 0..<4 { replies.append(try #require(await socket.readReply()?.parameters.object)) }
            #expect(replies.map { $0["text"]?.stringValue } == ["piped", "piped", "between", "piped"])
            #expect(replies.map { $0["calls"]?.intValue } == [1, 1, nil, 1])
            #expect(pollCalls("piped") == 1)
        }
    }

    @Test("repeats to a client that is not reading are queued whole and in order once its socket is full")
    func repeatsPastAFullSocket() async throws {
        try await withServer { _, address, _ in
            let socket = try RawSocket(address)
            // 200 replies of nearly 4 KiB, about 800 KiB: several times what a Unix socket
            // holds, so the direct write of a remembered reply is cut short and the rest queued.
            let call = polled("full", extra: #","pad":\#(RepeatedCall.maxReplyLength - 100)"#)
            socket.write(String(repeating: call, count: 200))
            let replies = await socket.readMessages(200)
            try #require(replies.count == 200)
            #expect(replies[0].count > RepeatedCall.maxReplyLength - 100)
            #expect(replies.allSatisfy { $0 == replies[0] })
            #expect(pollCalls("full") == 1)
            #expect(try await calls(socket, polled("after full")) == 1)
        }
    }

    @Test("a remembered reply the socket takes in part is finished from the output queue, byte for byte")
    func partlySent() throws {
        // A send buffer this small splits a reply of nearly 4 KiB into two socket buffers, and
        // the second does not fit while the first reply is unread: the socket takes a part.
        let pair = try SocketPair(sendBuffer: 4096)
        let context = makeTestContext()
        var state = ConnectionState(maxMessageSize: 1 << 20, now: 0)
        let reply = VarlinkEncodedReply(
            framedBytes: (0..<RepeatedCall.maxReplyLength).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) },
            continues: false,
            piped: nil
        )
        Array("poll".utf8).withUnsafeBufferPointer { state.repeated.note($0) }
        state.repeated.remember(reply, while: VarlinkReplyGeneration().validity)

        var answered = 0
        var blocked = false
        while !blocked, answered < 100 {
            if case .blocked = state.finishRepeated(context: context, fd: pair.writer, now: 1, splicer: nil) {
                blocked = true
            }
            answered += 1
        }
        try #require(blocked, "the socket never filled: \(answered) replies went out whole")
        // The reply the socket took in part is queued from where it stopped.
        #expect(state.output.byteCount > 0 && state.output.byteCount < reply.framedBytes.count)
        #expect(state.stalledSince == 1)

        // Another repeat waits behind it in the queue.
        _ = state.finishRepeated(context: context, fd: pair.writer, now: 2, splicer: nil)
        answered += 1
        var received = pair.readAvailable()
        while !state.output.isEmpty {
            _ = state.write(to: pair.writer, now: 3, splicer: nil)
            received += pair.readAvailable()
        }
        #expect(received == Array([[UInt8]](repeating: reply.framedBytes, count: answered).joined()))
        #expect(state.stalledSince == nil)
    }

    @Test("oneway and more calls, long calls and long replies are not remembered")
    func notRemembered() async throws {
        try await withServer { _, address, _ in
            let socket = try RawSocket(address)
            let oneway = #"{"method":"org.example.test.Polled","parameters":{"text":"oneway"},"oneway":true}"# + "\0"
            socket.write(oneway + oneway)
            // The reply to the next call comes after both oneway calls ran.
            #expect(try await calls(socket, polled("after")) == 1)
            #expect(pollCalls("oneway") == 2)

            let more = #"{"method":"org.example.test.Polled","parameters":{"text":"more"},"more":true}"# + "\0"
            for expected in 1...2 {
                socket.write(more)
                let reply = try #require(await socket.readReply())
                #expect(reply.parameters.object?["calls"]?.intValue == expected)
                #expect(!reply.continues)
            }

            // A call just over the limit, and one at it.
            let base = polled("").utf8.count - 1
            let long = String(repeating: "l", count: RepeatedCall.maxCallLength + 1 - base)
            #expect(try await calls(socket, polled(long)) == 1)
            #expect(try await calls(socket, polled(long)) == 2)
            let limit = String(repeating: "m", count: RepeatedCall.maxCallLength - base)
            #expect(try await calls(socket, polled(limit)) == 1)
            #expect(try await calls(socket, polled(limit)) == 1)

            let padded = polled("padded", extra: #","pad":\#(RepeatedCall.maxReplyLength)"#)
            #expect(try await calls(socket, padded) == 1)
            #expect(try await calls(socket, padded) == 2)
        }
    }
}

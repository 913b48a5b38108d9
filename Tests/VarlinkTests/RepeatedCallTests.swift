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

import Testing

@testable import Varlink

/// The small per-connection and per-loop tables of the server's hot path.
@Suite("Loop state")
struct LoopStateTests {
    private static let routes = MethodRoutes([
        "io.x.Get": VarlinkMethod { _ throws(VarlinkError) in .reply(VarlinkReply()) }
    ])

    private func decode(_ memo: inout CallMemo, _ text: String) throws(VarlinkProtocolError) -> VarlinkCall {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer throws(VarlinkProtocolError) in
            try memo.decode(buffer, routes: Self.routes).call
        }
    }

    @Test("a repeated message gets its own call back, never a neighbour's")
    func memo() throws {
        var memo = CallMemo()
        let phone = #"{"method":"io.x.Get","parameters":{"profile":"phone"}}"#
        // Same length as `phone`, one byte apart: the memo must compare bytes, not lengths.
        let phono = #"{"method":"io.x.Get","parameters":{"profile":"phono"}}"#
        #expect(phone.utf8.count == phono.utf8.count)
        for text in [phone, phone, phono, phone, phono, phono] {
            #expect(try decode(&memo, text) == VarlinkCall(decoding: Array(text.utf8)))
        }
    }

    @Test("a message that fails to decode is not remembered; a long one is decoded every time")
    func memoRefusals() throws {
        var memo = CallMemo()
        let good = #"{"method":"io.x.Get"}"#
        _ = try decode(&memo, good)
        #expect(throws: VarlinkProtocolError.self) { try decode(&memo, #"{"method":1}"#) }
        #expect(throws: VarlinkProtocolError.self) { try decode(&memo, #"{"method":1}"#) }
        // A message longer than the memo keeps: still decoded right, twice in a row.
        let long =
            #"{"method":"io.x.Get","parameters":{"s":""# + String(repeating: "x", count: CallMemo.maxBytes)
            + #""}}"#
        for _ in 0..<2 {
            #expect(try decode(&memo, long).parameters["s"]?.stringValue?.count == CallMemo.maxBytes)
        }
        #expect(try decode(&memo, good) == VarlinkCall(method: "io.x.Get"))
    }

    private final class Handler: EventLoopHandler {
        func handleEvents(_ events: UInt32) {}
    }

    @Test("a removed handler's token finds nothing, even once its slot is reused")
    func handlerTable() {
        var table = HandlerTable(firstToken: 2)
        let first = Handler()
        let second = Handler()
        let third = Handler()
        let a = table.insert(first)
        let b = table.insert(second)
        #expect(a != b && a >= 2 && b >= 2)
        #expect(table[a] === first && table[b] === second)
        #expect(table[0] == nil && table[1] == nil)  // the loop's own tokens
        table.remove(a)
        #expect(table[a] == nil)
        let c = table.insert(third)  // reuses a's slot with the next generation
        #expect(c != a)
        #expect(table[a] == nil && table[c] === third && table[b] === second)
        table.remove(a)  // stale: removes nothing
        #expect(table[c] === third)
        table.removeAll()
        #expect(table[b] == nil && table[c] == nil)
    }
}

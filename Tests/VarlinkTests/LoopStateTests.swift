import Testing

@testable import Varlink

/// The small per-connection and per-loop tables of the server's hot path.
@Suite("Loop state")
struct LoopStateTests {
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

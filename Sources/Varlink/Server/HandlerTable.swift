/// An ``EventLoop``'s registered handlers by token, found by index rather than by hash (a
/// hashed look-up was about 250 instructions an event, callgrind, issue 17).
///
/// A token is a slot number with the slot's generation in its high 32 bits, offset past the
/// loop's own tokens. Removing a handler bumps its slot's generation before the slot is reused,
/// so an event still collected for the old token finds nothing, as it would in a dictionary.
///
/// Not thread-safe: a value owned by the loop thread.
struct HandlerTable {
    private var slots: [(generation: UInt32, handler: (any EventLoopHandler)?)] = []
    private var freeSlots: [Int] = []
    /// The first token handed out; lower ones are the loop's own.
    private let firstToken: UInt64

    init(firstToken: UInt64) {
        self.firstToken = firstToken
    }

    /// Handlers registered now.
    var count: Int { slots.count - freeSlots.count }

    /// Stores `handler` and returns its token.
    mutating func insert(_ handler: any EventLoopHandler) -> UInt64 {
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[slot].handler = handler
        } else {
            slot = slots.count
            slots.append((0, handler))
        }
        return firstToken + (UInt64(slots[slot].generation) << 32 | UInt64(slot))
    }

    /// Forgets the handler of `token`, if it is still registered.
    mutating func remove(_ token: UInt64) {
        guard let slot = slot(of: token) else { return }
        slots[slot].handler = nil
        slots[slot].generation &+= 1
        freeSlots.append(slot)
    }

    mutating func removeAll() {
        slots = []
        freeSlots = []
    }

    /// The handler registered under `token`; nil for a removed one or a token of the loop's own.
    subscript(token: UInt64) -> (any EventLoopHandler)? {
        guard let slot = slot(of: token) else { return nil }
        return slots[slot].handler
    }

    private func slot(of token: UInt64) -> Int? {
        guard token >= firstToken else { return nil }
        let offset = token - firstToken
        let slot = Int(truncatingIfNeeded: offset & 0xFFFF_FFFF)
        guard slot < slots.count, slots[slot].generation == UInt32(truncatingIfNeeded: offset >> 32),
            slots[slot].handler != nil
        else { return nil }
        return slot
    }
}

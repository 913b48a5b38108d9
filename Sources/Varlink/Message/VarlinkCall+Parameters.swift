/// How a call holds its parameters: as the server decoded them, or as a dictionary.
///
/// Why: a dictionary costs its allocation, the hashing of every name and its teardown, and the
/// usual call (`GetManifest` with a profile and an `ifNoneMatch`) has two short strings, which
/// its immediate handler reads once, on the event-loop thread. So the server's decoding keeps
/// the members as a small array in message order (names unique, checked as the general parse
/// checks them), read with ``VarlinkCall/forEachParameter(_:)`` or
/// ``VarlinkCall/parameter(_:)``; ``VarlinkCall/parameters`` builds the dictionary only when
/// asked (issue 17: 2 000 of the loop thread's 13 200 instructions a call, callgrind).
extension VarlinkCall {
    /// One parameter as decoded.
    @usableFromInline
    struct Member: Sendable {
        @usableFromInline let name: String
        @usableFromInline let value: JSONValue
    }

    /// Where the parameters live. A call built in code, or decoded the general way, holds a
    /// dictionary; the server's decoding of the usual call holds its few members.
    @usableFromInline
    enum ParameterStorage: Sendable {
        /// Unique names (by `String` equality, as a dictionary's keys), in message order.
        case members([Member])
        case dictionary([String: JSONValue])

        /// The most members kept as an array; more are put in a dictionary as they are decoded
        /// (a name is compared with each earlier one for duplicates, so the array stays short).
        static let maxMembers = 8

        var dictionary: [String: JSONValue] {
            switch self {
            case .dictionary(let dictionary):
                return dictionary
            case .members(let members):
                var dictionary = [String: JSONValue](minimumCapacity: members.count)
                for member in members { dictionary[member.name] = member.value }
                return dictionary
            }
        }

        var isEmpty: Bool {
            switch self {
            case .dictionary(let dictionary): return dictionary.isEmpty
            case .members(let members): return members.isEmpty
            }
        }
    }

    /// Takes the storage of the decoded members out of this call, emptied, for the next call's
    /// decoding to reuse (``decoding(_:routes:reusing:)``): one allocation and a generic array
    /// teardown less a call. Emptied in place when nothing else holds the call (an async
    /// handler still running does: then into a copy, as any shared array); an empty array when
    /// the call has no decoded members.
    mutating func recycleParameters() -> [Member] {
        guard case .members(var members) = parameterStorage, members.capacity > 0 else { return [] }
        parameterStorage = .members([])
        // Popped one by one, each member destroyed by code specialized for it: the generic
        // `removeAll(keepingCapacity:)` destroys them through the runtime's value witnesses
        // (125 instructions more for two members, callgrind).
        while members.popLast() != nil {}
        return members
    }

    /// The parameter `name`, nil when the call has none of that name. Reads the decoded members
    /// without building ``parameters``.
    public func parameter(_ name: String) -> JSONValue? {
        switch parameterStorage {
        case .dictionary(let dictionary):
            return dictionary[name]
        case .members(let members):
            for member in members where member.name == name { return member.value }
            return nil
        }
    }

    /// Calls `body` with each parameter's name and value, in no promised order (in message
    /// order for a decoded call). Reads the decoded members without building ``parameters``:
    /// what a handler on the event-loop thread walking all of them (to refuse unknown names)
    /// should use. Inlinable, so that the caller's `body` is inlined rather than called
    /// through a generic function (600 instructions of a `GetManifest` call, callgrind).
    @inlinable
    public func forEachParameter<Failure: Error>(
        _ body: (_ name: String, _ value: JSONValue) throws(Failure) -> Void
    ) throws(Failure) {
        switch parameterStorage {
        case .dictionary(let dictionary):
            for (name, value) in dictionary { try body(name, value) }
        case .members(let members):
            for member in members { try body(member.name, member.value) }
        }
    }

    /// The smallest parameter name `isKnown` refuses (the one an `InvalidParameter` error
    /// names, the same whatever the message order), or nil; without building ``parameters``.
    func unknownParameter(isKnown: (String) -> Bool) -> String? {
        var smallest: String?
        forEachParameter { name, _ in
            if !isKnown(name), smallest.map({ name < $0 }) ?? true { smallest = name }
        }
        return smallest
    }
}

import JSONCore

#if canImport(Glibc)
    internal import Glibc
#endif

/// The one-pass decoding of the usual call: an object of the five known fields, in any order,
/// each present once, walked over the bytes without building the outer object. Only the values
/// of `parameters` become ``JSONValue`` trees (through the same parser as any message), kept
/// as a short list of members rather than a dictionary (VarlinkCall+Parameters.swift).
///
/// It answers only when the message is well formed and holds nothing unusual; anything else
/// (malformed JSON, a wrong type, a missing or empty `method`, an unknown or escaped key, a
/// byte-order mark) returns nil and ``VarlinkCall/init(decoding:)`` decodes the message the
/// general way, which says what is wrong. So the two always agree: whatever this answers, the
/// general decoding answers the same (VarlinkTests' envelope tests check both on every shape).
///
/// Why: the general way built two dictionaries, an array and a `JSONValue` per field for each
/// call; that was 13 100 of the 28 800 instructions the loop thread spent on a `GetManifest`
/// call (callgrind, issue 17).
extension VarlinkCall {
    /// The call in `bytes` if it has the usual form, else nil (see the extension's comment).
    static func decodingUsualForm(_ bytes: UnsafeBufferPointer<UInt8>) -> VarlinkCall? {
        var members: [Member] = []
        var recent = RecentStrings()
        return decodingUsualForm(bytes, routes: nil, reusing: &members, recent: &recent)?.call
    }

    /// The call in `message`, and its route when `routes` has its method: the server's decoding.
    ///
    /// - Parameters:
    ///   - spare: an empty array whose storage the call's parameters may take (the previous
    ///     call's, see ``recycleParameters()``); it is left empty.
    ///   - recent: the connection's recent long string values, which a parameter repeating one
    ///     is given, and which remember the new ones.
    /// - Throws: as ``init(decoding:)``.
    static func decoding(
        _ message: UnsafeBufferPointer<UInt8>,
        routes: MethodRoutes,
        reusing spare: inout [Member],
        recent: inout RecentStrings
    ) throws(VarlinkProtocolError) -> (call: VarlinkCall, route: MethodRoutes.Route?) {
        if let usual = decodingUsualForm(message, routes: routes, reusing: &spare, recent: &recent) { return usual }
        return (try VarlinkCall(decodingGenerally: message), nil)
    }

    /// The call in `bytes` if it has the usual form, else nil; with its route when `routes`
    /// has the method's name, which is then the route's own `String` (none is made).
    static func decodingUsualForm(
        _ bytes: UnsafeBufferPointer<UInt8>,
        routes: MethodRoutes?,
        reusing spare: inout [Member],
        recent: inout RecentStrings
    ) -> (call: VarlinkCall, route: MethodRoutes.Route?)? {
        var scanner = JSONScanner(bytes: bytes)
        scanner.skipWhitespace()
        guard scanner.index < bytes.count, bytes[scanner.index] == UInt8(ascii: "{") else { return nil }
        scanner.index += 1
        var method: String?
        var routed: MethodRoutes.Route?
        var parameters = ParameterStorage.members([])
        var flags: (oneway: Bool, more: Bool, upgrade: Bool) = (false, false, false)
        var seen: UInt8 = 0  // a bit per field: a repeated key is the general parse's error
        while true {
            scanner.skipWhitespace()
            guard let field = EnvelopeField.key(at: &scanner), seen & field.rawValue == 0 else { return nil }
            seen |= field.rawValue
            scanner.skipWhitespace()
            guard scanner.index < bytes.count, bytes[scanner.index] == UInt8(ascii: ":") else { return nil }
            scanner.index += 1
            scanner.skipWhitespace()
            guard scanner.index < bytes.count else { return nil }
            switch field {
            case .method:
                guard bytes[scanner.index] == UInt8(ascii: "\"") else { return nil }
                if let routes, let route = routes.route(at: &scanner) {
                    method = route.name
                    routed = route
                } else {
                    guard let name = try? scanner.parseString(), !name.isEmpty else { return nil }
                    method = name
                }
            case .parameters:
                switch bytes[scanner.index] {
                case UInt8(ascii: "{"):
                    // Names matched against the method's declared ones when `method` came first.
                    guard
                        let members = Self.parameterObject(
                            &scanner,
                            declaredBy: routed,
                            reusing: &spare,
                            recent: &recent
                        )
                    else { return nil }
                    parameters = members
                case UInt8(ascii: "n"):
                    guard (try? scanner.expectLiteral("null")) != nil else { return nil }
                default: return nil
                }
            case .oneway, .more, .upgrade:
                guard let flag = Self.literalFlag(&scanner) else { return nil }
                switch field {
                case .oneway: flags.oneway = flag
                case .more: flags.more = flag
                default: flags.upgrade = flag
                }
            }
            scanner.skipWhitespace()
            guard scanner.index < bytes.count else { return nil }
            let separator = bytes[scanner.index]
            scanner.index += 1
            if separator == UInt8(ascii: "}") { break }
            guard separator == UInt8(ascii: ",") else { return nil }
        }
        scanner.skipWhitespace()
        // Both flags: the general parse's error.
        guard scanner.index == bytes.count, let method, !(flags.more && flags.oneway) else { return nil }
        let call = VarlinkCall(
            method: method,
            storage: parameters,
            oneway: flags.oneway,
            more: flags.more,
            upgrade: flags.upgrade
        )
        return (call, routed)
    }

    /// The `parameters` object at the scanner's `{`, its members kept as decoded (up to
    /// ``ParameterStorage/maxMembers``, a name compared with each earlier one) or, beyond that,
    /// put straight into a dictionary; nil for anything the general parse would refuse or decode
    /// differently (a duplicate name, malformed JSON).
    ///
    /// A name that spells one `route` declares is that declared string, found by its bytes
    /// (no string made, and a repeat found by its index); a string value is decoded as a string
    /// directly, without the generic tree parser, or is a recent one repeated (`recent`, issue 17).
    private static func parameterObject(
        _ scanner: inout JSONScanner,
        declaredBy route: MethodRoutes.Route?,
        reusing spare: inout [Member],
        recent: inout RecentStrings
    ) -> ParameterStorage? {
        let bytes = scanner.bytes
        scanner.index += 1
        scanner.skipWhitespace()
        guard scanner.index < bytes.count else { return nil }
        if bytes[scanner.index] == UInt8(ascii: "}") {
            scanner.index += 1
            return .members([])
        }
        // Room for the usual few parameters without growing, in the spare storage if any.
        var members: [Member] = []
        swap(&members, &spare)
        members.reserveCapacity(4)
        var dictionary: [String: JSONValue] = [:]  // only past maxMembers
        var seenDeclared: UInt64 = 0  // a bit per declared name (maxDeclaredParameters)
        var hasUndeclared = false  // a name other than a declared one's exact bytes
        while true {
            guard scanner.index < bytes.count, bytes[scanner.index] == UInt8(ascii: "\"") else { return nil }
            let name: String
            if let declared = route?.declaredParameter(at: &scanner) {
                // Equal bytes are the only spelling of a declared name but for an escaped or
                // canonically equivalent one, which is undeclared and compared as a string.
                let bit: UInt64 = 1 << UInt64(declared.index)
                guard seenDeclared & bit == 0 else { return nil }
                seenDeclared |= bit
                name = declared.name
                if hasUndeclared, members.count < ParameterStorage.maxMembers {
                    for member in members where member.name == name { return nil }
                }
            } else {
                guard let parsed = try? scanner.parseString() else { return nil }
                name = parsed
                hasUndeclared = true
                if members.count < ParameterStorage.maxMembers {
                    // String equality, as the general parse's duplicate check and a dictionary's.
                    for member in members where member.name == name { return nil }
                }
            }
            scanner.skipWhitespace()
            guard scanner.index < bytes.count, bytes[scanner.index] == UInt8(ascii: ":") else { return nil }
            scanner.index += 1
            scanner.skipWhitespace()
            guard scanner.index < bytes.count else { return nil }
            let value: JSONValue
            if bytes[scanner.index] == UInt8(ascii: "\"") {
                let start = scanner.index
                if let repeated = recent.value(at: start, in: bytes) {
                    value = .string(repeated.value)
                    scanner.index += repeated.length
                } else {
                    // What the tree parser makes of a string, without its generic dispatch.
                    guard let string = try? scanner.parseString() else { return nil }
                    value = .string(string)
                    recent.remember(token: UnsafeBufferPointer(rebasing: bytes[start..<scanner.index]), value: string)
                }
            } else {
                // Depth 2: inside the message's object and this one, as in the general parse.
                guard
                    let parsed = try? JSONTreeParser<VarlinkValueBuilder>.parseValue(
                        from: &scanner,
                        depth: 2,
                        maxDepth: JSONParser.maxDepth
                    )
                else { return nil }
                value = parsed
            }
            if members.count < ParameterStorage.maxMembers {
                members.append(Member(name: name, value: value))
            } else {
                if dictionary.isEmpty {
                    dictionary.reserveCapacity(2 * ParameterStorage.maxMembers)
                    for member in members { dictionary[member.name] = member.value }
                }
                guard dictionary.updateValue(value, forKey: name) == nil else { return nil }
            }
            scanner.skipWhitespace()
            guard scanner.index < bytes.count else { return nil }
            let separator = bytes[scanner.index]
            scanner.index += 1
            if separator == UInt8(ascii: "}") {
                return dictionary.isEmpty ? .members(members) : .dictionary(dictionary)
            }
            guard separator == UInt8(ascii: ",") else { return nil }
            scanner.skipWhitespace()
        }
    }

    /// `true`, `false` or `null` (false) at the scanner; nil for anything else.
    private static func literalFlag(_ scanner: inout JSONScanner) -> Bool? {
        switch scanner.bytes[scanner.index] {
        case UInt8(ascii: "t"): return (try? scanner.expectLiteral("true")).map { true }
        case UInt8(ascii: "f"): return (try? scanner.expectLiteral("false")).map { false }
        case UInt8(ascii: "n"): return (try? scanner.expectLiteral("null")).map { false }
        default: return nil
        }
    }
}

/// The keys of a call message, recognised by their bytes (no `String` is made for a key); the
/// raw value is the field's bit in a set of seen fields.
private enum EnvelopeField: UInt8 {
    case method = 1
    case parameters = 2
    case oneway = 4
    case more = 8
    case upgrade = 16

    /// The key starting at the scanner's `"`, the scanner then after its closing quote; nil for
    /// anything but one of the five keys written without escapes.
    static func key(at scanner: inout JSONScanner) -> EnvelopeField? {
        let bytes = scanner.bytes
        let start = scanner.index + 1
        guard start < bytes.count, bytes[start - 1] == UInt8(ascii: "\""), let base = bytes.baseAddress else {
            return nil
        }
        // The candidate by its first byte, then its bytes and closing quote compared at once:
        // an escaped or longer key differs there and is the general parse's (a loop over each
        // byte looking for escapes was 300 instructions a call, callgrind).
        let field: (EnvelopeField, StaticString)
        switch bytes[start] {
        case UInt8(ascii: "m"):
            field =
                start + 1 < bytes.count && bytes[start + 1] == UInt8(ascii: "o")
                ? (.more, "more\"") : (.method, "method\"")
        case UInt8(ascii: "p"): field = (.parameters, "parameters\"")
        case UInt8(ascii: "o"): field = (.oneway, "oneway\"")
        case UInt8(ascii: "u"): field = (.upgrade, "upgrade\"")
        default: return nil
        }
        let count = field.1.utf8CodeUnitCount
        guard count <= bytes.count - start, memcmp(base + start, field.1.utf8Start, count) == 0 else { return nil }
        scanner.index = start + count
        return field.0
    }
}

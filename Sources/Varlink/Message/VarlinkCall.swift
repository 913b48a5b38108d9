import JSONCore

/// One Varlink method call, as a client sends it (varlink-and-systemd.md §1.2).
///
/// Decoding is tolerant where the spec asks for tolerance and strict where a wrong guess would
/// be dangerous: `parameters` may be omitted, `null` or an object (sd-varlink(3)); unknown keys
/// (vendor extensions) are ignored; but a missing or non-string `method`, or a flag that is not
/// a Boolean, is a protocol violation and the server drops the connection.
///
/// Sendable: an immutable value.
public struct VarlinkCall: Sendable, Equatable {
    /// Fully qualified, `interface.Method`, e.g. `org.varlink.service.GetInfo`.
    public var method: String
    /// Input parameters; empty when the call had none. Built on each read for a call the
    /// server decoded (see ``parameterStorage``): a handler on the event-loop thread reads them
    /// with ``parameter(_:)`` or ``forEachParameter(_:)`` instead.
    public var parameters: [String: JSONValue] {
        get { parameterStorage.dictionary }
        set { parameterStorage = .dictionary(newValue) }
    }
    /// The parameters as held (VarlinkCall+Parameters.swift).
    @usableFromInline var parameterStorage: ParameterStorage
    /// The server must not reply.
    public var oneway: Bool
    /// The client accepts several replies (`continues: true` until the last).
    public var more: Bool
    /// After the reply the connection leaves Varlink; this library never upgrades.
    public var upgrade: Bool

    public init(
        method: String,
        parameters: [String: JSONValue] = [:],
        oneway: Bool = false,
        more: Bool = false,
        upgrade: Bool = false
    ) {
        self.init(method: method, storage: .dictionary(parameters), oneway: oneway, more: more, upgrade: upgrade)
    }

    init(method: String, storage: ParameterStorage, oneway: Bool, more: Bool, upgrade: Bool) {
        self.method = method
        self.parameterStorage = storage
        self.oneway = oneway
        self.more = more
        self.upgrade = upgrade
    }

    /// The interface part of ``method``: everything before the last dot (`org.varlink.service`).
    public var interface: Substring {
        guard let dot = lastDot else { return "" }
        return method[..<dot]
    }

    /// The member part of ``method``: everything after the last dot (`GetInfo`).
    public var memberName: Substring {
        guard let dot = lastDot else { return method[...] }
        return method[method.utf8.index(after: dot)...]
    }

    /// The last `.` of ``method``. Searched in the UTF-8 bytes: an ASCII dot needs no grapheme
    /// breaking (3 600 instructions a call), and over contiguous storage (every native string)
    /// no generic index walking either (another 400); the offset then maps to an index in O(1).
    private var lastDot: String.Index? {
        let utf8 = method.utf8
        let offset = utf8.withContiguousStorageIfAvailable { $0.lastIndex(of: UInt8(ascii: ".")) }
        guard let offset else { return utf8.lastIndex(of: UInt8(ascii: ".")) }
        return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// Decodes one message (the bytes between two NULs).
    ///
    /// - Throws: ``VarlinkProtocolError`` for malformed JSON, a non-object, a missing `method`
    ///   or a wrongly typed field.
    public init(decoding message: some Collection<UInt8>) throws(VarlinkProtocolError) {
        // The usual call in one pass over the bytes; anything unusual the general way below.
        if let call = message.withContiguousStorageIfAvailable(Self.decodingUsualForm) ?? nil {
            self = call
            return
        }
        try self.init(decodingGenerally: message)
    }

    /// The general decoding: the whole message as a ``JSONValue``, then its fields. The
    /// reference ``decodingUsualForm(_:)`` agrees with, and the one that names what is wrong.
    init(decodingGenerally message: some Collection<UInt8>) throws(VarlinkProtocolError) {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONValue(parsing: message)
        } catch {
            throw .malformedJSON(error)
        }
        guard case .object(let object) = value else { throw .notAnObject }
        // One pass over the members instead of a hashed look-up per field; checked afterwards in
        // a fixed order, so the error a bad message gets does not depend on dictionary order.
        var fields: [JSONValue?] = [nil, nil, nil, nil, nil]
        for (key, member) in object {
            switch key {
            case "method": fields[0] = member
            case "parameters": fields[1] = member
            case "oneway": fields[2] = member
            case "more": fields[3] = member
            case "upgrade": fields[4] = member
            default: continue  // vendor extensions are ignored
            }
        }
        guard let method = fields[0]?.stringValue, !method.isEmpty else { throw .missingMethod }
        self.method = method
        switch fields[1] {
        case nil, .null?: parameterStorage = .dictionary([:])
        case .object(let p)?: parameterStorage = .dictionary(p)
        default: throw .invalidField("parameters")
        }
        oneway = try Self.flag("oneway", fields[2])
        more = try Self.flag("more", fields[3])
        upgrade = try Self.flag("upgrade", fields[4])
        guard !(more && oneway) else { throw .moreAndOneway }
    }

    /// Equal method, flags and parameters, however each call holds its parameters.
    public static func == (lhs: VarlinkCall, rhs: VarlinkCall) -> Bool {
        lhs.method == rhs.method && lhs.oneway == rhs.oneway && lhs.more == rhs.more && lhs.upgrade == rhs.upgrade
            && lhs.parameters == rhs.parameters
    }

    private static func flag(_ key: String, _ value: JSONValue?) throws(VarlinkProtocolError) -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let b)?: return b
        default: throw .invalidField(key)
        }
    }

    /// The message as JSON, without the terminating NUL; flags only when set, `parameters`
    /// only when not empty, keys sorted.
    public var encoded: [UInt8] { encode(terminated: false) }

    /// ``encoded`` followed by the NUL that ends a Varlink message.
    public var framed: [UInt8] { encode(terminated: true) }

    private func encode(terminated: Bool) -> [UInt8] {
        JSONWriter.encode(pretty: false, capacity: 64 + method.utf8.count) { writer in
            writer.beginObject()
            writer.key("method")
            writer.string(method)
            if more {
                writer.key("more")
                writer.bool(true)
            }
            if oneway {
                writer.key("oneway")
                writer.bool(true)
            }
            if !parameterStorage.isEmpty {
                writer.key("parameters")
                writer.object(parameters)
            }
            if upgrade {
                writer.key("upgrade")
                writer.bool(true)
            }
            writer.endObject()
            if terminated { writer.terminate(with: 0) }
        }
    }
}

/// One interface a service implements: its name, its IDL text, and a handler per method.
///
/// The description is returned verbatim by `org.varlink.service.GetInterfaceDescription`
/// (comments included: that is how clients show help, varlink-and-systemd.md §1.5, §2), and
/// the Python client builds its proxies from it, so it must be valid IDL. Method names declared
/// in it without a handler answer `MethodNotImplemented`; other names `MethodNotFound`.
///
/// Sendable: an immutable value.
public struct VarlinkInterface: Sendable {
    /// Reverse-domain name, e.g. `io.homefeed`.
    public let name: String
    /// The IDL text, starting (after comments) with `interface <name>`.
    public let description: String
    let methods: [String: VarlinkMethod]
    /// Methods the IDL declares (`method Name(…) -> (…)`).
    let declaredMethods: Set<String>
    /// The input parameter names each declared method lists, in IDL order: the server's
    /// decoding matches a call's parameter names against them by their bytes and uses these
    /// strings rather than making one per name (``MethodRoutes``).
    let declaredParameters: [String: [String]]

    /// - Precondition: `description` declares `interface <name>`; the name is not
    ///   `org.varlink.service` (built in). Both are programming errors, not input.
    public init(name: String, description: String, methods: [String: VarlinkMethod]) {
        precondition(name != VarlinkService.serviceInterfaceName, "org.varlink.service is built in")
        let declared = Self.declarations(in: description)
        precondition(declared.interface == name, "interface description declares \(declared.interface ?? "nothing")")
        self.name = name
        self.description = description
        self.methods = methods
        self.declaredMethods = declared.methods
        self.declaredParameters = Self.parameterNames(in: description)
    }

    /// The `interface` name and `method` names of an IDL text: a line scan, not a parser
    /// (`#` comments and blank lines skipped; a member starts its line).
    static func declarations(in idl: String) -> (interface: String?, methods: Set<String>) {
        var interface: String?
        var methods: Set<String> = []
        for rawLine in idl.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("#") { continue }
            if interface == nil, line.hasPrefix("interface ") {
                interface = String(line.dropFirst("interface ".count).prefix { !$0.isWhitespace && $0 != "#" })
            } else if line.hasPrefix("method ") {
                let name = line.dropFirst("method ".count).drop { $0 == " " }.prefix { $0.isLetter || $0.isNumber }
                if !name.isEmpty { methods.insert(String(name)) }
            }
        }
        return (interface, methods)
    }
}

/// A method's handler and how it may be called.
public struct VarlinkMethod: Sendable {
    /// Calls without `more: true` get `org.varlink.service.ExpectedMore` without reaching the
    /// handler (for subscription-only methods).
    public var requiresMore: Bool
    public var handler: VarlinkMethodHandler
    /// Tried before ``handler``, synchronously on the server's event-loop thread: the fast
    /// path for a call whose answer is ready (a cached reply), read, routed, answered and
    /// written in one wake-up of that thread, with no task created. It returns nil to decline,
    /// and ``handler`` then runs as usual with the same request.
    public var immediateHandler: VarlinkImmediateHandler?

    /// - Parameters:
    ///   - immediate: the synchronous fast path, if the method has one.
    ///   - handler: the general, asynchronous handler (always required: the fast path may
    ///     decline any call).
    public init(
        requiresMore: Bool = false,
        immediate: VarlinkImmediateHandler? = nil,
        _ handler: @escaping VarlinkMethodHandler
    ) {
        self.requiresMore = requiresMore
        self.immediateHandler = immediate
        self.handler = handler
    }
}

/// Handles one call. Runs as an async function off the socket queues' hot path; hop to actors
/// freely, never block the thread (swift-on-linux.md §5.3). Throw a ``VarlinkError`` to reply
/// with an error: unknown or wrongly typed parameters are ``VarlinkError/invalidParameter(_:)``.
public typealias VarlinkMethodHandler = @Sendable (VarlinkRequest) async throws(VarlinkError) -> VarlinkOutcome

/// Answers one call at once, or returns nil to leave it to the method's ``VarlinkMethodHandler``.
/// An answer that only the call's bytes and one versioned state decide is best returned as
/// ``VarlinkOutcome/repeatable(_:while:)``: the connection then answers the same call again
/// without running the handler.
///
/// Runs on the server's event-loop thread, which serves every connection: it must not block,
/// wait for a lock held across slow work, or do work that takes long (keep store and layout
/// work in the async handler). Throwing a ``VarlinkError`` answers with that error, as from the
/// async handler; returning nil after sending replies through ``VarlinkRequest/replies`` is a
/// programming error (the async handler would answer the call a second time).
public typealias VarlinkImmediateHandler = @Sendable (VarlinkRequest) throws(VarlinkError) -> VarlinkOutcome?

/// Everything a handler gets: the call, who made it, and where extra replies go.
///
/// Sendable: immutable; the sink is itself Sendable.
public struct VarlinkRequest: Sendable {
    /// Settable here only so that the server can take the call back out once it has run
    /// (``takeCall()``).
    public internal(set) var call: VarlinkCall
    /// From `SO_PEERCRED`, for authorisation.
    public let peer: VarlinkPeer
    /// For `more` calls: replies with `continues: true` before the final one, or pushes later.
    public let replies: VarlinkReplySink

    public init(call: VarlinkCall, peer: VarlinkPeer, replies: VarlinkReplySink) {
        self.call = call
        self.peer = peer
        self.replies = replies
    }

    /// The call, moved out of the request without a copy: the server reuses its parameters'
    /// storage for the next call (``VarlinkCall/recycleParameters()``).
    consuming func takeCall() -> VarlinkCall { call }

    /// The parameters; shorthand for `call.parameters`.
    public var parameters: [String: JSONValue] { call.parameters }

    /// Throws ``VarlinkError/invalidParameter(_:)`` for the first parameter (in sorted order)
    /// not in `known`, the check every method needs ("unknown parameters get InvalidParameter",
    /// varlink-and-systemd.md §1.4).
    public func rejectUnknownParameters(allowing known: Set<String>) throws(VarlinkError) {
        if let unknown = call.unknownParameter(isKnown: known.contains) { throw .invalidParameter(unknown) }
    }
}

/// How a handler finished.
public enum VarlinkOutcome: Sendable {
    /// The final reply (its `continues` is ignored). Earlier replies may have gone through
    /// ``VarlinkRequest/replies``.
    case reply(VarlinkReply)
    /// The final reply, already encoded and framed (e.g. a cached answer sent to many callers
    /// without re-encoding it). It ends the call whatever its `continues` says; encode it
    /// without (``VarlinkReply/framed()`` of a reply with `continues: false`).
    case encoded(VarlinkEncodedReply)
    /// As ``encoded(_:)``, and the answer to the same call again while `validity` holds: the
    /// server may answer a later call of the same bytes on the same connection with these
    /// bytes, without decoding or handling it (a client polling with an unchanged etag). Only
    /// for a reply that depends on nothing but the call's bytes and what advances the validity's
    /// generation (not the time, not the peer's rights, not a counter).
    case repeatable(VarlinkEncodedReply, while: VarlinkReplyValidity)
    /// The call stays open: the handler kept ``VarlinkRequest/replies`` and sends the rest,
    /// ending with a final reply, or the client closes the connection.
    case streaming

    /// A final reply with these parameters.
    public static func parameters(_ parameters: [String: JSONValue]) -> VarlinkOutcome {
        .reply(VarlinkReply(parameters: parameters))
    }
}

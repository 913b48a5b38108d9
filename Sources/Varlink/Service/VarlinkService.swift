internal import Dispatch

/// A Varlink service: the registered interfaces plus the built-in `org.varlink.service`, and
/// the routing of a call to its handler with the standard errors (varlink-and-systemd.md §1.4,
/// §1.5).
///
/// Transport-free: ``handle(_:peer:replies:)`` is what the server runs for each call, and
/// ``replies(to:peer:)`` runs a call without any socket, for tests.
///
/// Sendable: immutable after init.
public final class VarlinkService: Sendable {
    static let serviceInterfaceName = "org.varlink.service"

    /// What `GetInfo` reports.
    public let info: VarlinkServiceInfo
    private let interfaces: [String: VarlinkInterface]
    /// Interface names in registration order, `org.varlink.service` first.
    private let interfaceNames: [String]
    /// Every implemented method by its fully qualified name (`io.homefeed.GetManifest`): one
    /// hashed look-up of the call's `method` routes it, with no interface and member strings
    /// cut out of it (2 200 instructions a call, callgrind, issue 17).
    private let methodsByQualifiedName: [String: VarlinkMethod]
    /// The same methods, matched by the server against a call's bytes as it decodes it.
    let routes: MethodRoutes

    /// - Precondition: interface names are unique.
    public init(info: VarlinkServiceInfo, interfaces: [VarlinkInterface]) {
        var byName: [String: VarlinkInterface] = [:]
        for interface in interfaces {
            precondition(byName[interface.name] == nil, "interface \(interface.name) registered twice")
            byName[interface.name] = interface
        }
        self.info = info
        self.interfaces = byName
        self.interfaceNames = [Self.serviceInterfaceName] + interfaces.map(\.name)
        var methods: [String: VarlinkMethod] = [:]
        var parameters: [String: [String]] = [:]
        for interface in interfaces {
            // A name with a dot could never be reached (the member is what follows the last dot).
            for (name, method) in interface.methods where !name.contains(".") {
                methods[interface.name + "." + name] = method
                parameters[interface.name + "." + name] = interface.declaredParameters[name]
            }
        }
        self.methodsByQualifiedName = methods
        self.routes = MethodRoutes(methods, parameters: parameters)
    }

    /// Runs one call: routes it, runs the method's immediate handler if it has one and then,
    /// unless that answered, its handler, and sends the final reply (or the error) through
    /// `replies`, unless the handler chose ``VarlinkOutcome/streaming``.
    public func handle(_ call: VarlinkCall, peer: VarlinkPeer, replies: VarlinkReplySink) async {
        let request = VarlinkRequest(call: call, peer: peer, replies: replies)
        switch handleImmediately(request, routed: nil) {
        case .answered(let reply, _): replies.sendFinal(reply)
        case .handled: return
        case .needsHandler(let method): await handleAsynchronously(request, with: method)
        }
    }

    /// What ``handleImmediately(_:routed:)`` did with a call.
    enum Immediate {
        /// The call is answered with this final reply, not yet sent: the caller sends it (the
        /// server queues it on the connection at once, with no hop through the sink's
        /// transport, ``VarlinkReplySink/finishInline(_:)``); with its validity when the handler
        /// made it repeatable (``VarlinkOutcome/repeatable(_:while:)``).
        case answered(VarlinkEncodedReply, repeatable: VarlinkReplyValidity? = nil)
        /// The handler took the call over (``VarlinkOutcome/streaming``): nothing to send.
        case handled
        /// The call needs the method's async handler (``handleAsynchronously(_:with:)``);
        /// nothing was sent.
        case needsHandler(VarlinkMethod)
    }

    /// Answers the request's call without suspending if it can: a routing error, `org.varlink.service`, or
    /// a method whose ``VarlinkMethod/immediateHandler`` answers. The server runs this inline on
    /// its event-loop thread.
    ///
    /// - Parameter routed: the call's route when the decoding already found it (``routes``): its
    ///   handler is then read from it, with no look-up and no copy of the ``VarlinkMethod``.
    /// - Returns: the final reply, to send through `replies` (``VarlinkReplySink/sendFinal(_:)``)
    ///   or queue directly; or what else became of the call. Returned rather than sent, so that
    ///   the server's loop thread queues the reply without a round through the sink's transport
    ///   and the connection (issue 17).
    func handleImmediately(_ request: VarlinkRequest, routed: MethodRoutes.Route?) -> Immediate {
        do throws(VarlinkError) {
            if let route = routed {
                if route.requiresMore, !request.call.more { throw .expectedMore }
                guard let immediate = route.immediateHandler, let outcome = try immediate(request) else {
                    return .needsHandler(route.method)
                }
                return Self.finalReply(outcome)
            }
            switch try resolve(request.call) {
            case .answered(let outcome):
                return Self.finalReply(outcome)
            case .method(let method):
                guard let immediate = method.immediateHandler, let outcome = try immediate(request) else {
                    return .needsHandler(method)
                }
                return Self.finalReply(outcome)
            }
        } catch {
            return .answered(VarlinkReply(error: error).framed())
        }
    }

    /// The final reply of `outcome`, encoded (`continues` cleared), or ``Immediate/handled``
    /// for a call the handler keeps.
    private static func finalReply(_ outcome: VarlinkOutcome) -> Immediate {
        switch outcome {
        case .reply(var reply):
            reply.continues = false
            return .answered(reply.framed())
        case .encoded(let reply):
            return .answered(reply)
        case .repeatable(let reply, let validity):
            return .answered(reply, repeatable: validity)
        case .streaming:
            return .handled
        }
    }

    /// Runs the async handler of `method`, which ``handleImmediately(_:routed:)`` routed
    /// `request` to and left unanswered.
    func handleAsynchronously(_ request: VarlinkRequest, with method: VarlinkMethod) async {
        do throws(VarlinkError) {
            finish(try await method.handler(request), replies: request.replies)
        } catch {
            request.replies.send(VarlinkReply(error: error))
        }
    }

    private func finish(_ outcome: VarlinkOutcome, replies: VarlinkReplySink) {
        switch outcome {
        case .reply(var reply):
            reply.continues = false
            replies.send(reply)
        case .encoded(let reply), .repeatable(let reply, _):
            replies.sendFinal(reply)
        case .streaming:
            break
        }
    }

    /// Runs `call` without a socket and streams its replies; the stream ends after the final
    /// reply (or at once for a oneway call). For tests and in-process use.
    public func replies(to call: VarlinkCall, peer: VarlinkPeer) -> AsyncStream<VarlinkReply> {
        let (stream, continuation) = AsyncStream.makeStream(of: VarlinkReply.self)
        let sink = VarlinkReplySink(call: call, transport: CollectingTransport(continuation), callID: 1)
        Task { await self.handle(call, peer: peer, replies: sink) }
        // Not synchronously: finishing the stream happens inside the sink's lock (see
        // ReplyTransport), and the consumer going away must still close the sink.
        continuation.onTermination = { _ in DispatchQueue.global().async { sink.markClosed() } }
        return stream
    }

    /// Where a call goes: answered by the routing itself (`org.varlink.service`), or a method.
    private enum Resolution {
        case answered(VarlinkOutcome)
        case method(VarlinkMethod)
    }

    /// Routes a call, throwing the standard error for an unknown interface or method and for a
    /// `more`-only method called without `more`.
    private func resolve(_ call: VarlinkCall) throws(VarlinkError) -> Resolution {
        if let method = methodsByQualifiedName[call.method] {
            if method.requiresMore, !call.more { throw .expectedMore }
            return .method(method)
        }
        let interfaceName = call.interface
        if interfaceName == Self.serviceInterfaceName { return .answered(try serviceInterface(call)) }
        guard let interface = interfaces[String(interfaceName)] else {
            // "GetInfo" without a dot has no interface part; name what was sent.
            throw .interfaceNotFound(interfaceName.isEmpty ? call.method[...] : interfaceName)
        }
        // Every implemented method of the interface is in methodsByQualifiedName.
        throw interface.declaredMethods.contains(String(call.memberName))
            ? .methodNotImplemented(call.method) : .methodNotFound(call.method)
    }

    // MARK: - org.varlink.service

    private func serviceInterface(_ call: VarlinkCall) throws(VarlinkError) -> VarlinkOutcome {
        switch call.memberName {
        case "GetInfo":
            if let unknown = call.unknownParameter(isKnown: { _ in false }) { throw .invalidParameter(unknown) }
            return .parameters([
                "vendor": .string(info.vendor),
                "product": .string(info.product),
                "version": .string(info.version),
                "url": .string(info.url),
                "interfaces": .array(interfaceNames.map { .string($0) }),
            ])
        case "GetInterfaceDescription":
            if let unknown = call.unknownParameter(isKnown: { $0 == "interface" }) { throw .invalidParameter(unknown) }
            guard let name = call.parameter("interface")?.stringValue else { throw .invalidParameter("interface") }
            let description: String
            if name == Self.serviceInterfaceName {
                description = Self.serviceDescription
            } else if let interface = interfaces[name] {
                description = interface.description
            } else {
                throw .interfaceNotFound(name)
            }
            return .parameters(["description": .string(description)])
        default:
            throw .methodNotFound(call.method)
        }
    }

    /// The standard IDL of `org.varlink.service` (varlink.org *Service*, with systemd's two
    /// additional errors), returned by `GetInterfaceDescription`.
    static let serviceDescription = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """
}

/// What `org.varlink.service.GetInfo` reports about the service.
///
/// Sendable: an immutable value.
public struct VarlinkServiceInfo: Sendable, Equatable {
    public var vendor: String
    public var product: String
    public var version: String
    public var url: String

    public init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
    }
}

/// Feeds replies into an `AsyncStream` for ``VarlinkService/replies(to:peer:)``.
private final class CollectingTransport: ReplyTransport {
    let continuation: AsyncStream<VarlinkReply>.Continuation

    init(_ continuation: AsyncStream<VarlinkReply>.Continuation) {
        self.continuation = continuation
    }

    func deliver(
        _ reply: VarlinkEncodedReply?,
        isFinal: Bool,
        policy: VarlinkBacklogPolicy,
        callID: UInt64,
        streaming: Bool
    ) {
        if let reply, let decoded = try? VarlinkReply(decoding: reply.framedBytes.dropLast()) {
            continuation.yield(decoded)
        }
        if isFinal { continuation.finish() }
    }
}

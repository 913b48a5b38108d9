/// A Varlink error reply: a fully qualified error name and its parameters
/// (varlink-and-systemd.md §1.4).
///
/// Method handlers throw it to fail a call; the client throws it (inside
/// ``VarlinkClientError/errorReply(_:)``) when the server answers with an error. The standard
/// errors of `org.varlink.service` have factory functions with the parameters systemd and the
/// Python client expect.
///
/// Sendable: an immutable value.
public struct VarlinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fully qualified, e.g. `org.varlink.service.InvalidParameter` or `io.homefeed.NoManifestYet`.
    public var name: String
    public var parameters: [String: JSONValue]

    public init(_ name: String, parameters: [String: JSONValue] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// `name {"key":value}`, or the name alone without parameters.
    public var description: String {
        parameters.isEmpty ? name : "\(name) \(JSONValue.object(parameters).encodedString)"
    }

    /// The interface part of `method` is unknown.
    public static func interfaceNotFound(_ interface: some StringProtocol) -> VarlinkError {
        VarlinkError("org.varlink.service.InterfaceNotFound", parameters: ["interface": .string(String(interface))])
    }

    /// The interface is known, the method is not. `method` is fully qualified, as sd-varlink
    /// sends it.
    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotFound", parameters: ["method": .string(method)])
    }

    /// The method is declared in the interface description but has no handler.
    public static func methodNotImplemented(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotImplemented", parameters: ["method": .string(method)])
    }

    /// A parameter is missing, unknown, of the wrong type or out of range.
    public static func invalidParameter(_ parameter: String) -> VarlinkError {
        VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": .string(parameter)])
    }

    /// The peer may not call this method (systemd addition).
    public static let permissionDenied = VarlinkError("org.varlink.service.PermissionDenied")

    /// The method may only be called with `more: true` (systemd addition).
    public static let expectedMore = VarlinkError("org.varlink.service.ExpectedMore")
}

/// A violation of the Varlink wire protocol by the peer. The server drops the connection
/// without replying (sd-varlink does the same); the client fails the call.
public enum VarlinkProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message is not valid JSON.
    case malformedJSON(JSONParseError)
    /// The message is JSON but not an object.
    case notAnObject
    /// A call without a string `method`.
    case missingMethod
    /// A known field has the wrong type, e.g. `"more": "yes"`.
    case invalidField(String)
    /// A call with both `more` and `oneway`: a stream nobody reads, refused as sd-varlink and
    /// libvarlink refuse it.
    case moreAndOneway
    /// A message longer than the limit, in bytes.
    case messageTooLarge(limit: Int)

    public var description: String {
        switch self {
        case .malformedJSON(let error): "malformed message: \(error)"
        case .notAnObject: "message is not a JSON object"
        case .missingMethod: "call without a string \"method\""
        case .invalidField(let key): "message field \"\(key)\" has the wrong type"
        case .moreAndOneway: "call with both \"more\" and \"oneway\""
        case .messageTooLarge(let limit): "message longer than \(limit) bytes"
        }
    }
}

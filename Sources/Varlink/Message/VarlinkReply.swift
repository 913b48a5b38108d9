import JSONCore

/// One Varlink reply (varlink-and-systemd.md §1.3).
///
/// The parameters are either a ``JSONValue`` object or bytes the service encoded itself: the
/// daemon serves a manifest it encoded once per version, and re-encoding a megabyte per request
/// is the cost the design forbids (§4, §5). ``framed()`` splices those bytes in unchanged.
///
/// Sendable: an immutable value.
public struct VarlinkReply: Sendable, Equatable {
    /// Output parameters, or the error's parameters.
    public var parameters: VarlinkParameters
    /// More replies to this call follow. Only meaningful for a call with `more`.
    public var continues: Bool
    /// Fully qualified error name; non-nil means the call failed.
    public var error: String?

    /// A successful reply with parameters as values.
    public init(parameters: [String: JSONValue] = [:], continues: Bool = false) {
        self.parameters = .object(parameters)
        self.continues = continues
        self.error = nil
    }

    /// A successful reply whose parameters are already encoded.
    ///
    /// - Parameter encodedParameters: one compact JSON object, UTF-8, with no NUL byte (JSON
    ///   text never contains one raw). Not validated: it is the service's own output, and
    ///   checking a megabyte per send would undo the point.
    public init(encodedParameters: [UInt8], continues: Bool = false) {
        self.parameters = .encoded(encodedParameters)
        self.continues = continues
        self.error = nil
    }

    /// A failed reply. Errors always end the call.
    public init(error: VarlinkError) {
        self.parameters = .object(error.parameters)
        self.continues = false
        self.error = error.name
    }

    /// Decodes one message received by a client.
    ///
    /// - Throws: ``VarlinkProtocolError`` for malformed JSON or wrongly typed fields.
    public init(decoding message: some Collection<UInt8>) throws(VarlinkProtocolError) {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONValue(parsing: message)
        } catch {
            throw .malformedJSON(error)
        }
        guard case .object(let object) = value else { throw .notAnObject }
        switch object["parameters"] {
        case nil, .null?: parameters = .object([:])
        case .object(let p)?: parameters = .object(p)
        default: throw .invalidField("parameters")
        }
        switch object["continues"] {
        case nil, .null?: continues = false
        case .bool(let b)?: continues = b
        default: throw .invalidField("continues")
        }
        switch object["error"] {
        case nil, .null?: error = nil
        case .string(let s)?: error = s
        default: throw .invalidField("error")
        }
    }

    /// The error as a ``VarlinkError``, when this reply is one.
    public var varlinkError: VarlinkError? {
        guard let error else { return nil }
        return VarlinkError(error, parameters: parameters.object ?? [:])
    }

    /// The whole message, NUL-terminated, ready to write: `{"continues":true,"error":…,
    /// "parameters":…}` with keys in sorted order, `continues` only when true (as sd-varlink
    /// writes it), and `parameters` always present (`{}` when empty; never `null`).
    public func framed() -> VarlinkEncodedReply {
        let capacity: Int
        switch parameters {
        case .object(let object): capacity = 64 + 32 * object.count
        case .encoded(let bytes): capacity = 64 + bytes.count
        }
        let bytes = JSONWriter.encode(pretty: false, capacity: capacity) { writer in
            writer.beginObject()
            if continues {
                writer.key("continues")
                writer.bool(true)
            }
            if let error {
                writer.key("error")
                writer.string(error)
            }
            writer.key("parameters")
            switch parameters {
            case .object(let object): writer.object(object)
            case .encoded(let bytes): writer.raw(bytes.isEmpty ? Array("{}".utf8) : bytes)
            }
            writer.endObject()
            writer.terminate(with: 0)
        }
        let isPush = continues && error == nil
        return VarlinkEncodedReply(
            framedBytes: bytes,
            continues: isPush,
            piped: isPush ? PipedReply.forPush(byteCount: bytes.count) : nil
        )
    }
}

/// Reply parameters: values, or one JSON object the service encoded itself.
public enum VarlinkParameters: Sendable, Equatable {
    case object([String: JSONValue])
    /// A compact JSON object, inserted into the reply unchanged.
    case encoded([UInt8])

    /// The members: as given, or parsed from the encoded bytes (nil if they are not an object).
    public var object: [String: JSONValue]? {
        switch self {
        case .object(let o): return o
        case .encoded(let bytes): return (try? JSONValue(parsing: bytes))?.objectValue
        }
    }
}

/// A reply encoded and framed once, sendable to any number of connections.
///
/// Fan-out to subscribers hands every connection the same array; Swift's copy-on-write means
/// no connection copies the bytes (varlink-and-systemd.md §3: "the same precomputed bytes").
/// A push of a page or more also carries a ``PipedReply``: written to a second connection, it
/// is spliced into the sockets from a kernel pipe, so the kernel does not copy it either.
///
/// Sendable: an immutable value.
public struct VarlinkEncodedReply: Sendable, Equatable {
    /// The JSON message followed by its NUL.
    public let framedBytes: [UInt8]
    /// More replies to the same call follow; false for the final reply (and for errors).
    public let continues: Bool
    /// The pipe a push is spliced from; nil for other replies.
    let piped: PipedReply?

    /// Equal when they frame the same message; how the bytes are written does not matter.
    public static func == (lhs: VarlinkEncodedReply, rhs: VarlinkEncodedReply) -> Bool {
        lhs.continues == rhs.continues && lhs.framedBytes == rhs.framedBytes
    }
}

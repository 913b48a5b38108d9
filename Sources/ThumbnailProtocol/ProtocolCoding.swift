import JSONCore

/// A protocol line that cannot be read: not JSON, or a member missing or of the wrong type.
public struct ThumbnailProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { "thumbnail protocol: \(message)" }
}

// MARK: - Encoding (one line, `\n` included)

extension ThumbnailHello {
    public var line: [UInt8] {
        encodeLine { writer in
            writer.key("hello")
            writer.string(protocolVersion)
            writer.key("vips")
            writer.string(vipsVersion)
            writer.key("limitsApplied")
            writer.bool(limitsApplied)
        }
    }

    public init(line: some Collection<UInt8>) throws(ThumbnailProtocolError) {
        let object = try ProtocolObject(line: line)
        self.init(
            protocolVersion: try object.string("hello"),
            vipsVersion: try object.string("vips"),
            limitsApplied: try object.bool("limitsApplied")
        )
    }
}

extension ThumbnailRequest {
    public var line: [UInt8] {
        encodeLine { writer in
            writer.key("id")
            writer.int(id)
            writer.key("input")
            writer.string(input)
            writer.key("renditions")
            writer.beginArray()
            for rendition in renditions {
                writer.beginObject()
                writer.key("width")
                writer.int(rendition.width)
                writer.key("height")
                writer.int(rendition.height)
                writer.key("mode")
                writer.string(rendition.mode.rawValue)
                writer.key("format")
                writer.string(rendition.format.rawValue)
                writer.key("output")
                writer.string(rendition.output)
                writer.endObject()
            }
            writer.endArray()
        }
    }

    public init(line: some Collection<UInt8>) throws(ThumbnailProtocolError) {
        let object = try ProtocolObject(line: line)
        var renditions: [RenditionRequest] = []
        for value in try object.array("renditions") {
            let item = try ProtocolObject(value, path: "renditions[\(renditions.count)]")
            let modeName = try item.string("mode")
            let formatName = try item.string("format")
            guard let mode = RenditionMode(rawValue: modeName) else {
                throw ThumbnailProtocolError("renditions[\(renditions.count)].mode: unknown \"\(modeName)\"")
            }
            guard let format = RenditionFormat(rawValue: formatName) else {
                throw ThumbnailProtocolError("renditions[\(renditions.count)].format: unknown \"\(formatName)\"")
            }
            renditions.append(
                RenditionRequest(
                    width: try item.int("width"),
                    height: try item.int("height"),
                    mode: mode,
                    format: format,
                    output: try item.string("output")
                )
            )
        }
        self.init(id: try object.int("id"), input: try object.string("input"), renditions: renditions)
    }
}

extension ThumbnailResponse {
    public var line: [UInt8] {
        encodeLine { writer in
            switch self {
            case .made(let id, let format, let width, let height, let averageColor, let renditions):
                writer.key("id")
                writer.int(id)
                writer.key("ok")
                writer.bool(true)
                writer.key("format")
                writer.string(format)
                writer.key("width")
                writer.int(width)
                writer.key("height")
                writer.int(height)
                writer.key("averageColor")
                writer.string(averageColor)
                writer.key("renditions")
                writer.beginArray()
                for rendition in renditions {
                    writer.beginObject()
                    writer.key("output")
                    writer.string(rendition.output)
                    writer.key("width")
                    writer.int(rendition.width)
                    writer.key("height")
                    writer.int(rendition.height)
                    writer.key("format")
                    writer.string(rendition.format.rawValue)
                    writer.key("bytes")
                    writer.int(rendition.bytes)
                    writer.endObject()
                }
                writer.endArray()
            case .failed(let id, let reason), .interrupted(let id, let reason):
                writer.key("id")
                writer.int(id)
                writer.key("ok")
                writer.bool(false)
                writer.key("error")
                writer.string(reason)
                if case .interrupted = self {
                    writer.key("retry")
                    writer.bool(true)
                }
            }
        }
    }

    public init(line: some Collection<UInt8>) throws(ThumbnailProtocolError) {
        let object = try ProtocolObject(line: line)
        let id = try object.int("id")
        guard try object.bool("ok") else {
            let reason = try object.string("error")
            let retry = object.has("retry") ? try object.bool("retry") : false
            self = retry ? .interrupted(id: id, reason: reason) : .failed(id: id, reason: reason)
            return
        }
        var renditions: [RenditionResult] = []
        for value in try object.array("renditions") {
            let item = try ProtocolObject(value, path: "renditions[\(renditions.count)]")
            let formatName = try item.string("format")
            guard let format = RenditionFormat(rawValue: formatName), format != .auto else {
                throw ThumbnailProtocolError("renditions[\(renditions.count)].format: unknown \"\(formatName)\"")
            }
            renditions.append(
                RenditionResult(
                    output: try item.string("output"),
                    width: try item.int("width"),
                    height: try item.int("height"),
                    format: format,
                    bytes: try item.int("bytes")
                )
            )
        }
        self = .made(
            id: id,
            format: try object.string("format"),
            width: try object.int("width"),
            height: try object.int("height"),
            averageColor: try object.string("averageColor"),
            renditions: renditions
        )
    }
}

// MARK: - The JSON underneath

/// One compact JSON object whose members `body` writes in order, then `\n`: a protocol line.
func encodeLine(_ body: (inout JSONWriter) -> Void) -> [UInt8] {
    var writer = JSONWriter(pretty: false)
    writer.beginObject()
    body(&writer)
    writer.endObject()
    writer.terminate(with: UInt8(ascii: "\n"))
    return writer.bytes
}

/// The few JSON values the protocol uses.
indirect enum ProtocolValue {
    case null
    case bool(Bool)
    case int(Int)
    case other
    case string(String)
    case array([ProtocolValue])
    case object([String: ProtocolValue])
}

enum ProtocolValueBuilder: JSONTreeBuilder {
    static func null() -> ProtocolValue { .null }
    static func bool(_ value: Bool) -> ProtocolValue { .bool(value) }
    static func number(_ number: JSONNumber, in bytes: UnsafeBufferPointer<UInt8>) -> ProtocolValue {
        number.exactInteger.map(ProtocolValue.int) ?? .other
    }
    static func string(_ value: String) -> ProtocolValue { .string(value) }
    static func array(_ elements: [ProtocolValue]) -> ProtocolValue { .array(elements) }
    static func object(_ members: [(key: String, value: ProtocolValue)]) -> ProtocolValue {
        .object(Dictionary(members, uniquingKeysWith: { first, _ in first }))
    }
    static func quoted(key: String) -> String { "\"\(key.prefix(40))\"" }
}

/// Typed access to the members of one object, errors naming the member.
struct ProtocolObject {
    let members: [String: ProtocolValue]
    let path: String

    init(line: some Collection<UInt8>) throws(ThumbnailProtocolError) {
        guard line.count <= ThumbnailProtocol.maxLineBytes else {
            throw ThumbnailProtocolError("line longer than \(ThumbnailProtocol.maxLineBytes) bytes")
        }
        let bytes = Array(line)
        let parsed: Result<ProtocolValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONSyntaxError) {
                return .success(try JSONTreeParser<ProtocolValueBuilder>.parse(buffer, maxDepth: 8))
            } catch {
                return .failure(error)
            }
        }
        switch parsed {
        case .success(let value): try self.init(value, path: "")
        case .failure(let error): throw ThumbnailProtocolError("byte \(error.offset): \(error.message)")
        }
    }

    init(_ value: ProtocolValue, path: String) throws(ThumbnailProtocolError) {
        guard case .object(let members) = value else {
            throw ThumbnailProtocolError("\(path.isEmpty ? "line" : path): expected an object")
        }
        self.members = members
        self.path = path
    }

    private func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func string(_ key: String) throws(ThumbnailProtocolError) -> String {
        guard case .string(let value)? = members[key] else {
            throw ThumbnailProtocolError("\(name(key)): expected a string")
        }
        return value
    }

    func int(_ key: String) throws(ThumbnailProtocolError) -> Int {
        guard case .int(let value)? = members[key] else {
            throw ThumbnailProtocolError("\(name(key)): expected an integer")
        }
        return value
    }

    func bool(_ key: String) throws(ThumbnailProtocolError) -> Bool {
        guard case .bool(let value)? = members[key] else {
            throw ThumbnailProtocolError("\(name(key)): expected true or false")
        }
        return value
    }

    /// Whether the object has `key` (an optional member).
    func has(_ key: String) -> Bool { members[key] != nil }

    func array(_ key: String) throws(ThumbnailProtocolError) -> [ProtocolValue] {
        guard case .array(let value)? = members[key] else {
            throw ThumbnailProtocolError("\(name(key)): expected an array")
        }
        return value
    }
}

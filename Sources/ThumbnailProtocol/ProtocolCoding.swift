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
        var writer = LineWriter()
        writer.member("hello", protocolVersion)
        writer.member("vips", vipsVersion)
        writer.member("limitsApplied", limitsApplied)
        return writer.finish()
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
        var writer = LineWriter()
        writer.member("id", id)
        writer.member("input", input)
        writer.key("renditions")
        writer.bytes.append(UInt8(ascii: "["))
        for (index, rendition) in renditions.enumerated() {
            if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            var inner = LineWriter()
            inner.member("width", rendition.width)
            inner.member("height", rendition.height)
            inner.member("mode", rendition.mode.rawValue)
            inner.member("format", rendition.format.rawValue)
            inner.member("output", rendition.output)
            writer.bytes += inner.object()
        }
        writer.bytes.append(UInt8(ascii: "]"))
        return writer.finish()
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
        var writer = LineWriter()
        switch self {
        case .made(let id, let format, let width, let height, let averageColor, let renditions):
            writer.member("id", id)
            writer.member("ok", true)
            writer.member("format", format)
            writer.member("width", width)
            writer.member("height", height)
            writer.member("averageColor", averageColor)
            writer.key("renditions")
            writer.bytes.append(UInt8(ascii: "["))
            for (index, rendition) in renditions.enumerated() {
                if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
                var inner = LineWriter()
                inner.member("output", rendition.output)
                inner.member("width", rendition.width)
                inner.member("height", rendition.height)
                inner.member("format", rendition.format.rawValue)
                inner.member("bytes", rendition.bytes)
                writer.bytes += inner.object()
            }
            writer.bytes.append(UInt8(ascii: "]"))
        case .failed(let id, let reason):
            writer.member("id", id)
            writer.member("ok", false)
            writer.member("error", reason)
        }
        return writer.finish()
    }

    public init(line: some Collection<UInt8>) throws(ThumbnailProtocolError) {
        let object = try ProtocolObject(line: line)
        let id = try object.int("id")
        guard try object.bool("ok") else {
            self = .failed(id: id, reason: try object.string("error"))
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

/// Writes one object's members in the order given, then `}\n`.
struct LineWriter {
    var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var count = 0

    mutating func key(_ name: String) {
        if count > 0 { bytes.append(UInt8(ascii: ",")) }
        count += 1
        appendJSONString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func member(_ name: String, _ value: String) {
        key(name)
        appendJSONString(value, to: &bytes)
    }

    mutating func member(_ name: String, _ value: Int) {
        key(name)
        bytes += Array(String(value).utf8)
    }

    mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bytes += Array((value ? "true" : "false").utf8)
    }

    /// The object without a line end (a nested value).
    func object() -> [UInt8] { bytes + [UInt8(ascii: "}")] }

    func finish() -> [UInt8] { bytes + [UInt8(ascii: "}"), UInt8(ascii: "\n")] }
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

    func array(_ key: String) throws(ThumbnailProtocolError) -> [ProtocolValue] {
        guard case .array(let value)? = members[key] else {
            throw ThumbnailProtocolError("\(name(key)): expected an array")
        }
        return value
    }
}

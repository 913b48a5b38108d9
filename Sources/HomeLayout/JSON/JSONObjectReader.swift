/// An object's members, checked against the keys its context allows (`JSONKeys`).
struct JSONObjectReader<Key: JSONKeys> {
    let members: [SpecJSONMember]
    let objectPath: String

    /// - Parameter keys: the allowed keys, in the order an unknown-key error lists them.
    init(_ value: SpecJSONValue, at path: String, keys: [Key]) throws(LayoutSpecError) {
        guard case .object(let members) = value else {
            throw LayoutSpecError(path: path, reason: "expected an object; found \(value.errorDescription)")
        }
        for member in members where !keys.contains(where: { $0.rawValue == member.key }) {
            throw LayoutSpecError(
                path: JSONPath.member(path, member.key),
                reason: "unknown key \(quotedForMessage(member.key)); allowed keys: "
                    + keys.map(\.rawValue).joined(separator: ", ")
            )
        }
        self.members = members
        self.objectPath = path
    }

    /// Every case of `Key` allowed.
    init(_ value: SpecJSONValue, at path: String, keys: Key.Type) throws(LayoutSpecError) {
        try self.init(value, at: path, keys: Array(Key.allCases))
    }

    /// The value for `key`, or `nil` when absent. Objects here hold only allowed keys, a
    /// dozen at most, so a linear scan is the fastest lookup.
    subscript(key: Key) -> SpecJSONValue? {
        members.first(where: { $0.key == key.rawValue })?.value
    }

    func required(_ key: Key) throws(LayoutSpecError) -> SpecJSONValue {
        guard let value = self[key] else { throw missing(key) }
        return value
    }

    func missing(_ key: Key) -> LayoutSpecError {
        LayoutSpecError(path: objectPath, reason: "missing required key \"\(key.rawValue)\"")
    }

    func path(_ key: Key) -> String { JSONPath.member(objectPath, key.rawValue) }
}

/// JSON paths in error messages.
enum JSONPath {
    /// `parent.key`, or `parent["odd key"]` when the key is not a plain identifier.
    static func member(_ parent: String, _ key: String) -> String {
        let isIdentifier =
            !key.isEmpty
            && key.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            }
        if isIdentifier { return parent.isEmpty ? key : parent + "." + key }
        return parent + "[" + quotedForMessage(key) + "]"
    }
}

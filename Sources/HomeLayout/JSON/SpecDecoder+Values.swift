/// Geometry values (sizes, dimensions, spacings, insets, points) and scalars, each with the
/// error wording of `layout-spec-format.md`: `expected …; found …`.
extension SpecDecoder {
    /// - Parameter allowsUniform: items may use `{"uniformAcrossSiblings": v}` besides the four
    ///   dimension kinds of the contract (iOS 17; `docs/layout.md`, "Self-sizing").
    func layoutSize(_ value: SpecJSONValue, at path: String, allowsUniform: Bool = false) throws(LayoutSpecError)
        -> LayoutSize
    {
        let object = try JSONObjectReader(value, at: path, keys: SizeKey.self)
        return LayoutSize(
            width: try dimension(object.required(.width), at: object.path(.width), allowsUniform: allowsUniform),
            height: try dimension(object.required(.height), at: object.path(.height), allowsUniform: allowsUniform)
        )
    }

    func dimension(_ value: SpecJSONValue, at path: String, allowsUniform: Bool = false) throws(LayoutSpecError)
        -> Dimension
    {
        if case .object(let members) = value, members.count == 1, members[0].key == "uniformAcrossSiblings" {
            guard allowsUniform else {
                throw LayoutSpecError(
                    path: path,
                    reason: "uniformAcrossSiblings sizes items only (the largest measured size among a group's items)"
                )
            }
            return .uniformAcrossSiblings(
                estimate: try positiveNumber(members[0].value, at: path + ".uniformAcrossSiblings")
            )
        }
        let (key, inner) = try singleKey(value, at: path, DimensionKey.self)
        let v = try positiveNumber(inner, at: path + "." + key.rawValue)
        switch key {
        case .fractionalWidth: return .fractionalWidth(v)
        case .fractionalHeight: return .fractionalHeight(v)
        case .absolute: return .absolute(v)
        case .estimated: return .estimated(v)
        }
    }

    func spacing(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> Spacing {
        let (key, inner) = try singleKey(value, at: path, SpacingKey.self)
        let v = try number(inner, at: path + "." + key.rawValue)
        switch key {
        case .fixed: return .fixed(v)
        case .flexible: return .flexible(v)
        }
    }

    func edgeSpacing(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> EdgeSpacing {
        let object = try JSONObjectReader(value, at: path, keys: EdgeSpacingKey.self)
        var edges = EdgeSpacing()
        if let v = object[.leading] { edges.leading = try spacing(v, at: object.path(.leading)) }
        if let v = object[.top] { edges.top = try spacing(v, at: object.path(.top)) }
        if let v = object[.trailing] { edges.trailing = try spacing(v, at: object.path(.trailing)) }
        if let v = object[.bottom] { edges.bottom = try spacing(v, at: object.path(.bottom)) }
        return edges
    }

    func insets(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> EdgeInsets {
        let object = try JSONObjectReader(value, at: path, keys: InsetKey.self)
        var insets = EdgeInsets()
        if let v = object[.top] { insets.top = try number(v, at: object.path(.top)) }
        if let v = object[.leading] { insets.leading = try number(v, at: object.path(.leading)) }
        if let v = object[.bottom] { insets.bottom = try number(v, at: object.path(.bottom)) }
        if let v = object[.trailing] { insets.trailing = try number(v, at: object.path(.trailing)) }
        return insets
    }

    func point(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> Point {
        let object = try JSONObjectReader(value, at: path, keys: PointKey.self)
        var point = Point.zero
        if let v = object[.x] { point.x = try number(v, at: object.path(.x)) }
        if let v = object[.y] { point.y = try number(v, at: object.path(.y)) }
        return point
    }

    // MARK: - Scalars

    /// An object with exactly one key out of `Key` (a DIM, a SPACING, a subitem).
    func singleKey<Key: JSONKeys>(
        _ value: SpecJSONValue,
        at path: String,
        _ keys: Key.Type
    ) throws(LayoutSpecError) -> (key: Key, value: SpecJSONValue) {
        let list = Key.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .object(let members) = value else {
            throw LayoutSpecError(
                path: path,
                reason: "expected an object with one of \(list); found \(value.errorDescription)"
            )
        }
        guard members.count == 1 else {
            let found =
                members.isEmpty ? "an empty object" : members.map { quotedForMessage($0.key) }.joined(separator: ", ")
            throw LayoutSpecError(path: path, reason: "expected exactly one of \(list); found \(found)")
        }
        let member = members[0]
        guard let key = Key(rawValue: member.key) else {
            throw LayoutSpecError(path: path, reason: "expected one of \(list); found \(quotedForMessage(member.key))")
        }
        return (key, member.value)
    }

    func array(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> [SpecJSONValue] {
        guard case .array(let elements) = value else {
            throw LayoutSpecError(path: path, reason: "expected an array; found \(value.errorDescription)")
        }
        return elements
    }

    /// Decodes every element of an array with `decode`, each at `path[i]`.
    func elements<Element>(
        _ values: [SpecJSONValue],
        at path: String,
        _ decode: (SpecJSONValue, String) throws(LayoutSpecError) -> Element
    ) throws(LayoutSpecError) -> [Element] {
        var decoded: [Element] = []
        decoded.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            decoded.append(try decode(value, path + "[\(index)]"))
        }
        return decoded
    }

    func string(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> String {
        guard case .string(let s) = value else {
            throw LayoutSpecError(path: path, reason: "expected a string; found \(value.errorDescription)")
        }
        return s
    }

    func bool(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> Bool {
        guard case .bool(let b) = value else {
            throw LayoutSpecError(path: path, reason: "expected true or false; found \(value.errorDescription)")
        }
        return b
    }

    /// A finite number (insets, spacings, offsets: any sign).
    func number(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> Double {
        guard case .number(let n) = value, n.isFinite else {
            throw LayoutSpecError(path: path, reason: "expected a finite number; found \(value.errorDescription)")
        }
        return n
    }

    /// A finite number greater than 0 (dimension values, §2.2).
    func positiveNumber(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> Double {
        let n = try number(value, at: path)
        guard n > 0 else {
            throw LayoutSpecError(path: path, reason: "expected a number greater than 0; found \(jsonNumber(n))")
        }
        return n
    }

    /// A number with no fractional part inside `range` (`2`, `2.0` and `2e0` all qualify).
    func integer(_ value: SpecJSONValue, at path: String, in range: ClosedRange<Int>) throws(LayoutSpecError) -> Int {
        let expected = "expected an integer from \(range.lowerBound) to \(range.upperBound)"
        guard case .number(let n) = value else {
            throw LayoutSpecError(path: path, reason: "\(expected); found \(value.errorDescription)")
        }
        guard n.isFinite, n == n.rounded(.towardZero), n >= Double(range.lowerBound), n <= Double(range.upperBound)
        else {
            throw LayoutSpecError(path: path, reason: "\(expected); found \(value.errorDescription)")
        }
        return Int(n)
    }

    /// One of the raw values of `cases`; the error lists them in the order given.
    func choice<E: RawRepresentable>(
        _ value: SpecJSONValue,
        at path: String,
        _ cases: [E]
    ) throws(LayoutSpecError) -> E where E.RawValue == String {
        if case .string(let s) = value, let match = cases.first(where: { $0.rawValue == s }) { return match }
        let list = cases.map(\.rawValue).joined(separator: ", ")
        throw LayoutSpecError(path: path, reason: "expected one of \(list); found \(value.errorDescription)")
    }
}

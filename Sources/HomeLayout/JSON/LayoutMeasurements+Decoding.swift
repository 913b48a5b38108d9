extension LayoutMeasurements {
    /// Decodes measured sizes for `spec` from JSON (`docs/layout.md`, "Self-sizing"): an array of
    /// entries, each naming one element and giving its `width`, `height` or both.
    ///
    /// ```jsonc
    /// [
    ///   {"section": "mainService", "item": 0, "height": 45},        // an item
    ///   {"section": 3, "elementKind": "header", "height": 60},      // a section's boundary item
    ///   {"section": 1, "item": 2, "elementKind": "badge", "width": 30},  // an item's badge
    ///   {"elementKind": "banner", "height": 80}                     // a global boundary item
    /// ]
    /// ```
    ///
    /// `section` is an index or a section id of `spec`. Strict as specs are: unknown keys, wrong
    /// types, sizes that are not finite, ≤ 0 or beyond ``LayoutLimits/maxMagnitude``, an
    /// element named twice, more than ``LayoutLimits/maxMeasurements`` entries.
    ///
    /// - Throws: ``LayoutSpecError`` naming the entry, e.g. `[2].height: expected a number
    ///   greater than 0; found -4`.
    public init(json bytes: some Collection<UInt8>, spec: LayoutSpec) throws(LayoutSpecError) {
        let root = try SpecJSONParser.parse(bytes)
        let decoder = SpecDecoder()
        let entries = try decoder.array(root, at: "")
        guard entries.count <= LayoutLimits.maxMeasurements else {
            throw LayoutSpecError(
                path: "",
                reason: "\(entries.count) measurements exceed the limit of \(LayoutLimits.maxMeasurements)"
            )
        }
        var indexByID: [String: Int] = [:]
        for (index, section) in spec.sections.enumerated() { indexByID[section.id] = index }
        self.init()
        var seen: [MeasuredElement: Int] = [:]
        for (position, entry) in entries.enumerated() {
            let path = "[\(position)]"
            let object = try JSONObjectReader(entry, at: path, keys: MeasurementKey.self)
            var section: Int?
            if let value = object[.section] {
                section = try Self.section(
                    value,
                    at: object.path(.section),
                    count: spec.sections.count,
                    ids: indexByID
                )
            }
            let item = try object[.item].map { (v) throws(LayoutSpecError) in
                try decoder.integer(v, at: object.path(.item), in: 0...LayoutLimits.maxItemsPerSection - 1)
            }
            let kind = try object[.elementKind].map { (v) throws(LayoutSpecError) in
                try decoder.elementKind(v, at: object.path(.elementKind))
            }
            let element: MeasuredElement
            switch (section, item, kind) {
            case (let section?, let item?, nil): element = .item(section: section, item: item)
            case (let section?, nil, let kind?): element = .boundary(section: section, elementKind: kind)
            case (let section?, let item?, let kind?):
                element = .itemSupplementary(section: section, item: item, elementKind: kind)
            case (nil, nil, let kind?): element = .globalBoundary(elementKind: kind)
            case (nil, _?, _):
                throw LayoutSpecError(path: object.path(.item), reason: "an item needs its \"section\"")
            case (_?, nil, nil), (nil, nil, nil):
                throw LayoutSpecError(path: path, reason: "expected \"item\", \"elementKind\" or both")
            }
            var size = MeasuredSize()
            if let v = object[.width] { size.width = try Self.size(v, at: object.path(.width), decoder) }
            if let v = object[.height] { size.height = try Self.size(v, at: object.path(.height), decoder) }
            guard size.width != nil || size.height != nil else {
                throw LayoutSpecError(path: path, reason: "expected \"width\", \"height\" or both")
            }
            if let first = seen[element] {
                throw LayoutSpecError(path: path, reason: "the element of [\(first)] is measured again")
            }
            seen[element] = position
            self[element] = size
        }
    }

    private static func section(
        _ value: SpecJSONValue,
        at path: String,
        count: Int,
        ids: [String: Int]
    ) throws(LayoutSpecError) -> Int {
        if case .string(let id) = value {
            guard let index = ids[id] else {
                throw LayoutSpecError(path: path, reason: "no section \(quotedForMessage(id)) in the spec")
            }
            return index
        }
        guard count > 0 else { throw LayoutSpecError(path: path, reason: "the spec has no sections") }
        return try SpecDecoder().integer(value, at: path, in: 0...count - 1)
    }

    private static func size(_ value: SpecJSONValue, at path: String, _ decoder: SpecDecoder) throws(LayoutSpecError)
        -> Double
    {
        let number = try decoder.positiveNumber(value, at: path)
        guard number <= LayoutLimits.maxMagnitude else {
            throw LayoutSpecError(
                path: path,
                reason: "expected at most \(jsonNumber(LayoutLimits.maxMagnitude)); found \(jsonNumber(number))"
            )
        }
        return number
    }
}

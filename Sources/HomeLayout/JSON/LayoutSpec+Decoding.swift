extension LayoutSpec {
    /// Decodes a spec from JSON bytes (`layout-spec-format.md`).
    ///
    /// Strict: unknown keys, wrong types, non-finite numbers, sizes ≤ 0, out-of-range counts
    /// and duplicate section ids are errors, and so is any JSON syntax error. Keys not given
    /// take the documented defaults. Pass a `String`'s `.utf8` to decode text.
    ///
    /// - Throws: ``LayoutSpecError`` naming the JSON path and what was expected, e.g.
    ///   `sections[1].group.subitems[0].size.width: expected one of fractionalWidth,
    ///   fractionalHeight, absolute, estimated; found "fractional"`; syntax errors also carry
    ///   line and column.
    public init(json bytes: some Collection<UInt8>) throws(LayoutSpecError) {
        let root = try JSONParser.parse(bytes)
        self = try SpecDecoder().spec(root)
    }
}

/// Walks a ``JSONValue`` into a ``LayoutSpec``, carrying the JSON path for errors.
///
/// Every error message has the shape `expected …; found …` or names the rule it breaks. What
/// the solver checks with the container in hand (§9: room for groups, conflicting
/// supplementary insets, duplicate element kinds) is left to the solver.
struct SpecDecoder {
    // MARK: - Keys

    static let topKeys = ["configuration", "sections"]
    static let configurationKeys = ["scrollDirection", "interSectionSpacing", "boundarySupplementaryItems", "platform"]
    /// Section keys a variant may override: all but `id` and `variants`.
    static let overridableSectionKeys = [
        "itemCount", "group", "contentInsets", "interGroupSpacing", "orthogonalScrollingBehavior",
        "contentInsetsReference", "supplementariesFollowContentInsets", "supplementaryContentInsetsReference",
        "boundarySupplementaryItems", "decorationItems", "list",
    ]
    static let sectionKeys = ["id"] + overridableSectionKeys + ["variants"]
    static let variantKeys = ["minWidth", "maxWidth"] + overridableSectionKeys
    static let groupKeys = [
        "axis", "size", "subitems", "count", "countMode", "interItemSpacing", "contentInsets", "edgeSpacing",
        "supplementaryItems",
    ]
    static let itemKeys = ["size", "contentInsets", "edgeSpacing", "supplementaryItems"]
    static let elementKeys = ["item", "group"]
    static let sizeKeys = ["width", "height"]
    static let dimensionKeys = ["fractionalWidth", "fractionalHeight", "absolute", "estimated"]
    static let spacingKeys = ["fixed", "flexible"]
    static let insetKeys = ["top", "leading", "bottom", "trailing"]
    static let edgeSpacingKeys = ["leading", "top", "trailing", "bottom"]
    static let pointKeys = ["x", "y"]
    static let boundaryKeys = [
        "elementKind", "size", "alignment", "offset", "extendsBoundary", "pinToVisibleBounds", "zIndex",
        "contentInsets",
    ]
    static let badgeKeys = ["elementKind", "size", "anchor", "itemAnchor", "zIndex"]
    static let anchorKeys = ["edges", "absoluteOffset", "fractionalOffset"]
    static let decorationKeys = ["elementKind", "contentInsets", "zIndex"]

    /// zIndex is an `NSInteger` in UIKit; we keep it to 32 bits so arithmetic on it (the
    /// solver raises items above a background) cannot overflow.
    static let zIndexRange = Int(Int32.min)...Int(Int32.max)

    // MARK: - Spec

    func spec(_ value: JSONValue) throws(LayoutSpecError) -> LayoutSpec {
        let object = try JSONObjectReader(value, at: "", allowed: Self.topKeys)
        var configuration = LayoutConfiguration()
        if let configurationValue = object["configuration"] {
            configuration = try self.configuration(configurationValue, at: object.path("configuration"))
        }
        let sectionsPath = object.path("sections")
        let sectionValues = try array(object.required("sections"), at: sectionsPath)
        if sectionValues.count > HomeLayout.Limits.maxSections {
            throw LayoutSpecError(
                path: sectionsPath,
                reason: "\(sectionValues.count) sections exceed the limit of \(HomeLayout.Limits.maxSections)"
            )
        }
        var sections: [LayoutSection] = []
        sections.reserveCapacity(sectionValues.count)
        var indexByID: [String: Int] = [:]
        for (index, sectionValue) in sectionValues.enumerated() {
            let path = sectionsPath + "[\(index)]"
            let section = try self.section(sectionValue, at: path)
            if let first = indexByID[section.id] {
                throw LayoutSpecError(
                    path: path + ".id",
                    reason: "duplicate section id \(quotedForMessage(section.id)); sections[\(first)] has it already"
                )
            }
            indexByID[section.id] = index
            sections.append(section)
        }
        return LayoutSpec(configuration: configuration, sections: sections)
    }

    func configuration(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> LayoutConfiguration {
        let object = try JSONObjectReader(value, at: path, allowed: Self.configurationKeys)
        var configuration = LayoutConfiguration()
        if let v = object["scrollDirection"] {
            configuration.scrollDirection = try choice(
                v,
                at: object.path("scrollDirection"),
                [Axis.vertical, .horizontal]
            )
        }
        if let v = object["interSectionSpacing"] {
            configuration.interSectionSpacing = try number(v, at: object.path("interSectionSpacing"))
        }
        if let v = object["boundarySupplementaryItems"] {
            configuration.boundarySupplementaryItems = try boundaryItems(
                v,
                at: object.path("boundarySupplementaryItems")
            )
        }
        if let v = object["platform"] {
            configuration.platform = try choice(v, at: object.path("platform"), LayoutPlatform.allCases)
        }
        return configuration
    }

    // MARK: - Sections

    func section(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> LayoutSection {
        let object = try JSONObjectReader(value, at: path, allowed: Self.sectionKeys)
        let idPath = object.path("id")
        let id = try string(object.required("id"), at: idPath)
        if id.isEmpty { throw LayoutSpecError(path: idPath, reason: "expected a non-empty string; found \"\"") }
        let isList = object["list"] != nil
        if isList {
            try rejectKeysBuiltByList(object)
        } else if object["group"] == nil {
            throw object.missing("group")
        }
        let overrides = try self.overrides(object)
        // A section has `group` or `list`, so one of them is set.
        guard let group = overrides.group ?? overrides.list?.rowGroup else { throw object.missing("group") }
        var section = LayoutSection(id: id, group: group)
        overrides.apply(to: &section)
        if let v = object["variants"] {
            let variantsPath = object.path("variants")
            let values = try array(v, at: variantsPath)
            section.variants.reserveCapacity(values.count)
            for (index, variantValue) in values.enumerated() {
                section.variants.append(try variant(variantValue, at: variantsPath + "[\(index)]", inList: isList))
            }
        }
        return section
    }

    /// A variant of a list section may change its `itemCount` and `list` only; a variant of any
    /// other section cannot turn it into a list.
    func variant(_ value: JSONValue, at path: String, inList: Bool) throws(LayoutSpecError) -> SectionVariant {
        // Explain the two section keys a variant cannot take before the generic unknown-key error.
        if case .object(let members) = value {
            if members.contains(where: { $0.key == "id" }) {
                throw LayoutSpecError(
                    path: path + ".id",
                    reason: "a variant cannot change the section id; allowed keys: "
                        + Self.variantKeys.joined(separator: ", ")
                )
            }
            if members.contains(where: { $0.key == "variants" }) {
                throw LayoutSpecError(
                    path: path + ".variants",
                    reason: "variants cannot be nested; allowed keys: " + Self.variantKeys.joined(separator: ", ")
                )
            }
        }
        let object = try JSONObjectReader(value, at: path, allowed: Self.variantKeys)
        if inList {
            try rejectKeysBuiltByList(object)
        } else if object["list"] != nil {
            throw LayoutSpecError(
                path: object.path("list"),
                reason: "only a list section's variants can set \"list\"; give the section itself a \"list\""
            )
        }
        let minWidth = try number(object.required("minWidth"), at: object.path("minWidth"))
        var maxWidth: Double?
        if let v = object["maxWidth"] {
            let maxPath = object.path("maxWidth")
            let max = try number(v, at: maxPath)
            if max <= minWidth {
                throw LayoutSpecError(
                    path: maxPath,
                    reason:
                        "expected a number greater than minWidth (\(jsonNumber(minWidth))); found \(jsonNumber(max))"
                )
            }
            maxWidth = max
        }
        return SectionVariant(minWidth: minWidth, maxWidth: maxWidth, overrides: try overrides(object))
    }

    /// The section keys shared by sections and variants; absent keys stay `nil`.
    func overrides(_ object: JSONObjectReader) throws(LayoutSpecError) -> SectionOverrides {
        var o = SectionOverrides()
        if let v = object["itemCount"] {
            o.itemCount = try integer(v, at: object.path("itemCount"), in: 0...HomeLayout.Limits.maxItemsPerSection)
        }
        if let v = object["group"] { o.group = try group(v, at: object.path("group"), depth: 1) }
        if let v = object["contentInsets"] { o.contentInsets = try insets(v, at: object.path("contentInsets")) }
        if let v = object["interGroupSpacing"] {
            o.interGroupSpacing = try number(v, at: object.path("interGroupSpacing"))
        }
        if let v = object["orthogonalScrollingBehavior"] {
            o.orthogonalScrollingBehavior = try choice(
                v,
                at: object.path("orthogonalScrollingBehavior"),
                OrthogonalScrollingBehavior.allCases
            )
        }
        if let v = object["contentInsetsReference"] {
            o.contentInsetsReference = try choice(
                v,
                at: object.path("contentInsetsReference"),
                ContentInsetsReference.allCases
            )
        }
        if let v = object["supplementariesFollowContentInsets"] {
            o.supplementariesFollowContentInsets = try bool(v, at: object.path("supplementariesFollowContentInsets"))
        }
        if let v = object["supplementaryContentInsetsReference"] {
            o.supplementaryContentInsetsReference = try choice(
                v,
                at: object.path("supplementaryContentInsetsReference"),
                ContentInsetsReference.allCases
            )
        }
        if let v = object["boundarySupplementaryItems"] {
            o.boundarySupplementaryItems = try boundaryItems(v, at: object.path("boundarySupplementaryItems"))
        }
        if let v = object["list"] { o.list = try list(v, at: object.path("list")) }
        if let v = object["decorationItems"] {
            let path = object.path("decorationItems")
            let values = try array(v, at: path)
            var decorations: [DecorationItem] = []
            for (index, element) in values.enumerated() {
                decorations.append(try decoration(element, at: path + "[\(index)]"))
            }
            o.decorationItems = decorations
        }
        return o
    }

    // MARK: - Groups and items

    func group(_ value: JSONValue, at path: String, depth: Int) throws(LayoutSpecError) -> LayoutGroup {
        if depth > HomeLayout.Limits.maxGroupDepth {
            throw LayoutSpecError(
                path: path,
                reason: "group nesting depth \(depth) exceeds the limit of \(HomeLayout.Limits.maxGroupDepth)"
            )
        }
        let object = try JSONObjectReader(value, at: path, allowed: Self.groupKeys)
        let axis = try choice(object.required("axis"), at: object.path("axis"), Axis.allCases)
        let size = try layoutSize(object.required("size"), at: object.path("size"))
        let subitemsPath = object.path("subitems")
        let subitemValues = try array(object.required("subitems"), at: subitemsPath)
        if subitemValues.isEmpty {
            throw LayoutSpecError(path: subitemsPath, reason: "expected at least one subitem; found an empty array")
        }
        var subitems: [LayoutElement] = []
        subitems.reserveCapacity(subitemValues.count)
        for (index, element) in subitemValues.enumerated() {
            subitems.append(try self.element(element, at: subitemsPath + "[\(index)]", depth: depth))
        }
        var group = LayoutGroup(axis: axis, size: size, subitems: subitems)
        if let v = object["count"] {
            group.count = try integer(v, at: object.path("count"), in: 1...HomeLayout.Limits.maxSubitemsPerGroup)
        }
        if let v = object["countMode"] {
            let modePath = object.path("countMode")
            group.countMode = try choice(v, at: modePath, [GroupCountMode.repeating, .equal])
            if group.countMode == .equal {
                if group.count == nil {
                    throw LayoutSpecError(path: modePath, reason: "\"equal\" requires \"count\" in the same group")
                }
                if subitems.count != 1 {
                    throw LayoutSpecError(
                        path: modePath,
                        reason: "\"equal\" (subitem:count:) takes exactly one subitem; found \(subitems.count)"
                    )
                }
            }
        }
        if let v = object["interItemSpacing"] {
            group.interItemSpacing = try spacing(v, at: object.path("interItemSpacing"))
        }
        if let v = object["contentInsets"] { group.contentInsets = try insets(v, at: object.path("contentInsets")) }
        if let v = object["edgeSpacing"] { group.edgeSpacing = try edgeSpacing(v, at: object.path("edgeSpacing")) }
        if let v = object["supplementaryItems"] {
            group.supplementaryItems = try badges(v, at: object.path("supplementaryItems"))
        }
        return group
    }

    /// `{"item": {…}}` or `{"group": {…}}` inside a group of nesting `depth`.
    func element(_ value: JSONValue, at path: String, depth: Int) throws(LayoutSpecError) -> LayoutElement {
        let (key, inner) = try singleKey(value, at: path, Self.elementKeys)
        if key == "item" { return .item(try item(inner, at: path + ".item")) }
        return .group(try group(inner, at: path + ".group", depth: depth + 1))
    }

    func item(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> LayoutItem {
        let object = try JSONObjectReader(value, at: path, allowed: Self.itemKeys)
        var item = LayoutItem(
            size: try layoutSize(object.required("size"), at: object.path("size"), allowsUniform: true)
        )
        if let v = object["contentInsets"] { item.contentInsets = try insets(v, at: object.path("contentInsets")) }
        if let v = object["edgeSpacing"] { item.edgeSpacing = try edgeSpacing(v, at: object.path("edgeSpacing")) }
        if let v = object["supplementaryItems"] {
            item.supplementaryItems = try badges(v, at: object.path("supplementaryItems"))
        }
        return item
    }

    // MARK: - Supplementaries and decorations

    func boundaryItems(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> [BoundarySupplementaryItem] {
        let values = try array(value, at: path)
        var items: [BoundarySupplementaryItem] = []
        items.reserveCapacity(values.count)
        for (index, element) in values.enumerated() {
            items.append(try boundaryItem(element, at: path + "[\(index)]"))
        }
        return items
    }

    func boundaryItem(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> BoundarySupplementaryItem {
        let object = try JSONObjectReader(value, at: path, allowed: Self.boundaryKeys)
        // Defaults as the contract shows them: "elementKind": "header", "alignment": "top".
        var item = BoundarySupplementaryItem(
            elementKind: try object["elementKind"].map { v throws(LayoutSpecError) in
                try elementKind(v, at: object.path("elementKind"))
            } ?? "header",
            size: try layoutSize(object.required("size"), at: object.path("size")),
            alignment: try object["alignment"].map { v throws(LayoutSpecError) in
                try choice(v, at: object.path("alignment"), BoundaryAlignment.allCases)
            } ?? .top
        )
        if let v = object["offset"] { item.offset = try point(v, at: object.path("offset")) }
        if let v = object["extendsBoundary"] { item.extendsBoundary = try bool(v, at: object.path("extendsBoundary")) }
        if let v = object["pinToVisibleBounds"] {
            item.pinToVisibleBounds = try bool(v, at: object.path("pinToVisibleBounds"))
        }
        if let v = object["zIndex"] { item.zIndex = try integer(v, at: object.path("zIndex"), in: Self.zIndexRange) }
        if let v = object["contentInsets"] { item.contentInsets = try insets(v, at: object.path("contentInsets")) }
        return item
    }

    /// An item's or a group's `supplementaryItems`.
    func badges(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> [ItemSupplementary] {
        let values = try array(value, at: path)
        var badges: [ItemSupplementary] = []
        badges.reserveCapacity(values.count)
        for (index, element) in values.enumerated() {
            badges.append(try badge(element, at: path + "[\(index)]"))
        }
        return badges
    }

    func badge(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> ItemSupplementary {
        let object = try JSONObjectReader(value, at: path, allowed: Self.badgeKeys)
        // Defaults as the contract shows them: "elementKind": "badge", anchored top-trailing.
        var badge = ItemSupplementary(
            elementKind: try object["elementKind"].map { v throws(LayoutSpecError) in
                try elementKind(v, at: object.path("elementKind"))
            } ?? "badge",
            size: try layoutSize(object.required("size"), at: object.path("size")),
            anchor: try object["anchor"].map { v throws(LayoutSpecError) in
                try anchor(v, at: object.path("anchor"))
            } ?? SupplementaryAnchor(edges: [.top, .trailing])
        )
        if let v = object["itemAnchor"] { badge.itemAnchor = try anchor(v, at: object.path("itemAnchor")) }
        if let v = object["zIndex"] { badge.zIndex = try integer(v, at: object.path("zIndex"), in: Self.zIndexRange) }
        return badge
    }

    static let edgeNames: [(name: String, edge: AnchorEdges)] = [
        ("top", .top), ("leading", .leading), ("bottom", .bottom), ("trailing", .trailing),
    ]

    func anchor(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> SupplementaryAnchor {
        let object = try JSONObjectReader(value, at: path, allowed: Self.anchorKeys)
        let edgesPath = object.path("edges")
        var edges: AnchorEdges = []
        for (index, element) in try array(object.required("edges"), at: edgesPath).enumerated() {
            let elementPath = edgesPath + "[\(index)]"
            let allowed = Self.edgeNames.map(\.name)
            guard case .string(let name) = element, let entry = Self.edgeNames.first(where: { $0.name == name }) else {
                throw LayoutSpecError(
                    path: elementPath,
                    reason: "expected one of \(allowed.joined(separator: ", ")); found \(element.errorDescription)"
                )
            }
            if edges.contains(entry.edge) {
                throw LayoutSpecError(path: elementPath, reason: "duplicate edge \"\(name)\"")
            }
            let opposite: AnchorEdges =
                switch entry.edge {
                case .top: .bottom
                case .bottom: .top
                case .leading: .trailing
                default: .leading
                }
            if edges.contains(opposite) {
                let other = Self.edgeNames.first(where: { $0.edge == opposite })?.name ?? ""
                throw LayoutSpecError(
                    path: elementPath,
                    reason: "\"\(name)\" contradicts \"\(other)\"; an anchor takes at most one edge per axis"
                )
            }
            edges.insert(entry.edge)
        }
        var anchor = SupplementaryAnchor(edges: edges)
        if let v = object["absoluteOffset"] { anchor.absoluteOffset = try point(v, at: object.path("absoluteOffset")) }
        if let v = object["fractionalOffset"] {
            anchor.fractionalOffset = try point(v, at: object.path("fractionalOffset"))
        }
        return anchor
    }

    func decoration(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> DecorationItem {
        let object = try JSONObjectReader(value, at: path, allowed: Self.decorationKeys)
        // Default as the contract shows it: "elementKind": "background".
        var decoration = DecorationItem(
            elementKind: try object["elementKind"].map { v throws(LayoutSpecError) in
                try elementKind(v, at: object.path("elementKind"))
            } ?? "background"
        )
        if let v = object["contentInsets"] {
            decoration.contentInsets = try insets(v, at: object.path("contentInsets"))
        }
        if let v = object["zIndex"] {
            decoration.zIndex = try integer(v, at: object.path("zIndex"), in: Self.zIndexRange)
        }
        return decoration
    }

    func elementKind(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> String {
        let kind = try string(value, at: path)
        if kind.isEmpty { throw LayoutSpecError(path: path, reason: "expected a non-empty string; found \"\"") }
        return kind
    }

    // MARK: - Geometry values

    /// - Parameter allowsUniform: items may use `{"uniformAcrossSiblings": v}` besides the four
    ///   dimension kinds of the contract (iOS 17; `docs/layout.md`, "Self-sizing").
    func layoutSize(_ value: JSONValue, at path: String, allowsUniform: Bool = false) throws(LayoutSpecError)
        -> LayoutSize
    {
        let object = try JSONObjectReader(value, at: path, allowed: Self.sizeKeys)
        return LayoutSize(
            width: try dimension(object.required("width"), at: object.path("width"), allowsUniform: allowsUniform),
            height: try dimension(object.required("height"), at: object.path("height"), allowsUniform: allowsUniform)
        )
    }

    func dimension(_ value: JSONValue, at path: String, allowsUniform: Bool = false) throws(LayoutSpecError)
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
        let (key, inner) = try singleKey(value, at: path, Self.dimensionKeys)
        let v = try positiveNumber(inner, at: path + "." + key)
        switch key {
        case "fractionalWidth": return .fractionalWidth(v)
        case "fractionalHeight": return .fractionalHeight(v)
        case "absolute": return .absolute(v)
        default: return .estimated(v)
        }
    }

    func spacing(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> Spacing {
        let (key, inner) = try singleKey(value, at: path, Self.spacingKeys)
        let v = try number(inner, at: path + "." + key)
        return key == "fixed" ? .fixed(v) : .flexible(v)
    }

    func edgeSpacing(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> EdgeSpacing {
        let object = try JSONObjectReader(value, at: path, allowed: Self.edgeSpacingKeys)
        var edges = EdgeSpacing()
        if let v = object["leading"] { edges.leading = try spacing(v, at: object.path("leading")) }
        if let v = object["top"] { edges.top = try spacing(v, at: object.path("top")) }
        if let v = object["trailing"] { edges.trailing = try spacing(v, at: object.path("trailing")) }
        if let v = object["bottom"] { edges.bottom = try spacing(v, at: object.path("bottom")) }
        return edges
    }

    func insets(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> EdgeInsets {
        let object = try JSONObjectReader(value, at: path, allowed: Self.insetKeys)
        var insets = EdgeInsets()
        if let v = object["top"] { insets.top = try number(v, at: object.path("top")) }
        if let v = object["leading"] { insets.leading = try number(v, at: object.path("leading")) }
        if let v = object["bottom"] { insets.bottom = try number(v, at: object.path("bottom")) }
        if let v = object["trailing"] { insets.trailing = try number(v, at: object.path("trailing")) }
        return insets
    }

    func point(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> Point {
        let object = try JSONObjectReader(value, at: path, allowed: Self.pointKeys)
        var point = Point.zero
        if let v = object["x"] { point.x = try number(v, at: object.path("x")) }
        if let v = object["y"] { point.y = try number(v, at: object.path("y")) }
        return point
    }

    // MARK: - Scalars

    /// An object with exactly one key out of `keys` (a DIM, a SPACING, a subitem).
    func singleKey(
        _ value: JSONValue,
        at path: String,
        _ keys: [String]
    ) throws(LayoutSpecError) -> (key: String, value: JSONValue) {
        let list = keys.joined(separator: ", ")
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
        guard keys.contains(member.key) else {
            throw LayoutSpecError(path: path, reason: "expected one of \(list); found \(quotedForMessage(member.key))")
        }
        return (member.key, member.value)
    }

    func array(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> [JSONValue] {
        guard case .array(let elements) = value else {
            throw LayoutSpecError(path: path, reason: "expected an array; found \(value.errorDescription)")
        }
        return elements
    }

    func string(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> String {
        guard case .string(let s) = value else {
            throw LayoutSpecError(path: path, reason: "expected a string; found \(value.errorDescription)")
        }
        return s
    }

    func bool(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> Bool {
        guard case .bool(let b) = value else {
            throw LayoutSpecError(path: path, reason: "expected true or false; found \(value.errorDescription)")
        }
        return b
    }

    /// A finite number (insets, spacings, offsets: any sign).
    func number(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> Double {
        guard case .number(let n) = value, n.isFinite else {
            throw LayoutSpecError(path: path, reason: "expected a finite number; found \(value.errorDescription)")
        }
        return n
    }

    /// A finite number greater than 0 (dimension values, §2.2).
    func positiveNumber(_ value: JSONValue, at path: String) throws(LayoutSpecError) -> Double {
        let n = try number(value, at: path)
        guard n > 0 else {
            throw LayoutSpecError(path: path, reason: "expected a number greater than 0; found \(jsonNumber(n))")
        }
        return n
    }

    /// A number with no fractional part inside `range` (`2`, `2.0` and `2e0` all qualify).
    func integer(_ value: JSONValue, at path: String, in range: ClosedRange<Int>) throws(LayoutSpecError) -> Int {
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
        _ value: JSONValue,
        at path: String,
        _ cases: [E]
    ) throws(LayoutSpecError) -> E where E.RawValue == String {
        if case .string(let s) = value, let match = cases.first(where: { $0.rawValue == s }) { return match }
        let list = cases.map(\.rawValue).joined(separator: ", ")
        throw LayoutSpecError(path: path, reason: "expected one of \(list); found \(value.errorDescription)")
    }
}

/// An object's members, checked against the keys its context allows.
struct JSONObjectReader {
    let members: [JSONMember]
    let objectPath: String

    init(_ value: JSONValue, at path: String, allowed: [String]) throws(LayoutSpecError) {
        guard case .object(let members) = value else {
            throw LayoutSpecError(path: path, reason: "expected an object; found \(value.errorDescription)")
        }
        for member in members where !allowed.contains(member.key) {
            throw LayoutSpecError(
                path: JSONObjectReader.path(path, member.key),
                reason: "unknown key \(quotedForMessage(member.key)); allowed keys: \(allowed.joined(separator: ", "))"
            )
        }
        self.members = members
        self.objectPath = path
    }

    /// The value for `key`, or `nil` when absent. Objects here hold only allowed keys, a
    /// dozen at most, so a linear scan is the fastest lookup.
    subscript(key: String) -> JSONValue? {
        members.first(where: { $0.key == key })?.value
    }

    func required(_ key: String) throws(LayoutSpecError) -> JSONValue {
        guard let value = self[key] else { throw missing(key) }
        return value
    }

    func missing(_ key: String) -> LayoutSpecError {
        LayoutSpecError(path: objectPath, reason: "missing required key \"\(key)\"")
    }

    func path(_ key: String) -> String { JSONObjectReader.path(objectPath, key) }

    /// `parent.key`, or `parent["odd key"]` when the key is not a plain identifier.
    static func path(_ parent: String, _ key: String) -> String {
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

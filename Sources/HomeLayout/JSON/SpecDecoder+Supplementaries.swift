/// Boundary supplementary items, item and group supplementaries (badges) and their anchors,
/// decoration items.
extension SpecDecoder {
    func boundaryItems(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> [BoundarySupplementaryItem] {
        try elements(array(value, at: path), at: path) { element, elementPath throws(LayoutSpecError) in
            try boundaryItem(element, at: elementPath)
        }
    }

    func boundaryItem(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> BoundarySupplementaryItem {
        let object = try JSONObjectReader(value, at: path, keys: BoundaryKey.self)
        // Defaults as the contract shows them: "elementKind": "header", "alignment": "top".
        var item = BoundarySupplementaryItem(
            elementKind: try object[.elementKind].map { v throws(LayoutSpecError) in
                try elementKind(v, at: object.path(.elementKind))
            } ?? "header",
            size: try layoutSize(object.required(.size), at: object.path(.size)),
            alignment: try object[.alignment].map { v throws(LayoutSpecError) in
                try choice(v, at: object.path(.alignment), BoundaryAlignment.allCases)
            } ?? .top
        )
        if let v = object[.offset] { item.offset = try point(v, at: object.path(.offset)) }
        if let v = object[.extendsBoundary] { item.extendsBoundary = try bool(v, at: object.path(.extendsBoundary)) }
        if let v = object[.pinToVisibleBounds] {
            item.pinToVisibleBounds = try bool(v, at: object.path(.pinToVisibleBounds))
        }
        if let v = object[.zIndex] { item.zIndex = try integer(v, at: object.path(.zIndex), in: Self.zIndexRange) }
        if let v = object[.contentInsets] { item.contentInsets = try insets(v, at: object.path(.contentInsets)) }
        return item
    }

    /// An item's or a group's `supplementaryItems`, at most `limit` of them
    /// (``LayoutLimits/maxSupplementariesPerItem``, ``LayoutLimits/maxSupplementariesPerGroup``):
    /// every item or group instance gets its own copy of each.
    func badges(_ value: SpecJSONValue, at path: String, limit: Int) throws(LayoutSpecError) -> [ItemSupplementary] {
        let values = try array(value, at: path)
        if values.count > limit {
            throw LayoutSpecError(
                path: path,
                reason: "\(values.count) supplementary items exceed the limit of \(limit)"
            )
        }
        return try elements(values, at: path) { element, elementPath throws(LayoutSpecError) in
            try badge(element, at: elementPath)
        }
    }

    func badge(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> ItemSupplementary {
        let object = try JSONObjectReader(value, at: path, keys: BadgeKey.self)
        // Defaults as the contract shows them: "elementKind": "badge", anchored top-trailing.
        var badge = ItemSupplementary(
            elementKind: try object[.elementKind].map { v throws(LayoutSpecError) in
                try elementKind(v, at: object.path(.elementKind))
            } ?? "badge",
            size: try layoutSize(object.required(.size), at: object.path(.size)),
            anchor: try object[.anchor].map { v throws(LayoutSpecError) in
                try anchor(v, at: object.path(.anchor))
            } ?? SupplementaryAnchor(edges: [.top, .trailing])
        )
        if let v = object[.itemAnchor] { badge.itemAnchor = try anchor(v, at: object.path(.itemAnchor)) }
        if let v = object[.zIndex] { badge.zIndex = try integer(v, at: object.path(.zIndex), in: Self.zIndexRange) }
        return badge
    }

    static let edgeNames: [(name: String, edge: AnchorEdges)] = [
        ("top", .top), ("leading", .leading), ("bottom", .bottom), ("trailing", .trailing),
    ]

    func anchor(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> SupplementaryAnchor {
        let object = try JSONObjectReader(value, at: path, keys: AnchorKey.self)
        let edgesPath = object.path(.edges)
        var edges: AnchorEdges = []
        for (index, element) in try array(object.required(.edges), at: edgesPath).enumerated() {
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
        if let v = object[.absoluteOffset] { anchor.absoluteOffset = try point(v, at: object.path(.absoluteOffset)) }
        if let v = object[.fractionalOffset] {
            anchor.fractionalOffset = try point(v, at: object.path(.fractionalOffset))
        }
        return anchor
    }

    func decoration(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> DecorationItem {
        let object = try JSONObjectReader(value, at: path, keys: DecorationKey.self)
        // Default as the contract shows it: "elementKind": "background".
        var decoration = DecorationItem(
            elementKind: try object[.elementKind].map { v throws(LayoutSpecError) in
                try elementKind(v, at: object.path(.elementKind))
            } ?? "background"
        )
        if let v = object[.contentInsets] {
            decoration.contentInsets = try insets(v, at: object.path(.contentInsets))
        }
        if let v = object[.zIndex] {
            decoration.zIndex = try integer(v, at: object.path(.zIndex), in: Self.zIndexRange)
        }
        return decoration
    }

    func elementKind(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> String {
        let kind = try string(value, at: path)
        if kind.isEmpty { throw LayoutSpecError(path: path, reason: "expected a non-empty string; found \"\"") }
        let limit = LayoutLimits.maxElementKindBytes
        if kind.utf8.count > limit {
            throw LayoutSpecError(
                path: path,
                reason: "an element kind of \(kind.utf8.count) bytes exceeds the limit of \(limit) bytes"
            )
        }
        return kind
    }
}

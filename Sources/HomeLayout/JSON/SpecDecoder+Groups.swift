/// Groups, their subitems and items.
extension SpecDecoder {
    func group(_ value: SpecJSONValue, at path: String, depth: Int) throws(LayoutSpecError) -> LayoutGroup {
        if depth > LayoutLimits.maxGroupDepth {
            throw LayoutSpecError(
                path: path,
                reason: "group nesting depth \(depth) exceeds the limit of \(LayoutLimits.maxGroupDepth)"
            )
        }
        let object = try JSONObjectReader(value, at: path, keys: GroupKey.self)
        let axis = try choice(object.required(.axis), at: object.path(.axis), Axis.allCases)
        let size = try layoutSize(object.required(.size), at: object.path(.size))
        let subitemsPath = object.path(.subitems)
        let subitemValues = try array(object.required(.subitems), at: subitemsPath)
        if subitemValues.isEmpty {
            throw LayoutSpecError(path: subitemsPath, reason: "expected at least one subitem; found an empty array")
        }
        let subitems = try elements(subitemValues, at: subitemsPath) { value, elementPath throws(LayoutSpecError) in
            try element(value, at: elementPath, depth: depth)
        }
        var group = LayoutGroup(axis: axis, size: size, subitems: subitems)
        if let v = object[.count] {
            group.count = try integer(v, at: object.path(.count), in: 1...LayoutLimits.maxSubitemsPerGroup)
        }
        if let v = object[.countMode] {
            let modePath = object.path(.countMode)
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
        if let v = object[.interItemSpacing] {
            group.interItemSpacing = try spacing(v, at: object.path(.interItemSpacing))
        }
        if let v = object[.contentInsets] { group.contentInsets = try insets(v, at: object.path(.contentInsets)) }
        if let v = object[.edgeSpacing] { group.edgeSpacing = try edgeSpacing(v, at: object.path(.edgeSpacing)) }
        if let v = object[.supplementaryItems] {
            group.supplementaryItems = try badges(
                v,
                at: object.path(.supplementaryItems),
                limit: LayoutLimits.maxSupplementariesPerGroup
            )
        }
        return group
    }

    /// `{"item": {…}}` or `{"group": {…}}` inside a group of nesting `depth`.
    func element(_ value: SpecJSONValue, at path: String, depth: Int) throws(LayoutSpecError) -> LayoutElement {
        let (key, inner) = try singleKey(value, at: path, ElementKey.self)
        if key == .item { return .item(try item(inner, at: path + ".item")) }
        return .group(try group(inner, at: path + ".group", depth: depth + 1))
    }

    func item(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> LayoutItem {
        let object = try JSONObjectReader(value, at: path, keys: ItemKey.self)
        var item = LayoutItem(
            size: try layoutSize(object.required(.size), at: object.path(.size), allowsUniform: true)
        )
        if let v = object[.contentInsets] { item.contentInsets = try insets(v, at: object.path(.contentInsets)) }
        if let v = object[.edgeSpacing] { item.edgeSpacing = try edgeSpacing(v, at: object.path(.edgeSpacing)) }
        if let v = object[.supplementaryItems] {
            item.supplementaryItems = try badges(
                v,
                at: object.path(.supplementaryItems),
                limit: LayoutLimits.maxSupplementariesPerItem
            )
        }
        return item
    }
}

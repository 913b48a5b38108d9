extension LayoutGroup {
    /// The deprecated `subitem:count:` form: each subitem's axis dimension becomes `1/count` of
    /// the group, so the spacing re-solve splits the length equally (§4.4).
    var equalizedSubitems: [LayoutElement] {
        let fraction = 1 / Double(max(count ?? 1, 1))
        return subitems.map { element in
            switch element {
            case .item(var item):
                if axis == .horizontal {
                    item.size.width = .fractionalWidth(fraction)
                } else {
                    item.size.height = .fractionalHeight(fraction)
                }
                return .item(item)
            case .group(var nested):
                if axis == .horizontal {
                    nested.size.width = .fractionalWidth(fraction)
                } else {
                    nested.size.height = .fractionalHeight(fraction)
                }
                return .group(nested)
            }
        }
    }
}

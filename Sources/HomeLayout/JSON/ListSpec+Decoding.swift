/// The `list` key of a section (`layout-spec-format.md` as extended in `docs/layout.md`).
extension SpecDecoder {
    func list(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> ListConfiguration {
        let object = try JSONObjectReader(value, at: path, keys: ListKey.self)
        var list = ListConfiguration(
            appearance: try choice(
                object.required(.appearance),
                at: object.path(.appearance),
                ListConfiguration.Appearance.allCases
            )
        )
        if let v = object[.headerMode] {
            list.headerMode = try choice(v, at: object.path(.headerMode), ListConfiguration.HeaderMode.allCases)
        }
        if let v = object[.footerMode] {
            list.footerMode = try choice(v, at: object.path(.footerMode), ListConfiguration.FooterMode.allCases)
        }
        if let v = object[.showsSeparators] { list.showsSeparators = try bool(v, at: object.path(.showsSeparators)) }
        if let v = object[.separatorInsets] {
            let insets = try JSONObjectReader(v, at: object.path(.separatorInsets), keys: SeparatorInsetKey.self)
            if let v = insets[.leading] { list.separatorInsets.leading = try number(v, at: insets.path(.leading)) }
            if let v = insets[.trailing] { list.separatorInsets.trailing = try number(v, at: insets.path(.trailing)) }
        }
        if let v = object[.itemHeight] {
            let heightPath = object.path(.itemHeight)
            let height = try dimension(v, at: heightPath)
            switch height {
            case .absolute, .estimated: list.itemHeight = height
            case .fractionalWidth, .fractionalHeight, .uniformAcrossSiblings:
                throw LayoutSpecError(
                    path: heightPath,
                    reason: "expected one of absolute, estimated (a row's height is not a fraction)"
                )
            }
        }
        return list
    }

    /// A list section builds its group, insets, header, footer and decorations itself.
    func rejectKeysBuiltByList(_ object: JSONObjectReader<SectionKey>) throws(LayoutSpecError) {
        for key in SectionKey.builtByList where object[key] != nil {
            throw LayoutSpecError(
                path: object.path(key),
                reason: "a list section builds its own \(key.rawValue); remove \"\(key.rawValue)\" or \"list\""
            )
        }
    }
}

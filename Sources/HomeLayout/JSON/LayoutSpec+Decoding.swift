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
        let root = try SpecJSONParser.parse(bytes)
        self = try SpecDecoder().spec(root)
    }
}

/// Walks a ``SpecJSONValue`` into a ``LayoutSpec``, carrying the JSON path for errors.
///
/// Every error message has the shape `expected …; found …` or names the rule it breaks. What
/// the solver checks with the container in hand (§9: room for groups, conflicting
/// supplementary insets, duplicate element kinds) is left to the solver.
struct SpecDecoder {
    /// zIndex is an `NSInteger` in UIKit; we keep it to 32 bits so arithmetic on it (the
    /// solver raises items above a background) cannot overflow.
    /// Within 32 bits, below the top: the solver raises cells one above a background.
    static let zIndexRange = Int(Int32.min)...Int(Int32.max) - 1

    // MARK: - Spec

    func spec(_ value: SpecJSONValue) throws(LayoutSpecError) -> LayoutSpec {
        let object = try JSONObjectReader(value, at: "", keys: TopKey.self)
        var configuration = LayoutConfiguration()
        if let configurationValue = object[.configuration] {
            configuration = try self.configuration(configurationValue, at: object.path(.configuration))
        }
        let sectionsPath = object.path(.sections)
        let sectionValues = try array(object.required(.sections), at: sectionsPath)
        if sectionValues.count > LayoutLimits.maxSections {
            throw LayoutSpecError(
                path: sectionsPath,
                reason: "\(sectionValues.count) sections exceed the limit of \(LayoutLimits.maxSections)"
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

    func configuration(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> LayoutConfiguration {
        let object = try JSONObjectReader(value, at: path, keys: ConfigurationKey.self)
        var configuration = LayoutConfiguration()
        if let v = object[.scrollDirection] {
            configuration.scrollDirection = try choice(
                v,
                at: object.path(.scrollDirection),
                [Axis.vertical, .horizontal]
            )
        }
        if let v = object[.interSectionSpacing] {
            configuration.interSectionSpacing = try number(v, at: object.path(.interSectionSpacing))
        }
        if let v = object[.boundarySupplementaryItems] {
            configuration.boundarySupplementaryItems = try boundaryItems(
                v,
                at: object.path(.boundarySupplementaryItems)
            )
        }
        if let v = object[.platform] {
            configuration.platform = try choice(v, at: object.path(.platform), LayoutPlatform.allCases)
        }
        return configuration
    }

    // MARK: - Sections

    func section(_ value: SpecJSONValue, at path: String) throws(LayoutSpecError) -> LayoutSection {
        let object = try JSONObjectReader(value, at: path, keys: SectionKey.section)
        let idPath = object.path(.id)
        let id = try string(object.required(.id), at: idPath)
        if id.isEmpty { throw LayoutSpecError(path: idPath, reason: "expected a non-empty string; found \"\"") }
        let isList = object[.list] != nil
        if isList {
            try rejectKeysBuiltByList(object)
        } else if object[.group] == nil {
            throw object.missing(.group)
        }
        let overrides = try self.overrides(object)
        // A section has `group` or `list`, so one of them is set.
        guard let group = overrides.group ?? overrides.list?.rowGroup else { throw object.missing(.group) }
        var section = LayoutSection(id: id, group: group)
        overrides.apply(to: &section)
        if let v = object[.variants] {
            let variantsPath = object.path(.variants)
            let values = try array(v, at: variantsPath)
            section.variants = try elements(values, at: variantsPath) { element, elementPath throws(LayoutSpecError) in
                try variant(element, at: elementPath, inList: isList)
            }
        }
        return section
    }

    /// A variant of a list section may change its `itemCount` and `list` only; a variant of any
    /// other section cannot turn it into a list.
    func variant(_ value: SpecJSONValue, at path: String, inList: Bool) throws(LayoutSpecError) -> SectionVariant {
        // Explain the two section keys a variant cannot take before the generic unknown-key error.
        if case .object(let members) = value {
            if members.contains(where: { $0.key == "id" }) {
                throw LayoutSpecError(
                    path: path + ".id",
                    reason: "a variant cannot change the section id; allowed keys: "
                        + SectionKey.variant.map(\.rawValue).joined(separator: ", ")
                )
            }
            if members.contains(where: { $0.key == "variants" }) {
                throw LayoutSpecError(
                    path: path + ".variants",
                    reason: "variants cannot be nested; allowed keys: "
                        + SectionKey.variant.map(\.rawValue).joined(separator: ", ")
                )
            }
        }
        let object = try JSONObjectReader(value, at: path, keys: SectionKey.variant)
        if inList {
            try rejectKeysBuiltByList(object)
        } else if object[.list] != nil {
            throw LayoutSpecError(
                path: object.path(.list),
                reason: "only a list section's variants can set \"list\"; give the section itself a \"list\""
            )
        }
        let minWidth = try number(object.required(.minWidth), at: object.path(.minWidth))
        var maxWidth: Double?
        if let v = object[.maxWidth] {
            let maxPath = object.path(.maxWidth)
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
    func overrides(_ object: JSONObjectReader<SectionKey>) throws(LayoutSpecError) -> SectionOverrides {
        var o = SectionOverrides()
        if let v = object[.itemCount] {
            o.itemCount = try integer(v, at: object.path(.itemCount), in: 0...LayoutLimits.maxItemsPerSection)
        }
        if let v = object[.group] { o.group = try group(v, at: object.path(.group), depth: 1) }
        if let v = object[.contentInsets] { o.contentInsets = try insets(v, at: object.path(.contentInsets)) }
        if let v = object[.interGroupSpacing] {
            o.interGroupSpacing = try number(v, at: object.path(.interGroupSpacing))
        }
        if let v = object[.orthogonalScrollingBehavior] {
            o.orthogonalScrollingBehavior = try choice(
                v,
                at: object.path(.orthogonalScrollingBehavior),
                OrthogonalScrollingBehavior.allCases
            )
        }
        if let v = object[.contentInsetsReference] {
            o.contentInsetsReference = try choice(
                v,
                at: object.path(.contentInsetsReference),
                ContentInsetsReference.allCases
            )
        }
        if let v = object[.supplementariesFollowContentInsets] {
            o.supplementariesFollowContentInsets = try bool(v, at: object.path(.supplementariesFollowContentInsets))
        }
        if let v = object[.supplementaryContentInsetsReference] {
            o.supplementaryContentInsetsReference = try choice(
                v,
                at: object.path(.supplementaryContentInsetsReference),
                ContentInsetsReference.allCases
            )
        }
        if let v = object[.boundarySupplementaryItems] {
            o.boundarySupplementaryItems = try boundaryItems(v, at: object.path(.boundarySupplementaryItems))
        }
        if let v = object[.list] { o.list = try list(v, at: object.path(.list)) }
        if let v = object[.decorationItems] {
            let path = object.path(.decorationItems)
            let values = try array(v, at: path)
            o.decorationItems = try elements(values, at: path) { element, elementPath throws(LayoutSpecError) in
                try decoration(element, at: elementPath)
            }
        }
        return o
    }
}

/// Solves a ``LayoutSpec`` for a container: the algorithm of §11.
///
/// Sections are laid out one after another along the scroll axis, global boundary items
/// around them, and every reported value is finally transposed (horizontal scrolling),
/// mirrored (right-to-left) and rounded to the pixel grid (§10). Pure and deterministic: the
/// same inputs give the same result, bit for bit.
public enum LayoutSolver {
    /// Solves `spec` in `environment`.
    ///
    /// - Parameters:
    ///   - itemCounts: items per section, in section order; a missing entry uses the
    ///     section's `itemCount`.
    ///   - measurements: measured sizes of items, boundary items and badges (self-sizing,
    ///     §7.1): each replaces the estimate on the element's estimated axes, and everything
    ///     after it re-fits. A measurement of an axis that is not estimated, or of an element
    ///     the layout does not have, is a warning.
    ///   - refusingNegativeStrides: also refuse, with `negativeGroupStride`, a section whose root
    ///     group repeats at a negative stride (its extent along the section's axis plus
    ///     interGroupSpacing), whatever its item count: enough items would make its content
    ///     length negative. For a spec that must take any content, as the daemon's does.
    /// - Returns: frames plus the warnings UIKit would log.
    /// - Throws: ``LayoutSolveError`` for everything UIKit raises (§9) and for values no
    ///   container can use (non-finite, non-positive sizes, limits).
    public static func solve(
        _ spec: LayoutSpec,
        in environment: LayoutEnvironment,
        itemCounts: [Int]? = nil,
        measurements: LayoutMeasurements = LayoutMeasurements(),
        refusingNegativeStrides: Bool = false
    ) throws(LayoutSolveError) -> LayoutResult {
        try validate(environment)
        try validate(measurements)
        guard spec.sections.count <= LayoutLimits.maxSections else {
            throw LayoutSolveError(
                .limitExceeded(what: "number of sections", limit: LayoutLimits.maxSections),
                path: "sections"
            )
        }
        let configuration = spec.configuration
        var diagnostics: [LayoutDiagnostic] = []
        var globalValidator = SectionValidator(sectionIndex: nil, sectionID: nil, root: [.key("configuration")])
        try globalValidator.number(
            configuration.interSectionSpacing,
            "interSectionSpacing",
            what: "interSectionSpacing"
        )
        _ = try globalValidator.boundaryItems(configuration.boundarySupplementaryItems)
        diagnostics += globalValidator.diagnostics

        // Variants are chosen by the container's width, as a section provider reading
        // `environment.container.effectiveContentSize` would.
        var sections: [LayoutSection] = []
        sections.reserveCapacity(spec.sections.count)
        var groupOrigins: [GroupOrigin] = []
        groupOrigins.reserveCapacity(spec.sections.count)
        for (index, declared) in spec.sections.enumerated() {
            let section = declared.variants.isEmpty ? declared : declared.resolved(forWidth: environment.width)
            let matching = declared.variants.isEmpty ? [] : declared.variantIndices(forWidth: environment.width)
            var validator = SectionValidator(sectionIndex: index, sectionID: section.id, root: [])
            try validator.section(
                section,
                scrollDirection: spec.configuration.scrollDirection,
                root: SectionPathRoot(index: index, variants: declared.variants, matching: matching)
            )
            diagnostics += validator.diagnostics
            if let counts = itemCounts, index < counts.count {
                let count = counts[index]
                guard count >= 0, count <= LayoutLimits.maxItemsPerSection else {
                    throw LayoutSolveError(
                        .limitExceeded(
                            what: "item count \(count) (at least 0)",
                            limit: LayoutLimits.maxItemsPerSection
                        ),
                        sectionIndex: index,
                        sectionID: section.id,
                        path: "sections[\(index)].itemCount"
                    )
                }
            }
            sections.append(section)
            let groupVariant = matching.last { Self.variant(declared.variants[$0], sets: "group") }
            let spacingVariant = matching.last { Self.variant(declared.variants[$0], sets: "interGroupSpacing") }
            groupOrigins.append(GroupOrigin(section: index, variant: groupVariant, spacingVariant: spacingVariant))
        }

        let isHorizontal = configuration.scrollDirection == .horizontal
        let solvingEnvironment = isHorizontal ? environment.transposed : environment
        let platform = environment.platform ?? configuration.platform
        let grid = PixelGrid(scale: environment.scale, floorsFractions: platform.floorsFractionalSizes)
        let globalItems =
            isHorizontal
            ? configuration.boundarySupplementaryItems.map(\.transposed) : configuration.boundarySupplementaryItems

        // §5.6: the global header band, then the sections.
        let boundary = BoundaryPlacer(environment: solvingEnvironment, grid: grid, platform: platform)
        let globalSpan = boundary.globalContainer()
        var globalSizes = boundary.sizes(globalItems, in: globalSpan, height: solvingEnvironment.height)
        var warnings = MeasurementWarnings(transposed: isHorizontal)
        var globalMeasured: [SizingAxes]?
        if !measurements.global.isEmpty {
            globalMeasured = BoundaryPlacer.measure(
                globalItems,
                sizes: &globalSizes,
                with: isHorizontal ? measurements.global.mapValues(\.transposed) : measurements.global,
                warnings: &warnings,
                path: MeasurementWarnings.boundaryPath(section: nil)
            )
        }
        for section in measurements.sections.keys.sorted() where section < 0 || section >= sections.count {
            warnings.noSuchElement(at: "sections[\(section)]")
        }
        let globalHeader = BoundaryPlacer.bandHeight(globalItems, globalSizes, top: true)
        let globalFooter = BoundaryPlacer.bandHeight(globalItems, globalSizes, top: false)

        // Items alone are a lower bound of the elements: fail before laying out any section.
        // Each section then counts all it emits before allocating it.
        var totalItems = 0
        for (index, section) in sections.enumerated() {
            totalItems += itemCounts.flatMap { index < $0.count ? $0[index] : nil } ?? section.itemCount
        }
        var emitted = globalItems.count
        var spent = 0
        guard emitted + totalItems <= LayoutLimits.maxElementsPerLayout else {
            throw LayoutSolveError(
                .limitExceeded(
                    what:
                        "elements of one solve (\(totalItems) items in all sections, \(emitted) global supplementaries)",
                    limit: LayoutLimits.maxElementsPerLayout
                ),
                path: "sections"
            )
        }

        var solver = SectionSolver(environment: solvingEnvironment, grid: grid, platform: platform)
        solver.transposed = isHorizontal
        solver.refusesNegativeStride = refusingNegativeStrides
        var layouts: [SectionLayout] = []
        layouts.reserveCapacity(sections.count)
        var y = globalHeader
        var previousProducedFrames = false
        for (index, declared) in sections.enumerated() {
            let section = isHorizontal ? declared.transposed : declared
            let count = itemCounts.flatMap { index < $0.count ? $0[index] : nil } ?? section.itemCount
            let measured = measurements.sections[index].map { isHorizontal ? $0.transposed : $0 }
            let output: SectionSolver.Output
            let producesFrames: Bool
            if let listConfiguration = section.list {
                // A list is lowered to the section UIKit builds; it adds its separators once solved.
                let position = ListSection.Position(isFirst: index == 0, isLast: index == sections.count - 1)
                let list = ListSection(listConfiguration, environment: solvingEnvironment, position: position)
                var lowered = section
                list.lower(&lowered)
                producesFrames = solver.producesFrames(lowered, itemCount: count)
                if Self.spaced(index, producesFrames, after: previousProducedFrames, on: platform) {
                    y += configuration.interSectionSpacing
                }
                var listOutput = try solver.solve(
                    lowered,
                    index: index,
                    itemCount: count,
                    y0: y,
                    group: groupOrigins[index],
                    measurements: measured,
                    emittedBefore: emitted,
                    workBefore: spent,
                    addedDecorations: list.decorationCount(rows: count)
                )
                list.decorate(&listOutput.layout)
                output = listOutput
            } else {
                producesFrames = solver.producesFrames(section, itemCount: count)
                if Self.spaced(index, producesFrames, after: previousProducedFrames, on: platform) {
                    y += configuration.interSectionSpacing
                }
                output = try solver.solve(
                    section,
                    index: index,
                    itemCount: count,
                    y0: y,
                    group: groupOrigins[index],
                    measurements: measured,
                    emittedBefore: emitted,
                    workBefore: spent
                )
            }
            diagnostics += output.diagnostics
            layouts.append(output.layout)
            emitted += output.layout.elementCount.total
            spent += output.work
            y += output.length
            previousProducedFrames = previousProducedFrames || producesFrames
        }
        let sectionsEnd = y
        let contentLength = sectionsEnd + globalFooter
        diagnostics += warnings.diagnostics
        let globalFrames = boundary.place(
            globalItems,
            sizes: globalSizes,
            measured: globalMeasured,
            in: globalSpan,
            bands: BoundaryPlacer.Bands(
                start: 0,
                headerHeight: globalHeader,
                contentTop: globalHeader,
                contentBottom: sectionsEnd,
                footerTop: sectionsEnd,
                end: contentLength
            )
        )

        // §10: transpose back, mirror for right-to-left, round.
        let contentSize =
            isHorizontal
            ? Size(width: grid.round(contentLength), height: grid.round(environment.height))
            : Size(width: grid.round(environment.width), height: grid.round(contentLength))
        let finisher = FrameFinisher(
            grid: grid,
            transpose: isHorizontal,
            // Mirror across the unrounded width, so a container off the pixel grid mirrors exactly.
            mirrorWidth: environment.layoutDirection == .rightToLeft
                ? (isHorizontal ? contentLength : environment.width) : nil
        )
        for index in layouts.indices {
            try finisher.finish(&layouts[index], isHorizontal: isHorizontal)
        }
        var globals = globalFrames
        try finisher.finish(&globals, section: nil)

        return LayoutResult(
            environment: environment,
            platform: platform,
            contentSize: contentSize,
            sections: layouts,
            globalSupplementaries: globals,
            diagnostics: diagnostics
        )
    }

    /// §5.6: whether interSectionSpacing goes before section `index`. iOS 17 puts it before
    /// every section but the first, even an empty one (measured); iOS 14 only between sections
    /// that both lay something out.
    private static func spaced(
        _ index: Int,
        _ producesFrames: Bool,
        after previousProducedFrames: Bool,
        on platform: LayoutPlatform
    ) -> Bool {
        switch platform {
        case .ios17: index > 0
        case .ios14: producesFrames && previousProducedFrames
        }
    }

    private static func validate(_ environment: LayoutEnvironment) throws(LayoutSolveError) {
        func check(_ value: Double, _ name: String, positive: Bool) throws(LayoutSolveError) {
            let limit = LayoutLimits.maxMagnitude
            guard value.isFinite, positive ? value > 0 : value >= 0, value <= limit else {
                let bound = positive ? "greater than 0" : "at least 0"
                throw LayoutSolveError(
                    .invalidContainer("\(name) \(fmt(value)) must be finite, \(bound) and at most \(fmt(limit))")
                )
            }
        }
        try check(environment.width, "width", positive: true)
        try check(environment.height, "height", positive: true)
        try check(environment.scale, "scale", positive: false)
        for (name, insets) in [
            ("safe area", environment.safeAreaInsets),
            ("layout margins", environment.layoutMargins),
            ("readable content", environment.readableContentInsets),
        ] {
            for value in [insets.top, insets.leading, insets.bottom, insets.trailing] {
                try check(value, "\(name) inset", positive: false)
            }
        }
    }

    /// Measured values are sizes: finite, greater than 0, within ``LayoutLimits/maxMagnitude``.
    private static func validate(_ measurements: LayoutMeasurements) throws(LayoutSolveError) {
        guard measurements.count <= LayoutLimits.maxMeasurements else {
            throw LayoutSolveError(
                .limitExceeded(what: "measurements (\(measurements.count))", limit: LayoutLimits.maxMeasurements),
                path: "measurements"
            )
        }
        func check(_ size: MeasuredSize, _ path: @autoclosure () -> String) throws(LayoutSolveError) {
            for (value, axis) in [(size.width, "width"), (size.height, "height")] {
                guard let value else { continue }
                guard value.isFinite, value > 0, value <= LayoutLimits.maxMagnitude else {
                    throw LayoutSolveError(.invalidValue(what: "measured \(axis)", value: value), path: path())
                }
            }
        }
        for (kind, size) in measurements.global { try check(size, "measurements: supplementaries[\(kind)]") }
        for (index, section) in measurements.sections {
            for (item, size) in section.items {
                try check(size, "measurements: " + MeasurementWarnings.itemPath(section: index, item: item))
            }
            for (kind, size) in section.boundary {
                try check(size, "measurements: sections[\(index)].supplementaries[\(kind)]")
            }
            for (item, byKind) in section.itemSupplementaries {
                for (kind, size) in byKind {
                    let path = MeasurementWarnings.itemPath(section: index, item: item) + ".supplementaries[\(kind)]"
                    try check(size, "measurements: " + path)
                }
            }
        }
    }

    /// Whether a variant sets the section key `key` (for error paths into variants).
    static func variant(_ variant: SectionVariant, sets key: String) -> Bool {
        let o = variant.overrides
        switch key {
        case "itemCount": return o.itemCount != nil
        case "group": return o.group != nil
        case "contentInsets": return o.contentInsets != nil
        case "interGroupSpacing": return o.interGroupSpacing != nil
        case "supplementariesFollowContentInsets":
            return o.supplementariesFollowContentInsets != nil || o.supplementaryContentInsetsReference != nil
        case "boundarySupplementaryItems": return o.boundarySupplementaryItems != nil
        case "decorationItems": return o.decorationItems != nil
        case "list": return o.list != nil
        default: return false
        }
    }
}

/// Where a section's root group was declared, and the interGroupSpacing that repeats it: the
/// section, or the variant that set each. Error paths start there; they are rendered only when
/// a solve fails, not for every solve.
struct GroupOrigin {
    var section: Int
    var variant: Int?
    var spacingVariant: Int? = nil

    /// `sections[1].group`, or `sections[1].variants[0].group`.
    var path: String { root(variant) + ".group" }

    /// `sections[1].interGroupSpacing`, or `sections[1].variants[0].interGroupSpacing`.
    var spacingPath: String { root(spacingVariant) + ".interGroupSpacing" }

    private func root(_ variant: Int?) -> String {
        "sections[\(section)]" + (variant.map { ".variants[\($0)]" } ?? "")
    }
}

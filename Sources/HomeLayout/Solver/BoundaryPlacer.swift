/// Sizes and places boundary supplementaries around a section or the whole layout (§6.1–6.3).
struct BoundaryPlacer {
    let environment: LayoutEnvironment
    let grid: PixelGrid
    /// On iOS 14 a pinned header stops at the end of the content (not of the footer), and that
    /// bound applies at rest too: a section whose content is shorter than nothing pulls its
    /// pinned header up.
    let platform: LayoutPlatform

    /// The horizontal extent supplementaries are sized and aligned in.
    struct Span {
        var x: Double
        var width: Double
    }

    /// The y positions of a section's parts, start to end.
    struct Bands {
        var start: Double
        var headerHeight: Double
        var contentTop: Double
        var contentBottom: Double
        var footerTop: Double
        var end: Double
    }

    /// §6.1: the section's inset content width when supplementaries follow the content insets
    /// (the default), else the layout container, or the guide a supplementary reference names.
    func container(for section: LayoutSection, reference: EdgeInsets) -> Span {
        let containerWidth = environment.width
        if let supplementaryReference = section.supplementaryContentInsetsReference,
            supplementaryReference != .automatic
        {
            let guide = environment.insets(for: supplementaryReference)
            return Span(x: guide.leading, width: containerWidth - guide.leading - guide.trailing)
        }
        if section.supplementariesFollowContentInsets ?? true {
            let leading = reference.leading + section.contentInsets.leading
            let trailing = reference.trailing + section.contentInsets.trailing
            return Span(x: leading, width: containerWidth - leading - trailing)
        }
        return Span(x: reference.leading, width: containerWidth - reference.leading - reference.trailing)
    }

    /// The global container: the layout container with the automatic (safe-area) guide (§5.6).
    func globalContainer() -> Span {
        let guide = environment.insets(for: .automatic)
        return Span(x: guide.leading, width: environment.width - guide.leading - guide.trailing)
    }

    func sizes(_ items: [BoundarySupplementaryItem], in span: Span, height: Double) -> [Size] {
        let container = Container(width: span.width, height: height)
        return items.map { grid.resolve($0.size, in: container) }
    }

    /// §7.1: measured sizes replace the estimates of the items they name (by element kind), on
    /// estimated axes only; the bands, pin ranges and later sections follow from the sizes.
    ///
    /// - Returns: the axes each item took a measurement on, in declaration order.
    static func measure(
        _ items: [BoundarySupplementaryItem],
        sizes: inout [Size],
        with measured: [String: MeasuredSize],
        warnings: inout MeasurementWarnings,
        path: String
    ) -> [SizingAxes] {
        var applied = [SizingAxes](repeating: [], count: items.count)
        var used = 0
        for (index, item) in items.enumerated() {
            guard let size = measured[item.elementKind] else { continue }
            used += 1
            let estimated = SizingAxes(estimatedIn: item.size)
            sizes[index] = size.applied(to: sizes[index], on: estimated)
            applied[index] = size.axes.intersection(estimated)
            warnings.ignoredAxes(size.axes.subtracting(estimated), at: path + "[\(item.elementKind)]")
        }
        if used < measured.count {
            let kinds = Set(items.map(\.elementKind))
            for kind in measured.keys.sorted() where !kinds.contains(kind) {
                warnings.noSuchElement(at: path + "[\(kind)]")
            }
        }
        return applied
    }

    /// The header (`top`) or footer band: the tallest extending item on that edge (§5.5).
    static func bandHeight(_ items: [BoundarySupplementaryItem], _ sizes: [Size], top: Bool) -> Double {
        var height = 0.0
        for (item, size) in zip(items, sizes) where item.extendsBoundary {
            if top ? item.alignment.isTop : item.alignment.isBottom { height = max(height, size.height) }
        }
        return height
    }

    /// Frames in declaration order. Extending headers sit bottom-aligned in the header band,
    /// extending footers at the top of the footer band; the others are anchored inside the
    /// content rectangle ([L], §6.2). Side-aligned items are centred on the content vertically.
    func place(
        _ items: [BoundarySupplementaryItem],
        sizes: [Size],
        measured: [SizingAxes]? = nil,
        in span: Span,
        bands: Bands
    ) -> [SupplementaryFrame] {
        var frames: [SupplementaryFrame] = []
        frames.reserveCapacity(items.count)
        for (index, (item, size)) in zip(items, sizes).enumerated() {
            let alignment = item.alignment
            var x = span.x + (span.width - size.width) / 2
            if alignment.isLeading {
                x = span.x
            } else if alignment.isTrailing {
                x = span.x + span.width - size.width
            }
            let y: Double
            if alignment.isTop {
                y = item.extendsBoundary ? bands.start + bands.headerHeight - size.height : bands.contentTop
            } else if alignment.isBottom {
                y = item.extendsBoundary ? bands.footerTop : bands.contentBottom - size.height
            } else {
                y = bands.contentTop + (bands.contentBottom - bands.contentTop - size.height) / 2
            }
            let slot = Rect(x: x + item.offset.x, y: y + item.offset.y, width: size.width, height: size.height)
            var frame = slot.inset(by: item.contentInsets.ignoringEstimatedAxes(of: item.size))
            var pinRange: PinRange?
            if item.pinToVisibleBounds {
                // §6.3: headers clamp between their rest position and the section end (with its
                // footer) minus their height; footers between the section start and rest.
                if alignment.isBottom {
                    pinRange = PinRange(min: min(bands.start, frame.y), max: frame.y)
                } else if platform == .ios14 {
                    frame.y = min(frame.y, bands.contentBottom - frame.height)
                    pinRange = PinRange(min: frame.y, max: max(frame.y, bands.contentBottom - frame.height))
                } else {
                    pinRange = PinRange(min: frame.y, max: max(frame.y, bands.end - frame.height))
                }
            }
            frames.append(
                SupplementaryFrame(
                    elementKind: item.elementKind,
                    item: nil,
                    frame: frame,
                    zIndex: item.zIndex,
                    pinToVisibleBounds: item.pinToVisibleBounds,
                    pinRange: pinRange,
                    estimatedAxes: SizingAxes(estimatedIn: item.size),
                    measuredAxes: measured?[index] ?? []
                )
            )
        }
        return frames
    }
}

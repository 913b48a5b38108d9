/// A list section (`NSCollectionLayoutSection.list(using:layoutEnvironment:)`) in two steps:
/// ``lower(_:)`` builds the compositional section UIKit builds (rows, insets, header, footer),
/// which the section solver lays out like any other; ``decorate(_:)`` then adds what only lists
/// have, the row separators and the inset-grouped card, as decorations.
///
/// Every number here is in `docs/layout.md` ("List sections") with its source and confidence.
struct ListSection {
    /// Where the section sits in the layout: the first and last sections get other spacing.
    struct Position {
        var isFirst: Bool
        var isLast: Bool
    }

    let configuration: ListConfiguration
    let environment: LayoutEnvironment
    let position: Position
    /// The layout margins the rows and separators align to: 16, or 20 on containers 414 wide
    /// and more, or the environment's layout margins when larger.
    let leadingMargin: Double
    let trailingMargin: Double

    /// Row height UIKit estimates when nothing else is given.
    static let estimatedRowHeight = 44.0
    /// Default header and footer heights: plain appearances, and grouped ones.
    static let plainHeaderFooterHeight = 28.0
    static let groupedHeaderFooterHeight = 17.5
    /// Grouped appearances: space above the first section without a header, and below the last
    /// section without a footer.
    static let groupedTopPadding = 35.0
    static let groupedBottomPadding = 20.0
    /// Sidebar: space below a section without a footer.
    static let sidebarBottomPadding = 10.0
    /// Plain: space above a first-item header.
    static let plainHeaderTopPadding = 22.0
    static let cornerRadius = 10.0
    static let separatorZIndex = 100
    static let headerFooterZIndex = 200

    init(_ configuration: ListConfiguration, environment: LayoutEnvironment, position: Position) {
        self.configuration = configuration
        self.environment = environment
        self.position = position
        let standard = environment.width >= 414 ? 20.0 : 16.0
        let margins = environment.insets(for: .layoutMargins)
        leadingMargin = max(standard, margins.leading)
        trailingMargin = max(standard, margins.trailing)
    }

    private var appearance: ListConfiguration.Appearance { configuration.appearance }
    private var isPlain: Bool { appearance == .plain || appearance == .sidebarPlain }
    private var hasHeader: Bool { configuration.headerMode != .none }
    private var hasFooter: Bool { configuration.footerMode == .supplementary }
    /// The first row is the header row, kept out of separators and the card.
    private var firstRowIsHeader: Bool { configuration.headerMode == .firstItemInSection }
    var showsSeparators: Bool {
        configuration.showsSeparators ?? (appearance != .sidebar && appearance != .sidebarPlain)
    }

    /// A default height moved up to the next pixel boundary, as UIKit does with 17.5 at 3x.
    private func pixelCeil(_ v: Double) -> Double {
        environment.scale > 0 ? (v * environment.scale).rounded(.up) / environment.scale : v
    }

    private var defaultHeaderFooterHeight: Double {
        pixelCeil(isPlain ? Self.plainHeaderFooterHeight : Self.groupedHeaderFooterHeight)
    }

    /// Replaces the section's group, insets, boundary and decoration items with the list's.
    func lower(_ section: inout LayoutSection) {
        section.group = configuration.rowGroup
        section.interGroupSpacing = 0
        section.orthogonalScrollingBehavior = .none
        section.contentInsetsReference = .none
        section.contentInsets = contentInsets
        section.supplementariesFollowContentInsets = !isPlain
        section.supplementaryContentInsetsReference = nil
        section.decorationItems = []
        section.boundarySupplementaryItems = []
        let size = LayoutSize(width: .fractionalWidth(1), height: .estimated(defaultHeaderFooterHeight))
        if configuration.headerMode == .supplementary {
            section.boundarySupplementaryItems.append(
                BoundarySupplementaryItem(
                    elementKind: "header",
                    size: size,
                    alignment: .top,
                    pinToVisibleBounds: isPlain,
                    zIndex: Self.headerFooterZIndex
                )
            )
        }
        if hasFooter {
            section.boundarySupplementaryItems.append(
                BoundarySupplementaryItem(
                    elementKind: "footer",
                    size: size,
                    alignment: .bottom,
                    pinToVisibleBounds: isPlain,
                    zIndex: Self.headerFooterZIndex
                )
            )
        }
    }

    /// The appearance's section insets: margins on the sides of inset appearances, and the
    /// vertical padding that separates grouped sections.
    private var contentInsets: EdgeInsets {
        var insets = EdgeInsets()
        if appearance == .insetGrouped || appearance == .sidebar || appearance == .sidebarPlain {
            insets.leading = leadingMargin
            insets.trailing = trailingMargin
        }
        switch appearance {
        case .grouped, .insetGrouped:
            if !hasHeader {
                insets.top = position.isFirst ? Self.groupedTopPadding : defaultHeaderFooterHeight
            }
            if !hasFooter {
                insets.bottom = position.isLast ? Self.groupedBottomPadding : defaultHeaderFooterHeight
            }
        case .plain:
            if firstRowIsHeader { insets.top = Self.plainHeaderTopPadding }
        case .sidebar:
            if !hasFooter { insets.bottom = Self.sidebarBottomPadding }
        case .sidebarPlain:
            break
        }
        return insets
    }

    /// How many decorations ``decorate(_:)`` adds to a section of `rows` rows, known before the
    /// section is laid out (its elements count against the limits).
    func decorationCount(rows: Int) -> Int {
        let first = firstRowIsHeader ? 1 : 0
        guard first < rows else { return 0 }
        var count = appearance == .insetGrouped ? 1 : 0
        guard showsSeparators else { return count }
        if appearance == .grouped || (isPlain && configuration.headerMode == .supplementary) { count += 1 }
        count += rows - 1 - first
        if appearance == .grouped || isPlain { count += 1 }
        return count
    }

    /// Adds the separators (one decoration per visible separator, with the row it belongs to)
    /// and, for inset grouped lists, the rounded card behind the rows.
    func decorate(_ layout: inout SectionLayout) {
        let rows = layout.itemFrames
        let first = firstRowIsHeader ? 1 : 0
        guard first < rows.count else { return }
        if appearance == .insetGrouped {
            let top = rows[first]
            let card = Rect(x: top.x, y: top.y, width: top.width, height: rows[rows.count - 1].maxY - top.y)
            layout.decorations.append(
                DecorationFrame(elementKind: "background", frame: card, zIndex: 0, cornerRadius: Self.cornerRadius)
            )
            layout.itemZIndex = max(layout.itemZIndex, 1)
        }
        guard showsSeparators else { return }
        // A hairline: one pixel, or one point without a pixel grid.
        let thickness = environment.scale > 0 ? 1 / environment.scale : 1
        let leading = configuration.separatorInsets.leading ?? leadingMargin
        let trailing = configuration.separatorInsets.trailing ?? 0
        func separator(_ kind: String, _ row: Int, atTop: Bool, fullWidth: Bool) -> DecorationFrame {
            let frame = rows[row]
            let inset = fullWidth ? (0.0, 0.0) : (leading, trailing)
            // Insets wider than the row leave a zero-wide line, never a negative width: it starts
            // at the leading inset, but no further than the row's trailing edge.
            return DecorationFrame(
                elementKind: kind,
                frame: Rect(
                    x: frame.x + min(inset.0, frame.width),
                    y: atTop ? frame.y : frame.maxY - thickness,
                    width: max(frame.width - inset.0 - inset.1, 0),
                    height: thickness
                ),
                zIndex: Self.separatorZIndex,
                item: row
            )
        }
        // Above the first row: grouped lists draw a full-width top line; plain lists draw one
        // under their (pinned) supplementary header.
        if appearance == .grouped || (isPlain && configuration.headerMode == .supplementary) {
            layout.decorations.append(separator("topSeparator", first, atTop: true, fullWidth: true))
        }
        for row in first..<rows.count - 1 {
            layout.decorations.append(separator("separator", row, atTop: false, fullWidth: false))
        }
        // Below the last row: full width in grouped lists, inset like the others in plain ones,
        // none where the card's rounded edge ends the section.
        if appearance == .grouped || isPlain {
            layout.decorations.append(separator("separator", rows.count - 1, atTop: false, fullWidth: !isPlain))
        }
    }
}

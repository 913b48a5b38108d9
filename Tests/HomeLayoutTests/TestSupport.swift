@testable import HomeLayout

/// Shorthands that keep the rule tests close to the spec's own notation.
func item(_ w: Dimension, _ h: Dimension, insets: EdgeInsets = .zero, edges: EdgeSpacing? = nil) -> LayoutElement {
    .item(LayoutItem(size: LayoutSize(width: w, height: h), contentInsets: insets, edgeSpacing: edges))
}

func hgroup(
    _ w: Dimension,
    _ h: Dimension,
    _ subitems: [LayoutElement],
    spacing: Spacing? = nil,
    count: Int? = nil,
    countMode: GroupCountMode = .repeating,
    insets: EdgeInsets = .zero,
    edges: EdgeSpacing? = nil
) -> LayoutGroup {
    LayoutGroup(
        axis: .horizontal,
        size: LayoutSize(width: w, height: h),
        subitems: subitems,
        count: count,
        countMode: countMode,
        interItemSpacing: spacing,
        contentInsets: insets,
        edgeSpacing: edges
    )
}

/// ``hgroup`` along the vertical axis.
func vgroup(
    _ w: Dimension,
    _ h: Dimension,
    _ subitems: [LayoutElement],
    spacing: Spacing? = nil,
    count: Int? = nil,
    countMode: GroupCountMode = .repeating,
    insets: EdgeInsets = .zero,
    edges: EdgeSpacing? = nil
) -> LayoutGroup {
    var group = hgroup(
        w,
        h,
        subitems,
        spacing: spacing,
        count: count,
        countMode: countMode,
        insets: insets,
        edges: edges
    )
    group.axis = .vertical
    return group
}

/// Solves a one-section layout and returns the result.
func solve(
    _ group: LayoutGroup,
    count: Int,
    width: Double = 375,
    height: Double = 812,
    scale: Double = 2,
    configure: (inout LayoutSection) -> Void = { _ in }
) throws(LayoutSolveError) -> LayoutResult {
    var section = LayoutSection(id: "s", itemCount: count, group: group)
    configure(&section)
    return try LayoutSolver.solve(
        LayoutSpec(sections: [section]),
        in: LayoutEnvironment(width: width, height: height, scale: scale)
    )
}

/// The item frames of a one-section layout.
func frames(
    _ group: LayoutGroup,
    count: Int,
    width: Double = 375,
    height: Double = 812,
    scale: Double = 2,
    configure: (inout LayoutSection) -> Void = { _ in }
) throws(LayoutSolveError) -> [Rect] {
    try solve(group, count: count, width: width, height: height, scale: scale, configure: configure).sections[0]
        .itemFrames
}

/// The error a one-section layout raises, or nil.
func solveError(
    _ group: LayoutGroup,
    count: Int = 1,
    width: Double = 375,
    configure: (inout LayoutSection) -> Void = { _ in }
) -> LayoutSolveError? {
    do {
        _ = try solve(group, count: count, width: width, configure: configure)
        return nil
    } catch {
        return error
    }
}

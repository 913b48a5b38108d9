extension SectionSolver {
    /// §9 item 1: UIKit refuses a negative content length. Negative interGroupSpacing may overlap
    /// repetitions, but once it outweighs the groups the content (`primary`, P of §5.4, along
    /// x for an orthogonal row) would end before it starts and every later frame would move back:
    /// that is an error naming where the spacing (or else the group) was declared. An empty section has no content
    /// to check (iOS 14's literal −interGroupSpacing is its own rule, "Platforms").
    func checkContentLength(
        _ primary: Double,
        of section: LayoutSection,
        index: Int,
        isOrthogonal: Bool,
        origin: GroupOrigin
    ) throws(LayoutSolveError) {
        guard primary < 0 else { return }
        let axis: Axis = isOrthogonal ? .horizontal : .vertical
        throw LayoutSolveError(
            .negativeContentLength(
                length: primary,
                spacing: section.interGroupSpacing,
                axis: transposed ? axis.transposed : axis
            ),
            sectionIndex: index,
            sectionID: section.id,
            // Negative root edge spacing can do the same without negative interGroupSpacing.
            path: section.interGroupSpacing < 0 ? origin.spacingPath : origin.path
        )
    }
}

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
        throw negativeLength(
            .negativeContentLength(
                length: primary,
                spacing: section.interGroupSpacing,
                axis: reportedAxis(isOrthogonal: isOrthogonal)
            ),
            of: section,
            index: index,
            origin: origin
        )
    }

    /// §9 item 1 for any item count (``refusesNegativeStride``): each repetition adds `extent`
    /// (the root group along the section's axis, root edge spacing included) plus
    /// interGroupSpacing to P, so a negative sum makes P negative once the section holds enough
    /// groups, however few it holds now. A stride of 0 or more only overlaps groups.
    func checkStride(
        extent: Double,
        of section: LayoutSection,
        index: Int,
        isOrthogonal: Bool,
        origin: GroupOrigin
    ) throws(LayoutSolveError) {
        guard refusesNegativeStride, extent + section.interGroupSpacing < 0 else { return }
        throw negativeLength(
            .negativeGroupStride(
                extent: extent,
                spacing: section.interGroupSpacing,
                axis: reportedAxis(isOrthogonal: isOrthogonal)
            ),
            of: section,
            index: index,
            origin: origin
        )
    }

    /// The section's axis as the spec spells it: x for an orthogonal row, swapped back for a
    /// layout solved transposed.
    private func reportedAxis(isOrthogonal: Bool) -> Axis {
        let axis: Axis = isOrthogonal ? .horizontal : .vertical
        return transposed ? axis.transposed : axis
    }

    private func negativeLength(
        _ kind: LayoutSolveError.Kind,
        of section: LayoutSection,
        index: Int,
        origin: GroupOrigin
    ) -> LayoutSolveError {
        LayoutSolveError(
            kind,
            sectionIndex: index,
            sectionID: section.id,
            // Negative root edge spacing can do the same without negative interGroupSpacing.
            path: section.interGroupSpacing < 0 ? origin.spacingPath : origin.path
        )
    }
}

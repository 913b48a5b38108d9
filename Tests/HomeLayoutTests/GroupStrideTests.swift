import Testing

@testable import HomeLayout

/// §9 item 1 for any item count: with `refusingNegativeStrides` (configuration loading), a
/// section whose groups repeat at a negative stride is refused before content makes it negative.
@Suite struct GroupStrideTests {
    let fill = item(.fractionalWidth(1), .fractionalHeight(1))

    /// The error of a one-section layout solved as configuration loading solves it, or nil.
    func strideError(
        _ group: LayoutGroup,
        count: Int = 0,
        scrollDirection: Axis = .vertical,
        configure: (inout LayoutSection) -> Void = { _ in }
    ) -> LayoutSolveError? {
        var section = LayoutSection(id: "s", itemCount: count, group: group)
        configure(&section)
        do {
            _ = try LayoutSolver.solve(
                LayoutSpec(configuration: LayoutConfiguration(scrollDirection: scrollDirection), sections: [section]),
                in: LayoutEnvironment(width: 375, height: 812, scale: 2),
                refusingNegativeStrides: true
            )
            return nil
        } catch {
            return error
        }
    }

    @Test("an empty section whose 50-high groups are spaced -60 is refused, naming the spacing; -50 is not")
    func emptySection() throws {
        let group = vgroup(.fractionalWidth(1), .absolute(50), [fill])
        let error = try #require(strideError(group) { $0.interGroupSpacing = -60 })
        #expect(error.kind == .negativeGroupStride(extent: 50, spacing: -60, axis: .vertical))
        #expect(error.code == "negativeGroupStride")
        #expect(error.path == "sections[0].interGroupSpacing")
        #expect(
            error.description
                == "section 0 (s): sections[0].interGroupSpacing: a group 50 pt long along vertical with "
                + "interGroupSpacing -60 repeats every -10 pt: each group makes the section shorter, so enough "
                + "items would make its content length negative (UIKit refuses a negative content length)"
        )
        // Whatever the spec's own count: one group, or six that still leave a positive length.
        #expect(strideError(group, count: 1) { $0.interGroupSpacing = -60 }?.code == "negativeGroupStride")
        #expect(strideError(group, count: 6) { $0.interGroupSpacing = -60 }?.code == "negativeGroupStride")
        // A plain solve lays those counts out, as before: only content that goes negative fails.
        #expect(solveError(group, count: 6) { $0.interGroupSpacing = -60 } == nil)
        // Spacing that only overlaps groups stays valid, a stride of 0 included.
        #expect(strideError(group) { $0.interGroupSpacing = -50 } == nil)
        #expect(strideError(group, count: 3) { $0.interGroupSpacing = -20 } == nil)
    }

    @Test("an orthogonal row, a horizontal layout and a variant are refused along their own axis and path")
    func axesAndVariants() throws {
        let wide = hgroup(.absolute(100), .absolute(50), [fill])
        let row = try #require(
            strideError(wide) {
                $0.interGroupSpacing = -150
                $0.orthogonalScrollingBehavior = .continuous
            }
        )
        #expect(row.kind == .negativeGroupStride(extent: 100, spacing: -150, axis: .horizontal))
        #expect(row.path == "sections[0].interGroupSpacing")
        let horizontal = try #require(strideError(wide, scrollDirection: .horizontal) { $0.interGroupSpacing = -101 })
        #expect(horizontal.kind == .negativeGroupStride(extent: 100, spacing: -101, axis: .horizontal))

        var spacing = SectionOverrides()
        spacing.interGroupSpacing = -150
        let tall = vgroup(.fractionalWidth(1), .absolute(100), [fill])
        let variant = try #require(
            strideError(tall) { $0.variants = [SectionVariant(minWidth: 0, overrides: spacing)] }
        )
        #expect(variant.path == "sections[0].variants[0].interGroupSpacing")
        // A variant that does not apply at this width leaves the section's own spacing.
        #expect(strideError(tall) { $0.variants = [SectionVariant(minWidth: 600, overrides: spacing)] } == nil)
    }

    @Test("negative root edge spacing that makes the stride negative names the group")
    func rootEdgeSpacing() throws {
        let group = vgroup(.fractionalWidth(1), .absolute(50), [fill], edges: EdgeSpacing(top: .fixed(-80)))
        let error = try #require(strideError(group))
        #expect(error.kind == .negativeGroupStride(extent: -30, spacing: 0, axis: .vertical))
        #expect(error.path == "sections[0].group")
    }
}

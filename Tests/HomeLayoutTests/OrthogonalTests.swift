import Testing

@testable import HomeLayout

/// §8: orthogonal sections — frames at offset 0 and where each behaviour comes to rest.
@Suite struct OrthogonalTests {
    struct RestCase: Sendable, CustomTestStringConvertible {
        var behavior: OrthogonalScrollingBehavior
        var rest: [Double]
        var minOffset: Double
        var maxOffset: Double
        var centeringInset: Double = 0
        var testDescription: String { behavior.rawValue }
    }

    // Five 230-wide groups, interGroupSpacing 10, insets 20 + 20 at W = 375:
    // g = 240; P = 5 × 230 + 4 × 10 = 1190; C = 20 + 1190 + 20 = 1230; C − V = 855.
    static let cases: [RestCase] = [
        RestCase(behavior: .continuous, rest: [], minOffset: 0, maxOffset: 855),
        // k × 240 clamped: 0, 240, 480, 720, 960 → 855.
        RestCase(
            behavior: .continuousGroupLeadingBoundary,
            rest: [0, 240, 480, 720, 855],
            minOffset: 0,
            maxOffset: 855
        ),
        RestCase(behavior: .groupPaging, rest: [0, 240, 480, 720, 855], minOffset: 0, maxOffset: 855),
        // Pages of V = 375: 0, 375, 750, then the last page clamps to 855.
        RestCase(behavior: .paging, rest: [0, 375, 750, 855], minOffset: 0, maxOffset: 855),
        // c = (375 − 230) / 2 = 72.5; −c + k × 240 within [−72.5, 1230 + 72.5 − 375 = 927.5].
        RestCase(
            behavior: .groupPagingCentered,
            rest: [-72.5, 167.5, 407.5, 647.5, 887.5],
            minOffset: -72.5,
            maxOffset: 927.5,
            centeringInset: 72.5
        ),
    ]

    @Test("rest offsets per behaviour", arguments: cases)
    func restOffsets(_ c: RestCase) throws {
        let group = hgroup(.absolute(230), .absolute(90), [item(.fractionalWidth(1), .fractionalHeight(1))])
        let result = try solve(group, count: 5) {
            $0.orthogonalScrollingBehavior = c.behavior
            $0.interGroupSpacing = 10
            $0.contentInsets = EdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20)
        }
        let o = try #require(result.sections[0].orthogonal)
        #expect(o.contentWidth == 1230)
        #expect(o.stride == 240)
        #expect(o.restOffsets == c.rest)
        #expect(o.minOffset == c.minOffset)
        #expect(o.maxOffset == c.maxOffset)
        #expect(o.centeringInset == c.centeringInset)
        // Frames at offset 0: x = 20 + r × 240, one group tall.
        #expect(result.sections[0].itemFrames.map(\.x) == [20, 260, 500, 740, 980])
        #expect(result.contentSize == Size(width: 375, height: 90))
    }

    @Test("paging pages by the screen width even when one group is wider than the screen")
    func pagingWideGroup() throws {
        let group = hgroup(.absolute(3000), .absolute(100), [item(.absolute(1500), .fractionalHeight(1))])
        let result = try solve(group, count: 2) { $0.orthogonalScrollingBehavior = .paging }
        // C = 3000, C − V = 2625: pages 0, 375, … 2250, then the clamped 2625.
        #expect(result.sections[0].orthogonal?.restOffsets == [0, 375, 750, 1125, 1500, 1875, 2250, 2625])
    }

    @Test("content narrower than the screen rests at 0 only")
    func narrowContent() throws {
        let group = hgroup(.absolute(100), .absolute(50), [item(.fractionalWidth(1), .fractionalHeight(1))])
        let result = try solve(group, count: 2) { $0.orthogonalScrollingBehavior = .paging }
        #expect(result.sections[0].orthogonal?.restOffsets == [0])
        #expect(result.sections[0].orthogonal?.maxOffset == 0)
    }

    @Test("a partial last group is trimmed along x")
    func trimmedAlongX() throws {
        let group = hgroup(.absolute(200), .absolute(50), [item(.absolute(100), .fractionalHeight(1))])
        let result = try solve(group, count: 3) { $0.orthogonalScrollingBehavior = .continuous }
        // Two groups of two slots; the last holds one item: 200 + (200 − (200 − 100)) = 300.
        #expect(result.sections[0].orthogonal?.contentWidth == 300)
    }

    @Test("headers and backgrounds of an orthogonal section stay in the main coordinate space")
    func supplementariesDoNotScroll() throws {
        let group = hgroup(.absolute(300), .absolute(50), [item(.fractionalWidth(1), .fractionalHeight(1))])
        let result = try solve(group, count: 4) {
            $0.orthogonalScrollingBehavior = .groupPaging
            $0.contentInsets = EdgeInsets(top: 5, leading: 16, bottom: 5, trailing: 16)
            $0.boundarySupplementaryItems = [
                BoundarySupplementaryItem(
                    elementKind: "header",
                    size: LayoutSize(width: .fractionalWidth(1), height: .absolute(40)),
                    alignment: .top
                )
            ]
            $0.decorationItems = [DecorationItem(elementKind: "background")]
        }
        let s = result.sections[0]
        #expect(s.supplementaries[0].frame == rect(16, 0, 343, 40))
        // Section: 40 + 5 + 50 + 5 = 100 tall, full width.
        #expect(s.decorations[0].frame == rect(0, 0, 375, 100))
        #expect(s.itemFrames[0] == rect(16, 45, 300, 50))
    }
}

import Testing

@testable import HomeLayout

/// §4: fill pass, spacing re-solve, count, arrangement, cross axis, extent, overflow.
@Suite struct GroupTests {
    @Test("a fixed-size item repeats as often as it fits: 80 wide in 375 → 4 (5 would need 400)")
    func fillRepeats() throws {
        let group = hgroup(.fractionalWidth(1), .absolute(50), [item(.absolute(80), .absolute(50))])
        let result = try solve(group, count: 8)
        #expect(result.sections[0].slotsPerGroup == 4)
        #expect(result.sections[0].itemFrames.prefix(4).map(\.x) == [0, 80, 160, 240])
        // The second repetition starts one group (50) lower.
        #expect(result.sections[0].itemFrames[4] == rect(0, 50, 80, 50))
    }

    @Test("subitems cycle in order and stop at the first that does not fit: [0.5, 0.25] → A, B")
    func cyclicStop() throws {
        let a = item(.fractionalWidth(0.5), .absolute(10))
        let b = item(.fractionalWidth(0.25), .absolute(20))
        let result = try solve(hgroup(.absolute(400), .absolute(20), [a, b]), count: 2)
        #expect(result.sections[0].slotsPerGroup == 2)
        // 0.5 × 400 = 200, 0.25 × 400 = 100; a third (A again) would need 200 > 100 left.
        #expect(result.sections[0].itemFrames == [rect(0, 0, 200, 10), rect(200, 0, 100, 20)])
    }

    @Test("a quarter point of overflow is tolerated, more is not")
    func quarterPointTolerance() throws {
        // 3 × 125.08 = 375.24: over by 0.24 ≤ 0.25 → 3 fit.
        let tolerated = hgroup(.absolute(375), .absolute(10), [item(.absolute(125.08), .absolute(10))])
        #expect(try solve(tolerated, count: 3, scale: 0).sections[0].slotsPerGroup == 3)
        // 3 × 125.1 = 375.3: over by 0.3 → only 2.
        let rejected = hgroup(.absolute(375), .absolute(10), [item(.absolute(125.1), .absolute(10))])
        #expect(try solve(rejected, count: 3, scale: 0).sections[0].slotsPerGroup == 2)
    }

    @Test("fractional items absorb fixed spacing: two 0.5 items with 12 in 335 → 161.5 at 0 and 173.5")
    func spacingResolve() throws {
        let group = hgroup(
            .absolute(335),
            .absolute(10),
            [item(.fractionalWidth(0.5), .absolute(10))],
            spacing: .fixed(12)
        )
        // Re-solve container 335 − 12 × 1 = 323; 0.5 × 323 = 161.5.
        #expect(try frames(group, count: 2) == [rect(0, 0, 161.5, 10), rect(173.5, 0, 161.5, 10)])
    }

    @Test("absolute items keep their size; spacing is subtracted in the fill pass")
    func absoluteSpacing() throws {
        // 100 + 12 + 100 + 12 + 100 = 324 ≤ 335; a fourth needs 436.
        let group = hgroup(.absolute(335), .absolute(10), [item(.absolute(100), .absolute(10))], spacing: .fixed(12))
        #expect(try frames(group, count: 3).map(\.x) == [0, 112, 224])
    }

    @Test("countMode equal splits the length: (L − spacing × (n − 1)) / n")
    func countEqual() throws {
        let group = hgroup(
            .absolute(335),
            .absolute(10),
            [item(.absolute(999), .absolute(10))],
            spacing: .fixed(10),
            count: 3,
            countMode: .equal
        )
        // (335 − 20) / 3 = 105 each, at 0, 115, 230.
        #expect(try frames(group, count: 3) == [rect(0, 0, 105, 10), rect(115, 0, 105, 10), rect(230, 0, 105, 10)])
    }

    @Test("repeatingSubitem count places exactly count items and may overflow without clipping")
    func countRepeatingOverflows() throws {
        let group = hgroup(.absolute(200), .absolute(10), [item(.absolute(80), .absolute(10))], count: 3)
        let result = try solve(group, count: 6)
        // 3 × 80 = 240 > 200: the third item runs past the group; the next repetition is still 10 lower.
        #expect(result.sections[0].itemFrames.prefix(3).map(\.x) == [0, 80, 160])
        #expect(result.sections[0].itemFrames[3] == rect(0, 10, 80, 10))
    }

    @Test("group contentInsets shrink the content box and offset the children")
    func groupInsets() throws {
        let group = hgroup(
            .absolute(300),
            .absolute(100),
            [item(.fractionalWidth(0.5), .fractionalHeight(1))],
            insets: EdgeInsets(top: 10, leading: 20, bottom: 10, trailing: 20)
        )
        // Content box 260 × 80 at (20, 10): items 130 × 80.
        #expect(try frames(group, count: 2) == [rect(20, 10, 130, 80), rect(150, 10, 130, 80)])
    }

    @Test("group insets below 0.5 are fractions of the group's size")
    func fractionalGroupInsets() throws {
        let group = hgroup(
            .absolute(200),
            .absolute(100),
            [item(.fractionalWidth(1), .fractionalHeight(1))],
            insets: EdgeInsets(top: 0.1, leading: 0.25, bottom: 0, trailing: 0)
        )
        // leading 0.25 × 200 = 50, top 0.1 × 100 = 10: content 150 × 90.
        #expect(try frames(group, count: 1) == [rect(50, 10, 150, 90)])
    }

    @Test("flexible interItemSpacing spreads the leftover: space-between")
    func flexibleSpacing() throws {
        let group = hgroup(.absolute(300), .absolute(10), [item(.absolute(50), .absolute(10))], spacing: .flexible(10))
        // Fill: 50 + 10 + 50 + 10 + 50 + 10 + 50 = 230, a fifth needs 290 ≤ 300 → 5 fit (50×5 + 40 = 290).
        // extra = (300 − 290) / 4 = 2.5 → gaps of 12.5.
        #expect(try frames(group, count: 5).map(\.x) == [0, 62.5, 125, 187.5, 250])
    }

    @Test("flexible spacing follows the spec's order of arithmetic: (cursor + s) + extra")
    func flexibleOrderOfArithmetic() throws {
        // 7 items of 20 in 151 with flexible(1): extra = (151 − 146) / 6. Item 3 lands on
        // 65.49999999999999 (not 65.5) and rounds down to 196/3 at 3x; item 5 on 109.
        let group = hgroup(.absolute(151), .absolute(10), [item(.absolute(20), .absolute(10))], spacing: .flexible(1))
        let x = try frames(group, count: 7, scale: 3).map(\.x)
        #expect(x[3] == 196.0 / 3)
        #expect(x[5] == 109)
    }

    @Test("flexible edge spacing along the axis takes a share of the leftover")
    func flexibleEdges() throws {
        let edges = EdgeSpacing(leading: .flexible(0), trailing: .flexible(0))
        let group = hgroup(.absolute(300), .absolute(10), [item(.absolute(100), .absolute(10), edges: edges)], count: 1)
        // One item, both edges flexible: extra = (300 − 100) / 2 = 100 → centred.
        #expect(try frames(group, count: 1) == [rect(100, 0, 100, 10)])
    }

    @Test("fixed edge spacing adds to the consumed length and offsets the slot")
    func fixedEdges() throws {
        let edges = EdgeSpacing(leading: .fixed(10), top: .fixed(5), trailing: .fixed(10))
        let group = hgroup(.absolute(300), .absolute(50), [item(.absolute(80), .absolute(20), edges: edges)])
        // Each consumes 10 + 80 + 10 = 100: 3 fit, at 10, 110, 210; y offset 5.
        #expect(try frames(group, count: 3) == [rect(10, 5, 80, 20), rect(110, 5, 80, 20), rect(210, 5, 80, 20)])
    }

    struct CrossCase: Sendable, CustomTestStringConvertible {
        var top: Spacing?
        var bottom: Spacing?
        var expectedY: Double
        var testDescription: String {
            "top \(String(describing: top)) bottom \(String(describing: bottom)) → y \(expectedY)"
        }
    }

    @Test(
        "cross-axis placement: start by default, centred with both flexible, far side with only pre flexible",
        arguments: [
            CrossCase(top: nil, bottom: nil, expectedY: 0),
            CrossCase(top: .flexible(0), bottom: .flexible(0), expectedY: 40),
            CrossCase(top: .flexible(0), bottom: nil, expectedY: 80),
            CrossCase(top: .fixed(7), bottom: .flexible(0), expectedY: 7),
        ]
    )
    func crossAxis(_ c: CrossCase) throws {
        let edges = EdgeSpacing(top: c.top, bottom: c.bottom)
        let group = hgroup(.absolute(300), .absolute(100), [item(.absolute(50), .absolute(20), edges: edges)], count: 1)
        // Cross length 100, item 20: free 80.
        #expect(try frames(group, count: 1)[0].y == c.expectedY)
    }

    @Test("an estimated group fits its content: 40 + 8 + 60 = 108, not 100")
    func estimatedExtent() throws {
        let group = vgroup(
            .fractionalWidth(1),
            .estimated(100),
            [item(.fractionalWidth(1), .absolute(40)), item(.fractionalWidth(1), .absolute(60))],
            spacing: .fixed(8)
        )
        let result = try solve(group, count: 4)
        // Second repetition starts at 108.
        #expect(result.sections[0].itemFrames.map(\.y) == [0, 48, 108, 156])
        #expect(result.contentSize.height == 216)
    }

    @Test("an estimated group holds each declared subitem exactly once")
    func estimatedOneCycle() throws {
        let group = hgroup(.estimated(10), .absolute(20), [item(.absolute(30), .absolute(20))])
        let result = try solve(group, count: 2)
        #expect(result.sections[0].slotsPerGroup == 1)
    }

    @Test("nested groups are solved in their parent's container and offset by their origin")
    func nested() throws {
        let inner = vgroup(
            .fractionalWidth(0.5),
            .fractionalHeight(1),
            [item(.fractionalWidth(1), .fractionalHeight(0.5))]
        )
        let outer = hgroup(
            .absolute(200),
            .absolute(100),
            [item(.fractionalWidth(0.5), .fractionalHeight(1)), .group(inner)]
        )
        #expect(
            try frames(outer, count: 3) == [rect(0, 0, 100, 100), rect(100, 0, 100, 50), rect(100, 50, 100, 50)]
        )
    }

    @Test("item contentInsets shrink the visible frame, not the slot; estimated axes ignore them")
    func itemInsets() throws {
        let insets = EdgeInsets(top: 4, leading: 6, bottom: 4, trailing: 6)
        let group = hgroup(.absolute(200), .absolute(50), [item(.absolute(100), .estimated(50), insets: insets)])
        let result = try solve(group, count: 2)
        // Width insets apply; height is estimated so top/bottom are ignored, with a warning.
        #expect(result.sections[0].itemFrames == [rect(6, 0, 88, 50), rect(106, 0, 88, 50)])
        #expect(result.diagnostics.map(\.path) == ["sections[0].group.subitems[0].item.contentInsets"])
    }
}

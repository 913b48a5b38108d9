import Testing

@testable import HomeLayout

/// Properties over many generated specs and widths: the solver never traps, loops or produces
/// non-finite frames; sections stack without overlap; fitting groups keep their items inside;
/// a solve is deterministic.
@Suite struct PropertyTests {
    /// SplitMix64: small, seeded, reproducible.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
        }
        mutating func double(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        mutating func chance(_ p: Double) -> Bool { double(0...1) < p }
    }

    /// Any dimension, including ones that cannot fit.
    static func dimension(_ r: inout Random) -> Dimension {
        switch r.int(0...3) {
        case 0: .fractionalWidth(r.double(0.05...1.2))
        case 1: .fractionalHeight(r.double(0.05...1.2))
        case 2: .absolute(r.double(1...400))
        default: .estimated(r.double(1...300))
        }
    }

    static func spacing(_ r: inout Random) -> Spacing? {
        switch r.int(0...3) {
        case 0: nil
        case 1: .fixed(r.double(-5...20))
        case 2: .flexible(r.double(0...20))
        default: .fixed(0)
        }
    }

    static func insets(_ r: inout Random) -> EdgeInsets {
        r.chance(0.5)
            ? .zero
            : EdgeInsets(
                top: r.double(0...20),
                leading: r.double(0...20),
                bottom: r.double(0...20),
                trailing: r.double(0...20)
            )
    }

    static func edges(_ r: inout Random) -> EdgeSpacing? {
        r.chance(0.7)
            ? nil : EdgeSpacing(leading: spacing(&r), top: spacing(&r), trailing: spacing(&r), bottom: spacing(&r))
    }

    /// A supplementary item of kind `kind` of any size, anchored anywhere.
    static func supplementary(_ r: inout Random, kind: String) -> ItemSupplementary {
        let anchorEdges: [AnchorEdges] = [[], [.top], [.bottom, .trailing], [.leading]]
        return ItemSupplementary(
            elementKind: kind,
            size: LayoutSize(width: dimension(&r), height: .absolute(r.double(1...40))),
            anchor: SupplementaryAnchor(
                edges: anchorEdges[r.int(0...3)],
                fractionalOffset: Point(x: r.double(-1...1), y: r.double(-1...1))
            ),
            itemAnchor: r.chance(0.5) ? SupplementaryAnchor(edges: anchorEdges[r.int(0...3)]) : nil
        )
    }

    /// A group tree. With `badges`, every item carries that many badges (kinds b0, b1, …) and
    /// every group up to ``LayoutLimits/maxSupplementariesPerGroup`` supplementaries.
    static func group(_ r: inout Random, depth: Int, badges: ClosedRange<Int>? = nil) -> LayoutGroup {
        let subitems = (0..<r.int(1...3)).map { _ -> LayoutElement in
            if depth < 3, r.chance(0.3) { return .group(group(&r, depth: depth + 1, badges: badges)) }
            var item = LayoutItem(
                size: LayoutSize(width: dimension(&r), height: dimension(&r)),
                contentInsets: insets(&r),
                edgeSpacing: edges(&r)
            )
            if let badges {
                item.supplementaryItems = (0..<r.int(badges)).map { supplementary(&r, kind: "b\($0)") }
            }
            return .item(item)
        }
        let count = r.chance(0.2) ? r.int(1...5) : nil
        let supplementaries =
            if badges != nil {
                (0..<r.int(0...LayoutLimits.maxSupplementariesPerGroup)).map { supplementary(&r, kind: "g\($0)") }
            } else {
                r.chance(0.15) ? [supplementary(&r, kind: "mark")] : []
            }
        return LayoutGroup(
            axis: r.chance(0.5) ? .horizontal : .vertical,
            size: LayoutSize(width: dimension(&r), height: dimension(&r)),
            subitems: subitems,
            count: count,
            countMode: count != nil && r.chance(0.3) ? .equal : .repeating,
            interItemSpacing: spacing(&r),
            contentInsets: insets(&r),
            edgeSpacing: edges(&r),
            supplementaryItems: supplementaries
        )
    }

    /// A list configuration of any appearance and modes, sometimes with a fixed row height.
    static func list(_ r: inout Random) -> ListConfiguration {
        ListConfiguration(
            appearance: ListConfiguration.Appearance.allCases[r.int(0...4)],
            headerMode: ListConfiguration.HeaderMode.allCases[r.int(0...2)],
            footerMode: ListConfiguration.FooterMode.allCases[r.int(0...1)],
            showsSeparators: r.chance(0.5) ? nil : r.chance(0.5),
            separatorInsets: ListConfiguration.SeparatorInsets(leading: r.chance(0.5) ? r.double(0...60) : nil),
            itemHeight: r.chance(0.5) ? .estimated(r.double(20...80)) : .absolute(r.double(20...80))
        )
    }

    /// A spec of 1 to 5 sections. With `badges` (``group(_:depth:badges:)``), a section has
    /// 1 000 000 items one time in five.
    static func spec(_ r: inout Random, badges: ClosedRange<Int>? = nil) -> LayoutSpec {
        let sections = (0..<r.int(1...5)).map { index in
            LayoutSection(
                id: "s\(index)",
                itemCount: badges != nil && r.chance(0.2) ? 1_000_000 : r.int(0...40),
                group: group(&r, depth: 0, badges: badges),
                contentInsets: insets(&r),
                interGroupSpacing: r.double(0...16),
                orthogonalScrollingBehavior: OrthogonalScrollingBehavior.allCases[r.int(0...5)],
                boundarySupplementaryItems: r.chance(0.5)
                    ? [
                        BoundarySupplementaryItem(
                            elementKind: "header",
                            size: LayoutSize(width: .fractionalWidth(1), height: .absolute(r.double(10...60))),
                            alignment: BoundaryAlignment.allCases[r.int(0...7)],
                            extendsBoundary: r.chance(0.8),
                            pinToVisibleBounds: r.chance(0.3)
                        )
                    ] : [],
                decorationItems: r.chance(0.3) ? [DecorationItem(elementKind: "bg")] : [],
                list: r.chance(0.15) ? list(&r) : nil
            )
        }
        return LayoutSpec(
            configuration: LayoutConfiguration(
                scrollDirection: r.chance(0.15) ? .horizontal : .vertical,
                interSectionSpacing: r.double(0...20),
                platform: r.chance(0.3) ? .ios14 : .ios17
            ),
            sections: sections
        )
    }

    static func environment(_ r: inout Random) -> LayoutEnvironment {
        LayoutEnvironment(
            width: r.double(200...1400).rounded(),
            height: r.double(300...1400).rounded(),
            scale: Double(r.int(0...3)),
            layoutDirection: r.chance(0.2) ? .rightToLeft : .leftToRight
        )
    }

    static func allFrames(_ result: LayoutResult) -> [Rect] {
        result.sections.flatMap { s in
            [s.frame] + s.itemFrames + s.supplementaries.map(\.frame) + s.decorations.map(\.frame)
        } + result.globalSupplementaries.map(\.frame)
    }

    @Test("any generated spec solves or throws; frames are finite, sections stack, repeats are identical")
    func generatedSpecs() {
        var r = Random(state: 0x5EED)
        var solved = 0
        for _ in 0..<600 {
            let spec = Self.spec(&r)
            let environment = Self.environment(&r)
            guard let result = try? LayoutSolver.solve(spec, in: environment) else { continue }
            solved += 1
            for frame in Self.allFrames(result) {
                #expect(frame.x.isFinite && frame.y.isFinite && frame.width.isFinite && frame.height.isFinite)
            }
            // Sections follow one another along the scroll axis without overlapping.
            let horizontal = spec.configuration.scrollDirection == .horizontal
            var end = -Double.infinity
            for section in result.sections {
                let start = horizontal ? section.frame.x : section.frame.y
                let length = horizontal ? section.frame.width : section.frame.height
                if environment.layoutDirection == .leftToRight || !horizontal { #expect(start >= end - 1e-9) }
                end = start + length
            }
            #expect((try? LayoutSolver.solve(spec, in: environment)) == result)
            Self.expectCounted(result)
        }
        // The generator must exercise the solver, not only its errors.
        #expect(solved > 150)
    }

    /// Each section emitted exactly what was counted against the limits before it was laid out
    /// (rest offsets at most: duplicates are dropped after counting), and all of it together
    /// stays within ``LayoutLimits/maxElementsPerLayout``.
    static func expectCounted(_ result: LayoutResult) {
        var total = result.globalSupplementaries.count
        for section in result.sections {
            let counted = section.elementCount
            let supplementaries = section.supplementaries
            #expect(counted.items == section.itemFrames.count)
            #expect(counted.boundarySupplementaries == supplementaries.count { $0.isBoundary })
            #expect(counted.badges == supplementaries.count { $0.item != nil })
            #expect(counted.groupSupplementaries == supplementaries.count { $0.group != nil })
            #expect(counted.decorations == section.decorations.count)
            #expect(counted.restOffsets >= section.orthogonal?.restOffsets.count ?? 0)
            total += counted.total
        }
        #expect(total <= LayoutLimits.maxElementsPerLayout)
    }

    @Test("badge-heavy specs: exactly what was counted, or the element limit before allocating")
    func badgeHeavySpecs() {
        var r = Random(state: 0xBAD6E)
        var solved = 0
        var limited = 0
        for _ in 0..<300 {
            let spec = Self.spec(&r, badges: 2...LayoutLimits.maxSupplementariesPerItem)
            let environment = Self.environment(&r)
            do {
                let result = try LayoutSolver.solve(spec, in: environment)
                solved += 1
                Self.expectCounted(result)
                // A million items with two badges each or more is 3 000 000 elements: no
                // section that is not a list (whose rows carry no badges) can have solved.
                #expect(!spec.sections.contains { $0.itemCount == 1_000_000 && $0.list == nil })
            } catch {
                if case .limitExceeded(let what, LayoutLimits.maxElementsPerLayout) = error.kind,
                    what.hasPrefix("elements of one solve")
                {
                    limited += 1
                }
            }
        }
        // Both outcomes must occur, or the test checks nothing.
        #expect(solved > 40)
        #expect(limited > 40)
    }

    @Test("groups that fit keep every item inside the section band, at every width")
    func fittingGroupsStayInside() throws {
        var r = Random(state: 42)
        for _ in 0..<300 {
            // Fractions ≤ 1 and no counts or edge spacing: nothing can overflow.
            func fraction(_ r: inout Random) -> Double { r.double(0.1...1) }
            let leaf = LayoutItem(
                size: LayoutSize(width: .fractionalWidth(fraction(&r)), height: .fractionalHeight(fraction(&r))),
                contentInsets: Self.insets(&r)
            )
            let group = LayoutGroup(
                axis: r.chance(0.5) ? .horizontal : .vertical,
                size: LayoutSize(width: .fractionalWidth(fraction(&r)), height: .absolute(r.double(20...200))),
                subitems: [.item(leaf)],
                interItemSpacing: r.chance(0.5) ? .fixed(r.double(0...10)) : nil
            )
            let section = LayoutSection(
                id: "s",
                itemCount: r.int(1...50),
                group: group,
                contentInsets: EdgeInsets(top: 5, leading: r.double(0...30), bottom: 5, trailing: r.double(0...30))
            )
            let environment = LayoutEnvironment(width: r.double(200...1400).rounded(), height: 800, scale: 2)
            // Every one of them solves: a throw fails the test, not skips the spec.
            let result = try LayoutSolver.solve(LayoutSpec(sections: [section]), in: environment)
            let band = result.sections[0].frame
            for frame in result.sections[0].itemFrames {
                #expect(frame.x >= -0.5 && frame.maxX <= band.maxX + 0.5)
                #expect(frame.y >= band.y - 0.5 && frame.maxY <= band.maxY + 0.5)
            }
        }
    }

    @Test("the home screen solves cleanly at every width from 200 to 1400")
    func homeScreenSweep() throws {
        for width in stride(from: 200.0, through: 1400, by: 7) {
            let result = try LayoutSolver.solve(
                HomeScreenFixture.spec,
                in: LayoutEnvironment(width: width, height: 812, scale: 3)
            )
            #expect(result.sections.count == 4)
        }
    }
}

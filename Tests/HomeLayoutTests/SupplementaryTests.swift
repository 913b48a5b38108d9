import Testing

@testable import HomeLayout

/// §6: boundary supplementaries, badges, decorations, global items.
@Suite struct SupplementaryTests {
    let row = hgroup(.fractionalWidth(1), .absolute(50), [item(.fractionalWidth(1), .fractionalHeight(1))])
    let insets = EdgeInsets(top: 10, leading: 20, bottom: 10, trailing: 20)

    func boundary(
        _ kind: String,
        _ alignment: BoundaryAlignment,
        width: Dimension = .fractionalWidth(1),
        height: Double = 30,
        extends: Bool = true,
        pinned: Bool = false,
        offset: Point = .zero
    ) -> BoundarySupplementaryItem {
        BoundarySupplementaryItem(
            elementKind: kind,
            size: LayoutSize(width: width, height: .absolute(height)),
            alignment: alignment,
            offset: offset,
            extendsBoundary: extends,
            pinToVisibleBounds: pinned
        )
    }

    @Test("header above the top inset, footer below the bottom inset; section length adds both")
    func headerAndFooter() throws {
        let result = try solve(row, count: 2) {
            $0.contentInsets = insets
            $0.boundarySupplementaryItems = [boundary("header", .top), boundary("footer", .bottom, height: 20)]
        }
        let s = result.sections[0]
        // Header 0–30; content 40–140; footer at 140 + 10 = 150; end 170.
        #expect(s.supplementaries.map(\.frame) == [rect(20, 0, 335, 30), rect(20, 150, 335, 20)])
        #expect(s.itemFrames.map(\.y) == [40, 90])
        #expect(s.frame == rect(0, 0, 375, 170))
    }

    @Test("several headers share the band, bottom-aligned; narrower ones align by their alignment")
    func headerBand() throws {
        let result = try solve(row, count: 1) {
            $0.boundarySupplementaryItems = [
                boundary("title", .topLeading, width: .absolute(100), height: 40),
                boundary("more", .topTrailing, width: .absolute(60), height: 20),
                boundary("mid", .top, width: .absolute(75), height: 10),
            ]
        }
        #expect(
            result.sections[0].supplementaries.map(\.frame) == [
                rect(0, 0, 100, 40), rect(315, 20, 60, 20), rect(150, 30, 75, 10),
            ]
        )
        #expect(result.sections[0].itemFrames[0].y == 40)
    }

    @Test("supplementariesFollowContentInsets false sizes headers to the layout container")
    func followInsetsFalse() throws {
        let result = try solve(row, count: 1) {
            $0.contentInsets = insets
            $0.supplementariesFollowContentInsets = false
            $0.boundarySupplementaryItems = [boundary("header", .top)]
        }
        #expect(result.sections[0].supplementaries[0].frame == rect(0, 0, 375, 30))
    }

    @Test("a non-extending header overlaps the content inside the insets; offset is added")
    func nonExtending() throws {
        let result = try solve(row, count: 1) {
            $0.contentInsets = insets
            $0.boundarySupplementaryItems = [boundary("overlay", .top, extends: false, offset: Point(x: 0, y: 5))]
        }
        // Content top = 10; no header band. y = 10 + 5.
        #expect(result.sections[0].supplementaries[0].frame == rect(20, 15, 335, 30))
        #expect(result.contentSize.height == 70)
    }

    @Test("pinned headers carry the clamp range: rest y to section end minus height")
    func pinned() throws {
        let result = try solve(row, count: 3) {
            $0.boundarySupplementaryItems = [
                boundary("header", .top, pinned: true), boundary("footer", .bottom, pinned: true),
            ]
        }
        let s = result.sections[0]
        // Section: header 30, content 150, footer 30 → 0…210.
        #expect(s.supplementaries[0].pinRange == PinRange(min: 0, max: 180))
        #expect(s.supplementaries[1].pinRange == PinRange(min: 0, max: 180))
        #expect(s.supplementaries[0].pinToVisibleBounds)
    }

    @Test("badges anchor inside the visible frame: top-trailing with fractional offset (0.3, −0.3)")
    func badges() throws {
        let badge = ItemSupplementary(
            elementKind: "badge",
            size: LayoutSize(width: .absolute(20), height: .absolute(20)),
            anchor: SupplementaryAnchor(edges: [.top, .trailing], fractionalOffset: Point(x: 0.3, y: -0.3))
        )
        let centered = ItemSupplementary(
            elementKind: "dot",
            size: LayoutSize(width: .fractionalWidth(0.1), height: .absolute(10)),
            anchor: SupplementaryAnchor(edges: [], absoluteOffset: Point(x: 1, y: 2))
        )
        let cell = LayoutItem(
            size: LayoutSize(width: .absolute(100), height: .absolute(50)),
            contentInsets: EdgeInsets(top: 5, leading: 5, bottom: 5, trailing: 5),
            supplementaryItems: [badge, centered]
        )
        let result = try solve(hgroup(.fractionalWidth(1), .absolute(50), [.item(cell)]), count: 2)
        let s = result.sections[0]
        // Visible frame of item 0: (5, 5, 90, 40). Badge: x = 95 − 20 + 6 = 81, y = 5 − 6 = −1.
        // Dot: 0.1 × 90 = 9 wide, centred: x = 5 + (90 − 9)/2 + 1 = 46.5, y = 5 + 15 + 2 = 22.
        #expect(s.supplementaries.map(\.item) == [0, 0, 1, 1])
        #expect(s.supplementaries[0].frame == rect(81, -1, 20, 20))
        #expect(s.supplementaries[1].frame == rect(46.5, 22, 9, 10))
        #expect(s.supplementaries[2].frame == rect(181, -1, 20, 20))
        #expect(s.supplementaries[0].zIndex == 1)
    }

    @Test("a background covers the whole section band, shrunk by its insets; cells rise above it")
    func decoration() throws {
        let result = try solve(row, count: 1) {
            $0.contentInsets = insets
            $0.boundarySupplementaryItems = [boundary("header", .top)]
            $0.decorationItems = [
                DecorationItem(elementKind: "bg", contentInsets: EdgeInsets(top: 5, leading: 5, bottom: 5, trailing: 5))
            ]
        }
        let s = result.sections[0]
        // Band 0…100 (30 + 10 + 50 + 10) × 375.
        #expect(s.decorations == [DecorationFrame(elementKind: "bg", frame: rect(5, 5, 365, 90), zIndex: 0)])
        #expect(s.itemZIndex == 1)
    }

    @Test("global header pushes section 0 down; global footer follows the last section, no spacing")
    func globalItems() throws {
        let spec = LayoutSpec(
            configuration: LayoutConfiguration(
                interSectionSpacing: 8,
                boundarySupplementaryItems: [
                    boundary("top", .top, height: 44), boundary("bottom", .bottom, height: 20),
                ]
            ),
            sections: [
                LayoutSection(id: "a", itemCount: 1, group: row), LayoutSection(id: "b", itemCount: 1, group: row),
            ]
        )
        let result = try LayoutSolver.solve(spec, in: LayoutEnvironment(width: 375, height: 812, scale: 2))
        #expect(result.sections.map(\.frame.y) == [44, 102])
        #expect(result.globalSupplementaries.map(\.frame) == [rect(0, 0, 375, 44), rect(0, 152, 375, 20)])
        #expect(result.contentSize.height == 172)
    }
}

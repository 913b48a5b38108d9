import Testing

@testable import HomeLayout

/// §2: dimension resolution and pixel flooring.
@Suite struct DimensionTests {
    struct FloorCase: Sendable, CustomTestStringConvertible {
        var fraction: Double
        var containerWidth: Double
        var scale: Double
        var expected: Double
        var testDescription: String { "\(fraction) × \(containerWidth) @\(scale)x → \(expected)" }
    }

    static let floorCases: [FloorCase] = [
        // 0.25 × 335 = 83.75 → floor(167.5) / 2 = 83.5.
        FloorCase(fraction: 0.25, containerWidth: 335, scale: 2, expected: 83.5),
        // × 3 = 251.25 → 251 / 3.
        FloorCase(fraction: 0.25, containerWidth: 335, scale: 3, expected: 251.0 / 3),
        // 375 × 4/9 = 166.666… → × 2 = 333.33 → 333 / 2 = 166.5.
        FloorCase(fraction: 4.0 / 9, containerWidth: 375, scale: 2, expected: 166.5),
        // × 3 evaluates to exactly 500.0 → stays 500/3.
        FloorCase(fraction: 4.0 / 9, containerWidth: 375, scale: 3, expected: 500.0 / 3),
        // scale 0: no flooring at all.
        FloorCase(fraction: 0.25, containerWidth: 335, scale: 0, expected: 83.75),
    ]

    @Test("fractional sizes are floored to the pixel grid", arguments: floorCases)
    func pixelFloor(_ c: FloorCase) {
        let grid = PixelGrid(scale: c.scale)
        #expect(
            grid.resolve(.fractionalWidth(c.fraction), in: Container(width: c.containerWidth, height: 100))
                == c.expected
        )
    }

    /// Halves, the largest double below 0.5 (which `v + 0.5` would carry to 1), signed zeros,
    /// the 2^52 boundary where doubles stop having fractions, and values libm must handle.
    static let roundingCases: [Double] = [
        0, -0.0, 0.3, -0.3, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.499_999_999_999_999_94,
        -0.499_999_999_999_999_94, 4_503_599_627_370_495.5, -4_503_599_627_370_495.5, 0x1p52, 0x1p52 + 1,
        -0x1p53, 1e300, 751.999_999_999_999_9, 1_623.5, .infinity, -.infinity,
    ]

    @Test("the final rounding is libm's half-away-from-zero, bit for bit", arguments: roundingCases)
    func halfAwayFromZero(_ value: Double) {
        let expected = value.rounded(.toNearestOrAwayFromZero)
        #expect(PixelGrid.roundedHalfAwayFromZero(value).bitPattern == expected.bitPattern)
    }

    @Test("a scale other than 1, 2 or 3 snaps to its own grid of 1/scale, as docs/layout.md says")
    func fractionalScale() throws {
        // 375 × 7.3 = 2737.5 pixels: the content width rounds to 2738 (375.068…), a full-width
        // item floors to 2737 (374.932…).
        let group = hgroup(.fractionalWidth(1), .absolute(50), [item(.fractionalWidth(1), .absolute(50))])
        let result = try solve(group, count: 1, scale: 7.3)
        #expect(result.contentSize.width == 2738 / 7.3)
        #expect(abs(result.sections[0].itemFrames[0].width - 2737 / 7.3) < 1e-9)
    }

    @Test("NaN stays NaN through the final rounding")
    func roundingNaN() {
        #expect(PixelGrid.roundedHalfAwayFromZero(.nan).isNaN)
    }

    @Test("absolute and estimated are never rounded before the final pass; fractionalWidth can size a height")
    func kinds() {
        let grid = PixelGrid(scale: 2)
        let container = Container(
            width: 200,
            height: 100,
            insets: EdgeInsets(top: 10, leading: 5, bottom: 10, trailing: 5)
        )
        #expect(grid.resolve(.absolute(10.3), in: container) == 10.3)
        #expect(grid.resolve(.estimated(44.1), in: container) == 44.1)
        // Effective width 190 × 0.2 = 38, even as a height.
        #expect(
            grid.resolve(LayoutSize(width: .absolute(1), height: .fractionalWidth(0.2)), in: container).height == 38
        )
        // Effective height 80 × 0.5 = 40.
        #expect(grid.resolve(.fractionalHeight(0.5), in: container) == 40)
    }

    @Test("frames are rounded half away from zero at the scale; scale 0 leaves them")
    func finalRounding() throws {
        // Four 80-wide items, flexible(0) in 375: gaps of 55/3; x = 98.333… → 98.5 at 2x.
        let group = hgroup(
            .fractionalWidth(1),
            .absolute(50),
            [item(.absolute(80), .absolute(50))],
            spacing: .flexible(0)
        )
        #expect(try frames(group, count: 4, scale: 2).map(\.x) == [0, 98.5, 196.5, 295])
        let third = try frames(group, count: 4, scale: 3).map(\.x)
        #expect(third == [0, 295.0 / 3, 590.0 / 3, 295])
        // Unrounded, the sums carry binary noise (295 comes out as 294.99999999999994).
        let raw = try frames(group, count: 4, scale: 0).map(\.x)
        let expected = [0, 295.0 / 3, 590.0 / 3, 295]
        #expect(zip(raw, expected).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(raw[1] != 98.5)
    }
}

import Foundation
import Testing

@testable import HomeLayout

/// `feeds/layout.json`, the product's home screen, against the hand-built fixture.
@Suite struct ProductLayoutTests {
    let spec: LayoutSpec

    init() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("feeds/layout.json")
        spec = try LayoutSpec(json: try Data(contentsOf: url))
    }

    @Test("at phone width the file solves exactly like the fixture", arguments: [375.0, 390, 430])
    func matchesFixture(width: Double) throws {
        let environment = LayoutEnvironment(width: width, height: 812, scale: 3)
        let file = try LayoutSolver.solve(spec, in: environment)
        let fixture = try LayoutSolver.solve(HomeScreenFixture.spec, in: environment)
        #expect(file == fixture)
    }

    @Test("fractional two-column app services give the seed's absolute 161.5 at 375")
    func fractionalColumnsMatchSeed() throws {
        // The seed computes (375 − 20 × 2 − 12) / 2 = 161.5 and uses .absolute(161.5).
        var seed = HomeScreenFixture.spec
        seed.sections[3].group.subitems = [item(.absolute(161.5), .fractionalHeight(1))]
        let environment = LayoutEnvironment(width: 375, height: 812, scale: 2)
        let fractional = try LayoutSolver.solve(spec, in: environment).sections[3]
        let absolute = try LayoutSolver.solve(seed, in: environment).sections[3]
        #expect(fractional.itemFrames == absolute.itemFrames)
        #expect(fractional.itemFrames.allSatisfy { $0.width == 161.5 })
    }

    @Test("on a tablet (820 wide) the grid has four columns and the cards stay narrow")
    func tabletVariant() throws {
        let result = try LayoutSolver.solve(spec, in: LayoutEnvironment(width: 820, height: 1180, scale: 2))
        // (820 − 32 − 32 − 3 × 12) / 4 = 180; columns at 32, 224, 416, 608.
        let app = result.sections[3]
        #expect(app.itemFrames.prefix(4).map(\.x) == [32, 224, 416, 608])
        #expect(app.itemFrames.allSatisfy { $0.width == 180 })
        // Other-service cards are 248 wide: under a third of the screen.
        #expect(result.sections[2].itemFrames.allSatisfy { $0.width == 248 })
        #expect(result.diagnostics.isEmpty)
    }
}

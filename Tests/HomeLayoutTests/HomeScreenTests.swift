import Testing

@testable import HomeLayout

/// The home screen at 375×812@2x, element by element. Arithmetic in the comments.
@Suite struct HomeScreenTests {
    let result: LayoutResult

    init() throws {
        result = try LayoutSolver.solve(
            HomeScreenFixture.spec,
            in: LayoutEnvironment(width: 375, height: 812, scale: 2)
        )
    }

    @Test("userHistory: header above the 8-pt top inset, three 24-pt rows in one 72-pt group")
    func userHistory() {
        let s = result.sections[0]
        // Header container = 375 − 20 − 20 = 335 wide at x = 20 (supplementariesFollowContentInsets).
        #expect(s.supplementaries.map(\.frame) == [rect(20, 0, 335, 60)])
        // Content starts at 60 + 8 = 68; rows at 68, 92, 116.
        #expect(s.itemFrames == [rect(20, 68, 335, 24), rect(20, 92, 335, 24), rect(20, 116, 335, 24)])
        // 60 + 8 + 72 + 16 = 156.
        #expect(s.frame == rect(0, 0, 375, 156))
    }

    @Test("mainService: headline, one large card and two small cards")
    func mainService() {
        let s = result.sections[1]
        // Starts at 156; content at 156 + 16 = 172. Root group 335 wide, estimated height.
        // Headline 335 × 25 at y 172. Cards row (192 high) at 172 + 25 + 12 = 209.
        // Large card: slot 0.5 × 335 = 167.5 wide, trailing inset 6 → 161.5.
        // Trailing group 167.5 wide, leading inset 6 → 161.5 content; count 2 with fixed 12:
        // re-solve gives (192 − 12) / 2 = 90 high each, at 0 and 102. x = 20 + 167.5 + 6 = 193.5.
        #expect(
            s.itemFrames == [
                rect(20, 172, 335, 25), rect(20, 209, 161.5, 192), rect(193.5, 209, 161.5, 90),
                rect(193.5, 311, 161.5, 90),
            ]
        )
        // Estimated group fits its content: 25 + 12 + 192 = 229. End: 172 + 229 + 12 = 413.
        #expect(s.frame == rect(0, 156, 375, 257))
    }

    @Test("otherService: one 218-wide card per 230-wide group, paging by group")
    func otherService() throws {
        let s = result.sections[2]
        // x = 20 + r × 230; y = 413. Height 90 + bottom 32 = 122.
        #expect(s.itemFrames == (0..<5).map { rect(20 + Double($0) * 230, 413, 218, 90) })
        #expect(s.frame == rect(0, 413, 375, 122))
        let o = try #require(s.orthogonal)
        // C = 20 + 5 × 230 + 0 = 1170; rest k × 230 clamped to 1170 − 375 = 795.
        #expect(o.contentWidth == 1170)
        #expect(o.stride == 230)
        #expect(o.restOffsets == [0, 230, 460, 690, 795])
    }

    @Test("appService: header, then two fractional columns of 161.5 with 12 between")
    func appService() {
        let s = result.sections[3]
        #expect(s.supplementaries.map(\.frame) == [rect(20, 535, 335, 44)])
        // Content at 535 + 44 + 14 = 593; rows 132 apart (120 + 12). Columns: (335 − 12) / 2 = 161.5,
        // at 20 and 20 + 161.5 + 12 = 193.5.
        let expected = [593.0, 725, 857].flatMap { y in [rect(20, y, 161.5, 120), rect(193.5, y, 161.5, 120)] }
        #expect(s.itemFrames == expected)
        // 44 + 14 + (3 × 120 + 2 × 12) + 0 = 442 → ends at 977.
        #expect(s.frame == rect(0, 535, 375, 442))
    }

    @Test("content size is the container width by the end of the last section")
    func contentSize() {
        #expect(result.contentSize == Size(width: 375, height: 977))
        #expect(result.diagnostics.isEmpty)
    }
}

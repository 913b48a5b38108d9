import TestSupport
import Testing

@testable import HomeLayout

/// Specs whose output multiplies past the limits (issue 19): items times badges, group
/// supplementaries, list separators. Each is built here, small as JSON or code, and must fail
/// before the solve allocates its frames: the error names the section and the counts, and the
/// process's peak memory barely moves (`VmHWM`, never time).
///
/// Serialized: the memory bounds must not see another test's allocations, and the one test
/// that solves right at the limit allocates 64 MiB of item frames.
@Suite(.serialized) struct OutputLimitTests {
    static let environment = LayoutEnvironment(width: 375, height: 812, scale: 2)
    /// A full-width row of one item 44 tall.
    static let row = LayoutGroup(
        axis: .horizontal,
        size: LayoutSize(width: .fractionalWidth(1), height: .absolute(44)),
        subitems: [.item(LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .absolute(44))))]
    )
    /// What a failing solve may add to the peak. Without the element limit the smallest spec
    /// below (1 000 000 items with 2 badges) reserves 32 MB of item frames and then grows
    /// 2 000 000 supplementary frames of over 100 bytes each: far past this.
    static let maxGrowthKiB = 48 * 1024

    /// `{"sections": [{"id": "s", "itemCount": N, "group": …}]}`: one full-width row of one item
    /// 44 tall, with `badges` badges (kinds b0, b1, …) and `groupSupplementaries` on its group.
    static func spec(items: Int, badges: Int, groupSupplementaries: Int = 0) -> String {
        let size = #"{"width": {"fractionalWidth": 1}, "height": {"absolute": 44}}"#
        func supplementaries(_ prefix: String, _ count: Int) -> String {
            (0..<count).map {
                #"{"elementKind": "\#(prefix)\#($0)", "size": {"width": {"absolute": 8}, "height": {"absolute": 8}}}"#
            }
            .joined(separator: ", ")
        }
        let item = #"{"item": {"size": \#(size), "supplementaryItems": [\#(supplementaries("b", badges))]}}"#
        let group =
            #"{"axis": "horizontal", "size": \#(size), "subitems": [\#(item)], "supplementaryItems": [\#(supplementaries("g", groupSupplementaries))]}"#
        return #"{"sections": [{"id": "s", "itemCount": \#(items), "group": \#(group)}]}"#
    }

    /// Solves `spec`, expecting a failure; returns it with the peak memory the solve added.
    static func failingSolve(_ spec: LayoutSpec) -> (error: LayoutSolveError?, growthKiB: Int) {
        let (growth, error) = PeakMemory.growth { () -> LayoutSolveError? in
            do throws(LayoutSolveError) {
                _ = try LayoutSolver.solve(spec, in: environment)
                return nil
            } catch {
                return error
            }
        }
        return (error, growth)
    }

    @Test(
        "items × badges past the element limit fail at once, naming the section and the counts",
        .enabled(if: PeakMemory.isResettable, "needs /proc/self/clear_refs to reset VmHWM"),
        arguments: [2, 8]
    )
    func badgesMultiplyItems(badges: Int) throws {
        // The issue's specs: 1 000 000 items with 2 badges (372 bytes of JSON) or 8.
        let json = Self.spec(items: 1_000_000, badges: badges)
        #expect(json.utf8.count < 2048)
        let spec = try LayoutSpec(json: json.utf8)
        let (error, growth) = Self.failingSolve(spec)
        // 1 000 000 items + 1 000 000 × badges badges.
        let elements = 1_000_000 * (1 + badges)
        let expected = LayoutSolveError(
            .limitExceeded(
                what: "elements of one solve (0 before this section, then \(elements) elements "
                    + "(1000000 items, \(1_000_000 * badges) badges))",
                limit: 2_000_000
            ),
            sectionIndex: 0,
            sectionID: "s",
            path: "sections[0]"
        )
        #expect(error == expected)
        #expect(growth < Self.maxGrowthKiB, "the failing solve added \(growth) KiB to the peak")
    }

    @Test(
        "group supplementaries count once per repetition that holds the group",
        .enabled(if: PeakMemory.isResettable, "needs /proc/self/clear_refs to reset VmHWM")
    )
    func groupSupplementariesMultiplyRepetitions() throws {
        let spec = try LayoutSpec(json: Self.spec(items: 1_000_000, badges: 0, groupSupplementaries: 8).utf8)
        let (error, growth) = Self.failingSolve(spec)
        // One item per repetition: 1 000 000 repetitions × 8 group supplementaries.
        #expect(
            error?.kind
                == .limitExceeded(
                    what: "elements of one solve (0 before this section, then 9000000 elements "
                        + "(1000000 items, 8000000 group supplementaries))",
                    limit: 2_000_000
                )
        )
        #expect(growth < Self.maxGrowthKiB, "the failing solve added \(growth) KiB to the peak")
    }

    @Test(
        "list separators count: a grouped list of 1 000 000 rows passes the limit by one",
        .enabled(if: PeakMemory.isResettable, "needs /proc/self/clear_refs to reset VmHWM")
    )
    func listSeparatorsCount() throws {
        // Grouped: a top line, a line below each of the 999 999 rows but the last, a line
        // below the last: 1 000 001 decorations beside 1 000 000 items = 2 000 001.
        var grouped = LayoutSection(id: "list", itemCount: 1_000_000, group: Self.row)
        grouped.list = ListConfiguration(appearance: .grouped)
        let (error, growth) = Self.failingSolve(LayoutSpec(sections: [grouped]))
        #expect(
            error
                == LayoutSolveError(
                    .limitExceeded(
                        what: "elements of one solve (0 before this section, then 2000001 elements "
                            + "(1000000 items, 1000001 decorations))",
                        limit: 2_000_000
                    ),
                    sectionIndex: 0,
                    sectionID: "list",
                    path: "sections[0]"
                )
        )
        #expect(growth < Self.maxGrowthKiB, "the failing solve added \(growth) KiB to the peak")

        // Plain without header: 999 999 lines between rows and one below the last, 2 000 000
        // elements: within the solve's limit, but not with the work of solving the row group.
        var plain = grouped
        plain.list = ListConfiguration(appearance: .plain)
        let (planError, _) = Self.failingSolve(LayoutSpec(sections: [plain]))
        guard case .limitExceeded(let what, let limit)? = planError?.kind else {
            Issue.record("expected the work budget, got \(String(describing: planError))")
            return
        }
        #expect(limit == LayoutLimits.maxSolveWorkPerSection)
        #expect(what.hasPrefix("solver work in one section ("))
        #expect(what.hasSuffix(" to solve its group, then 2000000 elements (1000000 items, 1000000 decorations))"))
    }

    @Test("the limit counts every section and the global items; exactly at the limit solves")
    func limitSpansSections() throws {
        let row = Self.row
        let header = BoundarySupplementaryItem(
            elementKind: "header",
            size: LayoutSize(width: .fractionalWidth(1), height: .absolute(30)),
            alignment: .top
        )
        let first = LayoutSection(id: "a", itemCount: 1_000_000, group: row)
        var second = LayoutSection(id: "b", itemCount: 999_998, group: row)
        second.boundarySupplementaryItems = [header]
        second.decorationItems = [DecorationItem(elementKind: "background")]
        // 1 000 000 + 999 998 + 1 header + 1 background = 2 000 000: solves.
        let result = try LayoutSolver.solve(LayoutSpec(sections: [first, second]), in: Self.environment)
        #expect(result.sections.map(\.itemFrames.count) == [1_000_000, 999_998])

        // One more item in the second section: 2 000 001, reported there.
        second.itemCount = 999_999
        #expect(
            throws: LayoutSolveError(
                .limitExceeded(
                    what: "elements of one solve (1000000 before this section, then 1000001 elements "
                        + "(999999 items, 1 boundary supplementaries, 1 decorations))",
                    limit: 2_000_000
                ),
                sectionIndex: 1,
                sectionID: "b",
                path: "sections[1]"
            )
        ) { try LayoutSolver.solve(LayoutSpec(sections: [first, second]), in: Self.environment) }

        // Items alone past the limit fail before any section is laid out: 2 000 000 items and
        // a global header.
        var spec = LayoutSpec(sections: [first, LayoutSection(id: "b", itemCount: 1_000_000, group: row)])
        spec.configuration.boundarySupplementaryItems = [header]
        #expect(
            throws: LayoutSolveError(
                .limitExceeded(
                    what: "elements of one solve (2000000 items in all sections, 1 global supplementaries)",
                    limit: 2_000_000
                ),
                path: "sections"
            )
        ) { try LayoutSolver.solve(spec, in: Self.environment) }
    }

    @Test("more than 8 supplementary items on an item or a group is a decoding error at its path")
    func supplementaryCaps() throws {
        // The issue's 32-badge spec (2.7 KB), and 9 on a group.
        #expect(
            throws: LayoutSpecError(
                path: "sections[0].group.subitems[0].item.supplementaryItems",
                reason: "32 supplementary items exceed the limit of 8"
            )
        ) { try LayoutSpec(json: Self.spec(items: 1_000_000, badges: 32).utf8) }
        #expect(
            throws: LayoutSpecError(
                path: "sections[0].group.supplementaryItems",
                reason: "9 supplementary items exceed the limit of 8"
            )
        ) { try LayoutSpec(json: Self.spec(items: 1, badges: 0, groupSupplementaries: 9).utf8) }
        // 8 of each decode.
        let spec = try LayoutSpec(json: Self.spec(items: 1, badges: 8, groupSupplementaries: 8).utf8)
        let result = try LayoutSolver.solve(spec, in: Self.environment)
        #expect(result.sections[0].supplementaries.count == 16)
    }

    @Test("a spec built in code is held to the same caps")
    func supplementaryCapsInCode() throws {
        func badge(_ n: Int) -> ItemSupplementary {
            ItemSupplementary(
                elementKind: "b\(n)",
                size: LayoutSize(width: .absolute(8), height: .absolute(8)),
                anchor: SupplementaryAnchor(edges: [.top, .trailing])
            )
        }
        var leaf = LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .absolute(44)))
        leaf.supplementaryItems = (0..<32).map(badge)
        let row = LayoutGroup(
            axis: .horizontal,
            size: LayoutSize(width: .fractionalWidth(1), height: .absolute(44)),
            subitems: [.item(leaf)]
        )
        let spec = LayoutSpec(sections: [LayoutSection(id: "s", itemCount: 1_000_000, group: row)])
        #expect(
            throws: LayoutSolveError(
                .limitExceeded(what: "32 supplementary items", limit: 8),
                sectionIndex: 0,
                sectionID: "s",
                path: "sections[0].group.subitems[0].item.supplementaryItems"
            )
        ) { try LayoutSolver.solve(spec, in: Self.environment) }

        var grouped = row
        grouped.subitems = [.item(LayoutItem(size: leaf.size))]
        grouped.supplementaryItems = (0..<9).map(badge)
        #expect(
            throws: LayoutSolveError(
                .limitExceeded(what: "9 supplementary items", limit: 8),
                sectionIndex: 0,
                sectionID: "s",
                path: "sections[0].group.supplementaryItems"
            )
        ) {
            try LayoutSolver.solve(LayoutSpec(sections: [LayoutSection(id: "s", group: grouped)]), in: Self.environment)
        }
    }

    @Test("element kinds are at most 64 bytes, decoded or built in code")
    func elementKindLength() throws {
        let long = String(repeating: "k", count: 65)
        #expect(
            throws: LayoutSpecError(
                path: "sections[0].decorationItems[0].elementKind",
                reason: "an element kind of 65 bytes exceeds the limit of 64 bytes"
            )
        ) {
            try LayoutSpec(
                json: #"""
                    {"sections": [{"id": "s", "group": {"axis": "horizontal",
                      "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 44}},
                      "subitems": [{"item": {"size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 44}}}}]},
                      "decorationItems": [{"elementKind": "\#(long)"}]}]}
                    """#.utf8
            )
        }
        var section = LayoutSection(id: "s", itemCount: 1, group: Self.row)
        section.boundarySupplementaryItems = [
            BoundarySupplementaryItem(
                elementKind: long,
                size: LayoutSize(width: .fractionalWidth(1), height: .absolute(30)),
                alignment: .top
            )
        ]
        #expect(
            throws: LayoutSolveError(
                .limitExceeded(what: "element kind of 65 bytes", limit: 64),
                sectionIndex: 0,
                sectionID: "s",
                path: "sections[0].boundarySupplementaryItems[0].elementKind"
            )
        ) { try LayoutSolver.solve(LayoutSpec(sections: [section]), in: Self.environment) }
        // 64 bytes is fine.
        section.boundarySupplementaryItems[0].elementKind = String(repeating: "k", count: 64)
        #expect(throws: Never.self) { try LayoutSolver.solve(LayoutSpec(sections: [section]), in: Self.environment) }
    }

    @Test("the output bounds in docs/layout.md: 120 bytes a frame in memory, 750 an element encoded")
    func worstCaseElement() {
        #expect(MemoryLayout<SupplementaryFrame>.stride <= 120)
        #expect(MemoryLayout<DecorationFrame>.stride <= 120)
        #expect(MemoryLayout<Rect>.stride == 32)
        // Every key at once, a 64-byte kind of control characters (each written as \u0001, 6
        // bytes), the longest shortest form of a double (24 characters) everywhere a number goes.
        let kind = String(repeating: "\u{1}", count: LayoutLimits.maxElementKindBytes)
        let number = -2.2250738585072014e-308
        let frame = Rect(x: number, y: number, width: number, height: number)
        let supplementary = SupplementaryFrame(
            elementKind: kind,
            item: 999_999,
            group: 999_999,
            frame: frame,
            zIndex: Int(Int32.min),
            pinToVisibleBounds: false,
            pinRange: PinRange(min: number, max: number),
            estimatedAxes: [.width, .height]
        )
        let decoration = DecorationFrame(
            elementKind: kind,
            frame: frame,
            zIndex: Int(Int32.min),
            item: 999_999,
            cornerRadius: number
        )
        func bytes(_ supplementaries: Int, _ decorations: Int, pretty: Bool) -> Int {
            let section = SectionLayout(
                index: 999,
                id: "s",
                frame: frame,
                itemFrames: [],
                itemZIndex: 0,
                slotsPerGroup: 1,
                supplementaries: Array(repeating: supplementary, count: supplementaries),
                decorations: Array(repeating: decoration, count: decorations),
                orthogonal: nil
            )
            let result = LayoutResult(
                environment: Self.environment,
                contentSize: Size(width: 375, height: 812),
                sections: [section],
                globalSupplementaries: [],
                diagnostics: []
            )
            return result.jsonBytes(pretty: pretty).count
        }
        // Compact, a supplementary is 711 bytes: `{"elementKind":"` 16 + 6 × 64 + `"` 1 = 401;
        // `,"item":999999` 14 + `,"group":999999` 15; `,"frame":{"x":` 14 + `,"y":` 5 +
        // `,"width":` 9 + `,"height":` 10 + `}` 1 + 4 × 24 = 135; `,"zIndex":-2147483648` 21;
        // `,"pinToVisibleBounds":false` 27; `,"pinRange":{"min":` 18 + `,"max":` 7 + `}` 1 +
        // 2 × 24 = 74; `,"sizing":"estimated"` 21; `}` and the comma 2. Pretty adds a space
        // after each of 13 colons and 12 commas, a line break and 8 spaces of indentation: 745.
        for pretty in [false, true] {
            // One more element of each kind, its comma and line break included.
            let perSupplementary = bytes(2, 0, pretty: pretty) - bytes(1, 0, pretty: pretty)
            let perDecoration = bytes(0, 2, pretty: pretty) - bytes(0, 1, pretty: pretty)
            #expect(perSupplementary <= 750, "a supplementary takes \(perSupplementary) bytes (pretty: \(pretty))")
            #expect(perDecoration <= perSupplementary)
        }
    }
}

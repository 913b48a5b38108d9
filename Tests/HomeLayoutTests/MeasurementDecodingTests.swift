import Testing

@testable import HomeLayout

/// Measurements and `uniformAcrossSiblings` from JSON: accepted shapes, and errors that name
/// the entry and key.
@Suite struct MeasurementDecodingTests {
    let spec = HomeScreenFixture.spec

    @Test("entries name items, boundary items, badges and global items, by section index or id")
    func decodes() throws {
        let json = """
            [
              {"section": "mainService", "item": 0, "height": 45},
              {"section": 3, "elementKind": "header", "height": 60},
              {"section": 1, "item": 2, "elementKind": "badge", "width": 30, "height": 20},
              {"elementKind": "banner", "width": 375}
            ]
            """
        let m = try LayoutMeasurements(json: json.utf8, spec: spec)
        #expect(m[.item(section: 1, item: 0)] == MeasuredSize(height: 45))
        #expect(m[.boundary(section: 3, elementKind: "header")] == MeasuredSize(height: 60))
        #expect(m[.itemSupplementary(section: 1, item: 2, elementKind: "badge")] == MeasuredSize(width: 30, height: 20))
        #expect(m[.globalBoundary(elementKind: "banner")] == MeasuredSize(width: 375))
        #expect(m.count == 4)
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        var json: String
        var path: String
        var reason: String
        var testDescription: String { json }
    }

    @Test(
        "malformed entries are errors naming where",
        arguments: [
            BadCase(
                json: #"[{"section": 1, "item": 0, "height": -4}]"#,
                path: "[0].height",
                reason: "expected a number greater than 0; found -4"
            ),
            BadCase(
                json: #"[{"section": 1, "item": 0, "height": 2000000}]"#,
                path: "[0].height",
                reason: "expected at most 1000000; found 2000000"
            ),
            BadCase(
                json: #"[{"section": "nope", "item": 0, "height": 4}]"#,
                path: "[0].section",
                reason: "no section \"nope\" in the spec"
            ),
            BadCase(
                json: #"[{"section": 9, "item": 0, "height": 4}]"#,
                path: "[0].section",
                reason: "expected an integer from 0 to 3; found 9"
            ),
            BadCase(
                json: #"[{"section": 1, "item": 0}]"#,
                path: "[0]",
                reason: "expected \"width\", \"height\" or both"
            ),
            BadCase(
                json: #"[{"section": 1, "height": 3}]"#,
                path: "[0]",
                reason: "expected \"item\", \"elementKind\" or both"
            ),
            BadCase(json: #"[{"item": 1, "height": 3}]"#, path: "[0].item", reason: "an item needs its \"section\""),
            BadCase(
                json: #"[{"section": 1, "item": 0, "height": 3}, {"section": "mainService", "item": 0, "width": 3}]"#,
                path: "[1]",
                reason: "the element of [0] is measured again"
            ),
            BadCase(
                json: #"[{"section": 1, "item": 0, "depth": 3}]"#,
                path: "[0].depth",
                reason: "unknown key \"depth\"; allowed keys: section, item, elementKind, width, height"
            ),
        ]
    )
    func errors(_ c: BadCase) {
        #expect(throws: LayoutSpecError(path: c.path, reason: c.reason)) {
            try LayoutMeasurements(json: c.json.utf8, spec: spec)
        }
    }

    @Test("uniformAcrossSiblings sizes items; anywhere else it is an error with its path")
    func uniform() throws {
        func json(group height: String, item itemHeight: String) -> String {
            """
            {"sections": [{"id": "s", "group": {"axis": "horizontal",
              "size": {"width": {"fractionalWidth": 1}, "height": \(height)},
              "subitems": [{"item": {"size": {"width": {"fractionalWidth": 0.25},
                                              "height": \(itemHeight)}}}]}}]}
            """
        }
        let spec = try LayoutSpec(
            json: json(group: #"{"estimated": 40}"#, item: #"{"uniformAcrossSiblings": 40}"#).utf8
        )
        guard case .item(let decoded) = spec.sections[0].group.subitems[0] else {
            Issue.record("expected an item")
            return
        }
        #expect(decoded.size.height == .uniformAcrossSiblings(estimate: 40))

        let uniformGroup = json(group: #"{"uniformAcrossSiblings": 40}"#, item: #"{"estimated": 40}"#)
        #expect(
            throws: LayoutSpecError(
                path: "sections[0].group.size.height",
                reason: "uniformAcrossSiblings sizes items only (the largest measured size among a group's items)"
            )
        ) { try LayoutSpec(json: uniformGroup.utf8) }

        // Built in code, a group sized uniformAcrossSiblings is refused by the solver.
        let coded = LayoutSection(
            id: "s",
            itemCount: 1,
            group: hgroup(
                .fractionalWidth(1),
                .uniformAcrossSiblings(estimate: 40),
                [item(.absolute(10), .absolute(10))]
            )
        )
        let error = try #require(
            throws: LayoutSolveError.self,
            performing: {
                try LayoutSolver.solve(
                    LayoutSpec(sections: [coded]),
                    in: LayoutEnvironment(width: 375, height: 812, scale: 2)
                )
            }
        )
        #expect(error.path == "sections[0].group.size.height")
    }
}

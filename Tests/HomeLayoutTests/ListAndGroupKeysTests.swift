import Testing

@testable import HomeLayout

/// The spec keys of issue 14: `configuration.platform`, `list`, `group.supplementaryItems` and
/// `itemAnchor` (`docs/layout.md`), decoded and rejected with JSON paths.
@Suite struct ListAndGroupKeysTests {
    static let size = #"{"width": {"fractionalWidth": 1}, "height": {"absolute": 44}}"#
    static let item = #"{"item": {"size": \#(size)}}"#
    static let group = #"{"axis": "horizontal", "size": \#(size), "subitems": [\#(item)]}"#

    func decode(_ json: String) throws(LayoutSpecError) -> LayoutSpec {
        try LayoutSpec(json: Array(json.utf8))
    }

    @Test("decodes platform, a list section with every key, group supplementaries and itemAnchor")
    func decodes() throws {
        let json = #"""
            {
              "configuration": {"platform": "ios14"},
              "sections": [
                {"id": "more", "itemCount": 3,
                 "list": {"appearance": "insetGrouped", "headerMode": "firstItemInSection",
                          "footerMode": "supplementary", "showsSeparators": false,
                          "separatorInsets": {"leading": 60}, "itemHeight": {"absolute": 52}},
                 "variants": [{"minWidth": 600, "list": {"appearance": "sidebar"}}]},
                {"id": "cards", "group": {"axis": "horizontal", "size": \#(Self.size), "subitems": [\#(Self.item)],
                  "supplementaryItems": [{"elementKind": "handle", "size": \#(Self.size),
                    "anchor": {"edges": ["trailing"], "fractionalOffset": {"x": 1, "y": 0}},
                    "itemAnchor": {"edges": ["leading"], "absoluteOffset": {"x": 2, "y": 0}}}]}}
              ]
            }
            """#
        let spec = try decode(json)
        #expect(spec.configuration.platform == .ios14)
        let list = try #require(spec.sections[0].list)
        #expect(
            list
                == ListConfiguration(
                    appearance: .insetGrouped,
                    headerMode: .firstItemInSection,
                    footerMode: .supplementary,
                    showsSeparators: false,
                    separatorInsets: ListConfiguration.SeparatorInsets(leading: 60),
                    itemHeight: .absolute(52)
                )
        )
        // The list's row group stands in for the group a list section does not declare.
        #expect(spec.sections[0].group == list.rowGroup)
        #expect(spec.sections[0].variants[0].overrides.list == ListConfiguration(appearance: .sidebar))
        let handle = try #require(spec.sections[1].group.supplementaryItems.first)
        #expect(handle.elementKind == "handle")
        #expect(handle.anchor == SupplementaryAnchor(edges: [.trailing], fractionalOffset: Point(x: 1, y: 0)))
        #expect(handle.itemAnchor == SupplementaryAnchor(edges: [.leading], absoluteOffset: Point(x: 2, y: 0)))
        #expect(handle.zIndex == 1)
        #expect(try decode(#"{"sections": []}"#).configuration.platform == .ios17)
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var json: String
        var path: String
        var reason: String
        init(_ json: String, _ path: String, _ reason: String) {
            self.json = json
            self.path = path
            self.reason = reason
        }
        var testDescription: String { path + ": " + reason }
    }

    static let errorCases: [ErrorCase] = [
        .init(
            #"{"configuration": {"platform": "ios16"}, "sections": []}"#,
            "configuration.platform",
            #"expected one of ios17, ios14; found "ios16""#
        ),
        .init(
            #"{"sections": [{"id": "l", "list": {"appearance": "plain"}, "group": \#(group)}]}"#,
            "sections[0].group",
            #"a list section builds its own group; remove "group" or "list""#
        ),
        .init(
            #"{"sections": [{"id": "l", "list": {"appearance": "plain"}, "boundarySupplementaryItems": []}]}"#,
            "sections[0].boundarySupplementaryItems",
            #"a list section builds its own boundarySupplementaryItems; remove "boundarySupplementaryItems" or "list""#
        ),
        .init(
            #"{"sections": [{"id": "l", "list": {"headerMode": "none"}}]}"#,
            "sections[0].list",
            #"missing required key "appearance""#
        ),
        .init(
            #"{"sections": [{"id": "l", "list": {"appearance": "fancy"}}]}"#,
            "sections[0].list.appearance",
            #"expected one of plain, grouped, insetGrouped, sidebar, sidebarPlain; found "fancy""#
        ),
        .init(
            #"{"sections": [{"id": "l", "list": {"appearance": "plain", "headerMode": "sticky"}}]}"#,
            "sections[0].list.headerMode",
            #"expected one of none, supplementary, firstItemInSection; found "sticky""#
        ),
        .init(
            #"{"sections": [{"id": "l", "list": {"appearance": "plain", "itemHeight": {"fractionalHeight": 0.1}}}]}"#,
            "sections[0].list.itemHeight",
            "expected one of absolute, estimated (a row's height is not a fraction)"
        ),
        .init(
            #"{"sections": [{"id": "l", "list": {"appearance": "plain", "separatorInsets": {"top": 1}}}]}"#,
            "sections[0].list.separatorInsets.top",
            #"unknown key "top"; allowed keys: leading, trailing"#
        ),
        .init(
            #"{"sections": [{"id": "l", "list": {"appearance": "plain", "rowHeight": 44}}]}"#,
            "sections[0].list.rowHeight",
            #"unknown key "rowHeight"; allowed keys: appearance, headerMode, footerMode, showsSeparators, separatorInsets, itemHeight"#
        ),
        .init(
            #"{"sections": [{"id": "l", "list": {"appearance": "plain"}, "variants": [{"minWidth": 1, "group": \#(group)}]}]}"#,
            "sections[0].variants[0].group",
            #"a list section builds its own group; remove "group" or "list""#
        ),
        .init(
            #"{"sections": [{"id": "s", "group": \#(group), "variants": [{"minWidth": 1, "list": {"appearance": "plain"}}]}]}"#,
            "sections[0].variants[0].list",
            #"only a list section's variants can set "list"; give the section itself a "list""#
        ),
        .init(
            #"{"sections": [{"id": "s", "group": {"axis": "horizontal", "size": \#(size), "subitems": [\#(item)], "supplementaryItems": [{"elementKind": "x"}]}}]}"#,
            "sections[0].group.supplementaryItems[0]",
            #"missing required key "size""#
        ),
        .init(
            #"{"sections": [{"id": "s", "group": {"axis": "horizontal", "size": \#(size), "subitems": [\#(item)], "supplementaryItems": [{"size": \#(size), "itemAnchor": {"edges": ["top", "bottom"]}}]}}]}"#,
            "sections[0].group.supplementaryItems[0].itemAnchor.edges[1]",
            #""bottom" contradicts "top"; an anchor takes at most one edge per axis"#
        ),
    ]

    @Test("reports the path and what was expected", arguments: errorCases)
    func errors(_ c: ErrorCase) {
        #expect(throws: LayoutSpecError(path: c.path, reason: c.reason)) {
            try decode(c.json)
        }
    }

    @Test("a decoded list spec solves; its output lists separators with their rows")
    func endToEnd() throws {
        let spec = try decode(#"{"sections": [{"id": "more", "itemCount": 2, "list": {"appearance": "grouped"}}]}"#)
        let result = try LayoutSolver.solve(spec, in: LayoutEnvironment(width: 375, height: 812, scale: 2))
        let json = result.jsonString(pretty: false)
        // Rows at 35 and 79: the top line at 35, the inner line at 79 − 0.5, the bottom line at 123 − 0.5.
        #expect(
            json.contains(
                #"{"elementKind":"topSeparator","item":0,"frame":{"x":0,"y":35,"width":375,"height":0.5},"zIndex":100}"#
            )
        )
        #expect(
            json.contains(
                #"{"elementKind":"separator","item":0,"frame":{"x":16,"y":78.5,"width":359,"height":0.5},"zIndex":100}"#
            )
        )
    }
}

extension ListAndGroupKeysTests {
    @Test("group supplementaries carry their repetition; a card decoration its corner radius")
    func encodesNewFields() throws {
        let spec = try decode(
            #"""
            {"sections": [
              {"id": "cards", "itemCount": 2, "group": {"axis": "horizontal", "size": \#(Self.size),
                "subitems": [\#(Self.item)], "supplementaryItems": [{"elementKind": "dot",
                "size": {"width": {"absolute": 4}, "height": {"absolute": 4}}, "anchor": {"edges": ["top", "leading"]}}]}},
              {"id": "more", "itemCount": 1, "list": {"appearance": "insetGrouped"}}
            ]}
            """#
        )
        let json = try LayoutSolver.solve(spec, in: LayoutEnvironment(width: 375, height: 812, scale: 2))
            .jsonString(pretty: false)
        // Rows of 44: the second repetition's dot at y 44.
        #expect(
            json.contains(
                #"{"elementKind":"dot","item":null,"group":1,"frame":{"x":0,"y":44,"width":4,"height":4},"zIndex":1,"pinToVisibleBounds":false}"#
            )
        )
        // The list starts at 88 and is not the first section: card from 88 + 17.5 = 105.5, one 44
        // row, 16 in from each side.
        #expect(
            json.contains(
                #"{"elementKind":"background","frame":{"x":16,"y":105.5,"width":343,"height":44},"zIndex":0,"cornerRadius":10}"#
            )
        )
    }
}

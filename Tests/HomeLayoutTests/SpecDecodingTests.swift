import Testing

@testable import HomeLayout

/// JSON building blocks for the tables below.
private enum J {
    static let size = #"{"width": {"fractionalWidth": 1}, "height": {"absolute": 44}}"#
    static let item = #"{"item": {"size": \#(size)}}"#
    static let group = #"{"axis": "horizontal", "size": \#(size), "subitems": [\#(item)]}"#
    static let header = #"{"elementKind": "header", "size": \#(size), "alignment": "top"}"#
    static let badgeAnchor = #"{"edges": ["top", "trailing"]}"#

    /// One section `{"id": "s", "group": GROUP, …extra}`.
    static func section(_ extra: String = "", group: String = J.group) -> String {
        #"{"sections": [{"id": "s", "group": \#(group)\#(extra.isEmpty ? "" : ", " + extra)}]}"#
    }

    /// One section whose root group has the given extra keys.
    static func groupKeys(_ extra: String) -> String {
        section(group: #"{"axis": "horizontal", "size": \#(size), "subitems": [\#(item)], \#(extra)}"#)
    }

    /// One section whose root group holds one item with this body.
    static func itemBody(_ body: String) -> String {
        section(group: #"{"axis": "vertical", "size": \#(size), "subitems": [{"item": \#(body)}]}"#)
    }

    /// An item body with a size plus extra keys.
    static func itemKeys(_ extra: String) -> String { itemBody(#"{"size": \#(size), \#(extra)}"#) }

    /// One item of the given size.
    static func itemSize(_ size: String) -> String { itemBody(#"{"size": \#(size)}"#) }

    /// One item with one badge with the given keys.
    static func badge(_ keys: String) -> String { itemKeys(#""supplementaryItems": [{\#(keys)}]"#) }

    /// One section with one boundary item with the given keys.
    static func boundary(_ keys: String) -> String { section(#""boundarySupplementaryItems": [{\#(keys)}]"#) }

    /// Groups nested `depth` deep (the root group is depth 1).
    static func nestedGroups(depth: Int) -> String {
        var inner = group
        for _ in 1..<depth {
            inner = #"{"axis": "vertical", "size": \#(size), "subitems": [{"group": \#(inner)}]}"#
        }
        return section(group: inner)
    }
}

private func decode(_ json: String) throws(LayoutSpecError) -> LayoutSpec {
    try LayoutSpec(json: json.utf8)
}

@Suite struct SpecDecodingTests {
    @Test("element kinds, alignment and anchor default as the contract shows them")
    func supplementaryDefaults() throws {
        let spec = try decode(
            J.section(
                #""boundarySupplementaryItems": [{"size": \#(J.size)}], "decorationItems": [{}]"#
            )
        )
        let header = try #require(spec.sections.first?.boundarySupplementaryItems.first)
        #expect(header.elementKind == "header")
        #expect(header.alignment == .top)
        #expect(spec.sections.first?.decorationItems.first?.elementKind == "background")
        let badged = try decode(J.badge(#""size": \#(J.size)"#))
        guard case .item(let item) = badged.sections.first?.group.subitems.first else {
            Issue.record("expected an item")
            return
        }
        #expect(item.supplementaryItems.first?.elementKind == "badge")
        #expect(item.supplementaryItems.first?.anchor == SupplementaryAnchor(edges: [.top, .trailing]))
    }

    // MARK: - Defaults and every key

    @Test("applies every documented default")
    func defaults() throws {
        let spec = try decode(J.section())
        #expect(spec.configuration == LayoutConfiguration())
        #expect(spec.configuration.scrollDirection == .vertical)
        #expect(spec.configuration.interSectionSpacing == 0)
        #expect(spec.configuration.boundarySupplementaryItems.isEmpty)
        let section = try #require(spec.sections.first)
        #expect(section.id == "s")
        #expect(section.itemCount == 0)
        #expect(section.contentInsets == .zero)
        #expect(section.interGroupSpacing == 0)
        #expect(section.orthogonalScrollingBehavior == .none)
        #expect(section.contentInsetsReference == .automatic)
        #expect(section.supplementariesFollowContentInsets == nil)
        #expect(section.supplementaryContentInsetsReference == nil)
        #expect(section.boundarySupplementaryItems.isEmpty)
        #expect(section.decorationItems.isEmpty)
        #expect(section.variants.isEmpty)
        let group = section.group
        #expect(group.axis == .horizontal)
        #expect(group.count == nil)
        #expect(group.countMode == .repeating)
        #expect(group.interItemSpacing == nil)
        #expect(group.contentInsets == .zero)
        #expect(group.edgeSpacing == nil)
        guard case .item(let item) = try #require(group.subitems.first) else {
            Issue.record("expected an item")
            return
        }
        #expect(item == LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .absolute(44))))
        #expect(item.contentInsets == .zero && item.edgeSpacing == nil && item.supplementaryItems.isEmpty)
    }

    @Test("defaults of boundary items, badges, decorations, anchors, insets, points and edges")
    func nestedDefaults() throws {
        let spec = try decode(
            J.section(
                #"""
                "boundarySupplementaryItems": [\#(J.header)],
                "decorationItems": [{"elementKind": "background"}]
                """#,
                group: #"""
                    {"axis": "vertical", "size": \#(J.size), "subitems": [{"item": {"size": \#(J.size),
                     "contentInsets": {"top": 3}, "edgeSpacing": {"trailing": {"fixed": 2}},
                     "supplementaryItems": [{"elementKind": "badge", "size": \#(J.size), "anchor": {"edges": []}}]}}]}
                    """#
            )
        )
        let section = try #require(spec.sections.first)
        #expect(
            section.boundarySupplementaryItems == [
                BoundarySupplementaryItem(
                    elementKind: "header",
                    size: LayoutSize(width: .fractionalWidth(1), height: .absolute(44)),
                    alignment: .top,
                    offset: .zero,
                    extendsBoundary: true,
                    pinToVisibleBounds: false,
                    zIndex: 0,
                    contentInsets: .zero
                )
            ]
        )
        #expect(section.decorationItems == [DecorationItem(elementKind: "background", contentInsets: .zero, zIndex: 0)])
        guard case .item(let item) = try #require(section.group.subitems.first) else {
            Issue.record("expected an item")
            return
        }
        #expect(item.contentInsets == EdgeInsets(top: 3, leading: 0, bottom: 0, trailing: 0))
        #expect(item.edgeSpacing == EdgeSpacing(leading: nil, top: nil, trailing: .fixed(2), bottom: nil))
        let badge = try #require(item.supplementaryItems.first)
        #expect(badge.zIndex == 1)
        #expect(badge.anchor == SupplementaryAnchor(edges: [], absoluteOffset: .zero, fractionalOffset: .zero))
    }

    @Test("decodes every key")
    func everyKey() throws {
        let json = #"""
            {
              "configuration": {
                "scrollDirection": "horizontal",
                "interSectionSpacing": 12.5,
                "boundarySupplementaryItems": [{"elementKind": "globalHeader", "size": \#(J.size),
                  "alignment": "topLeading", "offset": {"x": 1, "y": -2}, "extendsBoundary": false,
                  "pinToVisibleBounds": true, "zIndex": 2, "contentInsets": {"leading": 4, "trailing": 4}}]
              },
              "sections": [
                {
                  "id": "main",
                  "itemCount": 7,
                  "group": {
                    "axis": "vertical",
                    "size": {"width": {"fractionalHeight": 0.5}, "height": {"estimated": 100}},
                    "subitems": [
                      {"item": {"size": \#(J.size), "contentInsets": {"top": 1, "leading": 2, "bottom": 3, "trailing": 4},
                                "edgeSpacing": {"leading": {"flexible": 0}, "top": {"fixed": 8},
                                                "trailing": {"fixed": -1}, "bottom": {"flexible": 2}},
                                "supplementaryItems": [{"elementKind": "badge",
                                  "size": {"width": {"absolute": 20}, "height": {"absolute": 20}},
                                  "anchor": {"edges": ["top", "trailing"], "absoluteOffset": {"x": 3},
                                             "fractionalOffset": {"x": 0.3, "y": -0.3}},
                                  "zIndex": 5}]}},
                      {"group": {"axis": "horizontal", "size": \#(J.size), "subitems": [\#(J.item)], "count": 3,
                                 "countMode": "equal"}}
                    ],
                    "count": 4,
                    "countMode": "repeating",
                    "interItemSpacing": {"flexible": 6},
                    "contentInsets": {"bottom": -2},
                    "edgeSpacing": {"top": {"fixed": 10}}
                  },
                  "contentInsets": {"top": 16, "leading": 20, "bottom": 16, "trailing": 20},
                  "interGroupSpacing": 8,
                  "orthogonalScrollingBehavior": "groupPagingCentered",
                  "contentInsetsReference": "readableContent",
                  "supplementariesFollowContentInsets": false,
                  "supplementaryContentInsetsReference": "layoutMargins",
                  "boundarySupplementaryItems": [\#(J.header)],
                  "decorationItems": [{"elementKind": "background", "contentInsets": {"top": 5}, "zIndex": -1}],
                  "variants": [
                    {"minWidth": 600, "maxWidth": 1000, "itemCount": 9, "interGroupSpacing": 16},
                    {"minWidth": 1000, "group": \#(J.group), "contentInsets": {"top": 1},
                     "orthogonalScrollingBehavior": "paging", "contentInsetsReference": "none",
                     "supplementariesFollowContentInsets": true, "supplementaryContentInsetsReference": "safeArea",
                     "boundarySupplementaryItems": [], "decorationItems": []}
                  ]
                },
                {"id": "second", "group": \#(J.group)}
              ]
            }
            """#
        let spec = try decode(json)
        let full = LayoutSize(width: .fractionalWidth(1), height: .absolute(44))
        let plainItem = LayoutElement.item(LayoutItem(size: full))
        let badge = ItemSupplementary(
            elementKind: "badge",
            size: LayoutSize(width: .absolute(20), height: .absolute(20)),
            anchor: SupplementaryAnchor(
                edges: [.top, .trailing],
                absoluteOffset: Point(x: 3, y: 0),
                fractionalOffset: Point(x: 0.3, y: -0.3)
            ),
            zIndex: 5
        )
        let rootGroup = LayoutGroup(
            axis: .vertical,
            size: LayoutSize(width: .fractionalHeight(0.5), height: .estimated(100)),
            subitems: [
                .item(
                    LayoutItem(
                        size: full,
                        contentInsets: EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4),
                        edgeSpacing: EdgeSpacing(
                            leading: .flexible(0),
                            top: .fixed(8),
                            trailing: .fixed(-1),
                            bottom: .flexible(2)
                        ),
                        supplementaryItems: [badge]
                    )
                ),
                .group(LayoutGroup(axis: .horizontal, size: full, subitems: [plainItem], count: 3, countMode: .equal)),
            ],
            count: 4,
            countMode: .repeating,
            interItemSpacing: .flexible(6),
            contentInsets: EdgeInsets(bottom: -2),
            edgeSpacing: EdgeSpacing(top: .fixed(10))
        )
        var narrow = SectionOverrides()
        narrow.itemCount = 9
        narrow.interGroupSpacing = 16
        var wide = SectionOverrides()
        wide.group = LayoutGroup(axis: .horizontal, size: full, subitems: [plainItem])
        wide.contentInsets = EdgeInsets(top: 1)
        wide.orthogonalScrollingBehavior = .paging
        wide.contentInsetsReference = ContentInsetsReference.none
        wide.supplementariesFollowContentInsets = true
        wide.supplementaryContentInsetsReference = .safeArea
        wide.boundarySupplementaryItems = []
        wide.decorationItems = []
        let expected = LayoutSpec(
            configuration: LayoutConfiguration(
                scrollDirection: .horizontal,
                interSectionSpacing: 12.5,
                boundarySupplementaryItems: [
                    BoundarySupplementaryItem(
                        elementKind: "globalHeader",
                        size: full,
                        alignment: .topLeading,
                        offset: Point(x: 1, y: -2),
                        extendsBoundary: false,
                        pinToVisibleBounds: true,
                        zIndex: 2,
                        contentInsets: EdgeInsets(leading: 4, trailing: 4)
                    )
                ]
            ),
            sections: [
                LayoutSection(
                    id: "main",
                    itemCount: 7,
                    group: rootGroup,
                    contentInsets: EdgeInsets(top: 16, leading: 20, bottom: 16, trailing: 20),
                    interGroupSpacing: 8,
                    orthogonalScrollingBehavior: .groupPagingCentered,
                    contentInsetsReference: .readableContent,
                    supplementariesFollowContentInsets: false,
                    supplementaryContentInsetsReference: .layoutMargins,
                    boundarySupplementaryItems: [
                        BoundarySupplementaryItem(elementKind: "header", size: full, alignment: .top)
                    ],
                    decorationItems: [
                        DecorationItem(elementKind: "background", contentInsets: EdgeInsets(top: 5), zIndex: -1)
                    ],
                    variants: [
                        SectionVariant(minWidth: 600, maxWidth: 1000, overrides: narrow),
                        SectionVariant(minWidth: 1000, maxWidth: nil, overrides: wide),
                    ]
                ),
                LayoutSection(id: "second", group: LayoutGroup(axis: .horizontal, size: full, subitems: [plainItem])),
            ]
        )
        #expect(spec == expected)
        // The variants behave like a section provider reading the container width.
        let main = spec.sections[0]
        #expect(main.resolved(forWidth: 375).itemCount == 7)
        #expect(main.resolved(forWidth: 700).itemCount == 9)
        #expect(main.resolved(forWidth: 700).interGroupSpacing == 16)
        #expect(main.resolved(forWidth: 1200).orthogonalScrollingBehavior == .paging)
        #expect(main.resolved(forWidth: 1200).itemCount == 7)
    }

    struct DimensionCase: Sendable, CustomTestStringConvertible {
        var json: String
        var expected: Dimension
        var testDescription: String { json }
    }

    static let dimensionCases: [DimensionCase] = [
        .init(json: #"{"fractionalWidth": 0.25}"#, expected: .fractionalWidth(0.25)),
        .init(json: #"{"fractionalHeight": 1}"#, expected: .fractionalHeight(1)),
        .init(json: #"{"absolute": 44}"#, expected: .absolute(44)),
        .init(json: #"{"estimated": 1e2}"#, expected: .estimated(100)),
        .init(json: #"{"absolute": 5e-324}"#, expected: .absolute(.leastNonzeroMagnitude)),
        .init(json: #"{"fractionalWidth": 2.5}"#, expected: .fractionalWidth(2.5)),
    ]

    @Test("decodes each dimension kind", arguments: dimensionCases)
    func dimensions(_ c: DimensionCase) throws {
        let spec = try decode(J.itemSize(#"{"width": \#(c.json), "height": \#(c.json)}"#))
        #expect(spec.sections[0].group.subitems[0].size == LayoutSize(width: c.expected, height: c.expected))
    }

    struct IntegerCase: Sendable, CustomTestStringConvertible {
        var json: String
        var expected: Int
        var testDescription: String { json }
    }

    @Test(
        "accepts integral numbers in any notation",
        arguments: [
            IntegerCase(json: "3", expected: 3), IntegerCase(json: "3.0", expected: 3),
            IntegerCase(json: "3e0", expected: 3), IntegerCase(json: "30e-1", expected: 3),
            IntegerCase(json: "1", expected: 1), IntegerCase(json: "10000", expected: 10_000),
        ]
    )
    func integers(_ c: IntegerCase) throws {
        let spec = try decode(J.groupKeys(#""count": \#(c.json)"#))
        #expect(spec.sections[0].group.count == c.expected)
    }

    @Test("accepts the limits themselves")
    func limitsInclusive() throws {
        let spec = try decode(J.section(#""itemCount": 1000000"#))
        #expect(spec.sections[0].itemCount == LayoutLimits.maxItemsPerSection)
        let deep = try decode(J.nestedGroups(depth: LayoutLimits.maxGroupDepth))
        var depth = 1
        var group = deep.sections[0].group
        while case .group(let inner) = group.subitems[0] {
            depth += 1
            group = inner
        }
        #expect(depth == LayoutLimits.maxGroupDepth)
        let sections = (0..<LayoutLimits.maxSections).map { #"{"id": "s\#($0)", "group": \#(J.group)}"# }
        let many = try decode(#"{"sections": [\#(sections.joined(separator: ","))]}"#)
        #expect(many.sections.count == LayoutLimits.maxSections)
        #expect(try decode(#"{"sections": []}"#).sections.isEmpty)
    }

    @Test("accepts negative insets, spacings and offsets, and zero or negative zIndex")
    func negativeValues() throws {
        let spec = try decode(
            J.section(
                #"""
                "contentInsets": {"top": -4, "leading": -0.5}, "interGroupSpacing": -8,
                "decorationItems": [{"elementKind": "bg", "zIndex": -2147483648}]
                """#,
                group:
                    #"{"axis": "horizontal", "size": \#(J.size), "subitems": [\#(J.item)], "interItemSpacing": {"fixed": -3}}"#
            )
        )
        let section = spec.sections[0]
        #expect(section.contentInsets == EdgeInsets(top: -4, leading: -0.5))
        #expect(section.interGroupSpacing == -8)
        #expect(section.group.interItemSpacing == .fixed(-3))
        #expect(section.decorationItems[0].zIndex == Int(Int32.min))
    }

    @Test("accepts keys in any order and odd but valid JSON spacing")
    func keyOrder() throws {
        let a = try decode(#"{"sections":[{"group":\#(J.group),"id":"s"}]}"#)
        let b = try decode("\n\t{ \"sections\" :\r\n [ " + #"{"id": "s", "group": \#(J.group)}"# + " ] }\n")
        #expect(a == b)
    }

    // MARK: - Errors

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var json: String
        var path: String
        var reason: String
        init(_ json: String, _ path: String, _ reason: String) {
            self.json = json
            self.path = path
            self.reason = reason
        }
        var testDescription: String { (path.isEmpty ? "$" : path) + ": " + reason }
    }

    static let dims = "fractionalWidth, fractionalHeight, absolute, estimated"
    static let sectionKeyList =
        "id, itemCount, group, contentInsets, interGroupSpacing, orthogonalScrollingBehavior, contentInsetsReference, "
        + "supplementariesFollowContentInsets, supplementaryContentInsetsReference, boundarySupplementaryItems, "
        + "decorationItems, list, variants"
    static let variantKeyList =
        "minWidth, maxWidth, itemCount, group, contentInsets, interGroupSpacing, orthogonalScrollingBehavior, "
        + "contentInsetsReference, supplementariesFollowContentInsets, supplementaryContentInsetsReference, "
        + "boundarySupplementaryItems, decorationItems, list"
    static let behaviors = "none, continuous, continuousGroupLeadingBoundary, paging, groupPaging, groupPagingCentered"
    static let references = "automatic, none, safeArea, layoutMargins, readableContent"
    static let alignments = "top, bottom, leading, trailing, topLeading, topTrailing, bottomLeading, bottomTrailing"
    static let item0 = "sections[0].group.subitems[0].item"

    static let errorCases: [ErrorCase] = [
        // The example from layout-spec-format.md, verbatim.
        .init(
            #"""
            {"sections": [{"id": "a", "group": \#(J.group)},
              {"id": "b", "group": {"axis": "horizontal", "size": \#(J.size), "subitems": [{"item": {"size":
                {"width": {"fractional": 1}, "height": {"absolute": 1}}}}]}}]}
            """#,
            "sections[1].group.subitems[0].item.size.width",
            "expected one of \(dims); found \"fractional\""
        ),
        // Top level.
        .init("[]", "", "expected an object; found an empty array"),
        .init("null", "", "expected an object; found null"),
        .init("{}", "", "missing required key \"sections\""),
        .init(
            #"{"sections": [], "version": 1}"#,
            "version",
            "unknown key \"version\"; allowed keys: configuration, sections"
        ),
        .init(
            #"{"sections": [], "a b": 1}"#,
            #"["a b"]"#,
            "unknown key \"a b\"; allowed keys: configuration, sections"
        ),
        .init(#"{"sections": {}}"#, "sections", "expected an array; found an empty object"),
        .init(#"{"sections": "none"}"#, "sections", "expected an array; found \"none\""),
        // Configuration.
        .init(#"{"configuration": [], "sections": []}"#, "configuration", "expected an object; found an empty array"),
        .init(
            #"{"configuration": {"scrollDirection": "diagonal"}, "sections": []}"#,
            "configuration.scrollDirection",
            "expected one of vertical, horizontal; found \"diagonal\""
        ),
        .init(
            #"{"configuration": {"interSectionSpacing": "8"}, "sections": []}"#,
            "configuration.interSectionSpacing",
            "expected a finite number; found \"8\""
        ),
        .init(
            #"{"configuration": {"interSectionSpacing": 1e400}, "sections": []}"#,
            "configuration.interSectionSpacing",
            "expected a finite number; found a number too large to represent"
        ),
        .init(
            #"{"configuration": {"scroll": "vertical"}, "sections": []}"#,
            "configuration.scroll",
            "unknown key \"scroll\"; allowed keys: scrollDirection, interSectionSpacing, boundarySupplementaryItems, "
                + "platform"
        ),
        // Sections.
        .init(#"{"sections": [1]}"#, "sections[0]", "expected an object; found 1"),
        .init(#"{"sections": [{"group": \#(J.group)}]}"#, "sections[0]", "missing required key \"id\""),
        .init(
            #"{"sections": [{"id": "", "group": \#(J.group)}]}"#,
            "sections[0].id",
            "expected a non-empty string; found \"\""
        ),
        .init(#"{"sections": [{"id": 7, "group": \#(J.group)}]}"#, "sections[0].id", "expected a string; found 7"),
        .init(#"{"sections": [{"id": "s"}]}"#, "sections[0]", "missing required key \"group\""),
        .init(
            #"{"sections": [{"id": "s", "group": \#(J.group)}, {"id": "t", "group": \#(J.group)}, {"id": "s", "group": \#(J.group)}]}"#,
            "sections[2].id",
            "duplicate section id \"s\"; sections[0] has it already"
        ),
        .init(
            J.section(#""header": {}"#),
            "sections[0].header",
            "unknown key \"header\"; allowed keys: \(sectionKeyList)"
        ),
        .init(
            J.section(#""itemCount": -1"#),
            "sections[0].itemCount",
            "expected an integer from 0 to 1000000; found -1"
        ),
        .init(
            J.section(#""itemCount": 2.5"#),
            "sections[0].itemCount",
            "expected an integer from 0 to 1000000; found 2.5"
        ),
        .init(
            J.section(#""itemCount": 1000001"#),
            "sections[0].itemCount",
            "expected an integer from 0 to 1000000; found 1000001"
        ),
        .init(
            J.section(#""itemCount": "4""#),
            "sections[0].itemCount",
            "expected an integer from 0 to 1000000; found \"4\""
        ),
        .init(
            J.section(#""itemCount": 1e400"#),
            "sections[0].itemCount",
            "expected an integer from 0 to 1000000; found a number too large to represent"
        ),
        .init(
            J.section(#""interGroupSpacing": null"#),
            "sections[0].interGroupSpacing",
            "expected a finite number; found null"
        ),
        .init(
            J.section(#""interGroupSpacing": -1e999"#),
            "sections[0].interGroupSpacing",
            "expected a finite number; found a number too large to represent"
        ),
        .init(
            J.section(#""orthogonalScrollingBehavior": "page""#),
            "sections[0].orthogonalScrollingBehavior",
            "expected one of \(behaviors); found \"page\""
        ),
        .init(
            J.section(#""orthogonalScrollingBehavior": 1"#),
            "sections[0].orthogonalScrollingBehavior",
            "expected one of \(behaviors); found 1"
        ),
        .init(
            J.section(#""contentInsetsReference": "safe""#),
            "sections[0].contentInsetsReference",
            "expected one of \(references); found \"safe\""
        ),
        .init(
            J.section(#""supplementaryContentInsetsReference": true"#),
            "sections[0].supplementaryContentInsetsReference",
            "expected one of \(references); found true"
        ),
        .init(
            J.section(#""supplementariesFollowContentInsets": "yes""#),
            "sections[0].supplementariesFollowContentInsets",
            "expected true or false; found \"yes\""
        ),
        .init(
            J.section(#""supplementariesFollowContentInsets": 1"#),
            "sections[0].supplementariesFollowContentInsets",
            "expected true or false; found 1"
        ),
        .init(J.section(#""contentInsets": 4"#), "sections[0].contentInsets", "expected an object; found 4"),
        .init(
            J.section(#""contentInsets": {"left": 4}"#),
            "sections[0].contentInsets.left",
            "unknown key \"left\"; allowed keys: top, leading, bottom, trailing"
        ),
        .init(
            J.section(#""contentInsets": {"top": "4"}"#),
            "sections[0].contentInsets.top",
            "expected a finite number; found \"4\""
        ),
        .init(
            J.section(#""contentInsets": {"trailing": 1e309}"#),
            "sections[0].contentInsets.trailing",
            "expected a finite number; found a number too large to represent"
        ),
        .init(
            J.section(#""decorationItems": {}"#),
            "sections[0].decorationItems",
            "expected an array; found an empty object"
        ),
        .init(
            J.section(#""decorationItems": [{"elementKind": ""}]"#),
            "sections[0].decorationItems[0].elementKind",
            "expected a non-empty string; found \"\""
        ),
        .init(
            J.section(#""decorationItems": [{"elementKind": "bg", "zIndex": 1.5}]"#),
            "sections[0].decorationItems[0].zIndex",
            "expected an integer from -2147483648 to 2147483646; found 1.5"
        ),
        .init(
            J.section(#""decorationItems": [{"elementKind": "bg", "kind": "background"}]"#),
            "sections[0].decorationItems[0].kind",
            "unknown key \"kind\"; allowed keys: elementKind, contentInsets, zIndex"
        ),
        .init(
            J.section(#""decorationItems": [{"elementKind": "bg", "contentInsets": {"top": true}}]"#),
            "sections[0].decorationItems[0].contentInsets.top",
            "expected a finite number; found true"
        ),
        // Variants.
        .init(J.section(#""variants": {}"#), "sections[0].variants", "expected an array; found an empty object"),
        .init(J.section(#""variants": [3]"#), "sections[0].variants[0]", "expected an object; found 3"),
        .init(
            J.section(#""variants": [{"itemCount": 3}]"#),
            "sections[0].variants[0]",
            "missing required key \"minWidth\""
        ),
        .init(
            J.section(#""variants": [{"minWidth": 600, "id": "x"}]"#),
            "sections[0].variants[0].id",
            "a variant cannot change the section id; allowed keys: \(variantKeyList)"
        ),
        .init(
            J.section(#""variants": [{"minWidth": 600, "variants": []}]"#),
            "sections[0].variants[0].variants",
            "variants cannot be nested; allowed keys: \(variantKeyList)"
        ),
        .init(
            J.section(#""variants": [{"minWidth": 600, "width": 3}]"#),
            "sections[0].variants[0].width",
            "unknown key \"width\"; allowed keys: \(variantKeyList)"
        ),
        .init(
            J.section(#""variants": [{"minWidth": "600"}]"#),
            "sections[0].variants[0].minWidth",
            "expected a finite number; found \"600\""
        ),
        .init(
            J.section(#""variants": [{"minWidth": 600, "maxWidth": 600}]"#),
            "sections[0].variants[0].maxWidth",
            "expected a number greater than minWidth (600); found 600"
        ),
        .init(
            J.section(#""variants": [{"minWidth": 0}, {"minWidth": 600.5, "maxWidth": 1e400}]"#),
            "sections[0].variants[1].maxWidth",
            "expected a finite number; found a number too large to represent"
        ),
        .init(
            J.section(#""variants": [{"minWidth": 600, "itemCount": -3}]"#),
            "sections[0].variants[0].itemCount",
            "expected an integer from 0 to 1000000; found -3"
        ),
        .init(
            J.section(
                #""variants": [{"minWidth": 600, "group": {"axis": "horizontal", "size": {"width": {"absolute": 0}, "height": {"absolute": 1}}, "subitems": [\#(J.item)]}}]"#
            ),
            "sections[0].variants[0].group.size.width.absolute",
            "expected a number greater than 0; found 0"
        ),
        .init(
            J.section(#""variants": [{"minWidth": 600, "boundarySupplementaryItems": [{"elementKind": "h"}]}]"#),
            "sections[0].variants[0].boundarySupplementaryItems[0]",
            "missing required key \"size\""
        ),
        // Groups.
        .init(J.section(group: #""x""#), "sections[0].group", "expected an object; found \"x\""),
        .init(
            J.section(group: #"{"size": \#(J.size), "subitems": [\#(J.item)]}"#),
            "sections[0].group",
            "missing required key \"axis\""
        ),
        .init(
            J.section(group: #"{"axis": "vertical", "subitems": [\#(J.item)]}"#),
            "sections[0].group",
            "missing required key \"size\""
        ),
        .init(
            J.section(group: #"{"axis": "vertical", "size": \#(J.size)}"#),
            "sections[0].group",
            "missing required key \"subitems\""
        ),
        .init(
            J.section(group: #"{"axis": "diagonal", "size": \#(J.size), "subitems": [\#(J.item)]}"#),
            "sections[0].group.axis",
            "expected one of horizontal, vertical; found \"diagonal\""
        ),
        .init(
            J.section(group: #"{"axis": "vertical", "size": \#(J.size), "subitems": []}"#),
            "sections[0].group.subitems",
            "expected at least one subitem; found an empty array"
        ),
        .init(
            J.section(group: #"{"axis": "vertical", "size": \#(J.size), "subitems": {}}"#),
            "sections[0].group.subitems",
            "expected an array; found an empty object"
        ),
        .init(
            J.section(group: #"{"axis": "vertical", "size": \#(J.size), "subitems": [{"items": {}}]}"#),
            "sections[0].group.subitems[0]",
            "expected one of item, group; found \"items\""
        ),
        .init(
            J.section(group: #"{"axis": "vertical", "size": \#(J.size), "subitems": [{}]}"#),
            "sections[0].group.subitems[0]",
            "expected exactly one of item, group; found an empty object"
        ),
        .init(
            J.section(group: #"{"axis": "vertical", "size": \#(J.size), "subitems": [{"item": {}, "group": {}}]}"#),
            "sections[0].group.subitems[0]",
            "expected exactly one of item, group; found \"item\", \"group\""
        ),
        .init(
            J.section(group: #"{"axis": "vertical", "size": \#(J.size), "subitems": [\#(J.item), 3]}"#),
            "sections[0].group.subitems[1]",
            "expected an object with one of item, group; found 3"
        ),
        .init(
            J.section(
                group: #"{"axis": "vertical", "size": \#(J.size), "subitems": [{"group": {"axis": "vertical"}}]}"#
            ),
            "sections[0].group.subitems[0].group",
            "missing required key \"size\""
        ),
        .init(
            J.groupKeys(#""spacing": 3"#),
            "sections[0].group.spacing",
            "unknown key \"spacing\"; allowed keys: axis, size, subitems, count, countMode, interItemSpacing, contentInsets, "
                + "edgeSpacing, supplementaryItems"
        ),
        .init(J.groupKeys(#""count": 0"#), "sections[0].group.count", "expected an integer from 1 to 10000; found 0"),
        .init(
            J.groupKeys(#""count": 10001"#),
            "sections[0].group.count",
            "expected an integer from 1 to 10000; found 10001"
        ),
        .init(
            J.groupKeys(#""count": 1.5"#),
            "sections[0].group.count",
            "expected an integer from 1 to 10000; found 1.5"
        ),
        .init(
            J.groupKeys(#""count": "2""#),
            "sections[0].group.count",
            "expected an integer from 1 to 10000; found \"2\""
        ),
        .init(
            J.groupKeys(#""count": -0.5"#),
            "sections[0].group.count",
            "expected an integer from 1 to 10000; found -0.5"
        ),
        .init(
            J.groupKeys(#""countMode": "equal""#),
            "sections[0].group.countMode",
            "\"equal\" requires \"count\" in the same group"
        ),
        .init(
            J.section(
                group:
                    #"{"axis": "vertical", "size": \#(J.size), "subitems": [\#(J.item), \#(J.item)], "count": 2, "countMode": "equal"}"#
            ),
            "sections[0].group.countMode",
            "\"equal\" (subitem:count:) takes exactly one subitem; found 2"
        ),
        .init(
            J.groupKeys(#""count": 2, "countMode": "split""#),
            "sections[0].group.countMode",
            "expected one of repeating, equal; found \"split\""
        ),
        .init(
            J.groupKeys(#""interItemSpacing": 8"#),
            "sections[0].group.interItemSpacing",
            "expected an object with one of fixed, flexible; found 8"
        ),
        .init(
            J.groupKeys(#""interItemSpacing": {"fixed": "8"}"#),
            "sections[0].group.interItemSpacing.fixed",
            "expected a finite number; found \"8\""
        ),
        .init(
            J.groupKeys(#""interItemSpacing": {"fixed": 1, "flexible": 2}"#),
            "sections[0].group.interItemSpacing",
            "expected exactly one of fixed, flexible; found \"fixed\", \"flexible\""
        ),
        .init(
            J.groupKeys(#""interItemSpacing": {"min": 1}"#),
            "sections[0].group.interItemSpacing",
            "expected one of fixed, flexible; found \"min\""
        ),
        .init(
            J.groupKeys(#""edgeSpacing": {"left": {"fixed": 1}}"#),
            "sections[0].group.edgeSpacing.left",
            "unknown key \"left\"; allowed keys: leading, top, trailing, bottom"
        ),
        .init(
            J.groupKeys(#""edgeSpacing": {"top": {"flexible": 1e400}}"#),
            "sections[0].group.edgeSpacing.top.flexible",
            "expected a finite number; found a number too large to represent"
        ),
        .init(
            J.groupKeys(#""edgeSpacing": {"bottom": 4}"#),
            "sections[0].group.edgeSpacing.bottom",
            "expected an object with one of fixed, flexible; found 4"
        ),
        .init(
            J.groupKeys(#""contentInsets": {"leading": []}"#),
            "sections[0].group.contentInsets.leading",
            "expected a finite number; found an empty array"
        ),
        // Sizes and dimensions.
        .init(
            J.itemSize(#"{"width": {"absolute": 0}, "height": {"absolute": 1}}"#),
            "\(item0).size.width.absolute",
            "expected a number greater than 0; found 0"
        ),
        .init(
            J.itemSize(#"{"width": {"absolute": 1}, "height": {"estimated": -5}}"#),
            "\(item0).size.height.estimated",
            "expected a number greater than 0; found -5"
        ),
        .init(
            J.itemSize(#"{"width": {"fractionalWidth": -0.0}, "height": {"absolute": 1}}"#),
            "\(item0).size.width.fractionalWidth",
            "expected a number greater than 0; found 0"
        ),
        .init(
            J.itemSize(#"{"width": {"fractionalHeight": 1e400}, "height": {"absolute": 1}}"#),
            "\(item0).size.width.fractionalHeight",
            "expected a finite number; found a number too large to represent"
        ),
        .init(
            J.itemSize(#"{"width": {"absolute": "44"}, "height": {"absolute": 1}}"#),
            "\(item0).size.width.absolute",
            "expected a finite number; found \"44\""
        ),
        .init(
            J.itemSize(#"{"width": {}, "height": {"absolute": 1}}"#),
            "\(item0).size.width",
            "expected exactly one of \(dims); found an empty object"
        ),
        .init(
            J.itemSize(#"{"width": 44, "height": {"absolute": 1}}"#),
            "\(item0).size.width",
            "expected an object with one of \(dims); found 44"
        ),
        .init(
            J.itemSize(#"{"width": {"absolute": 1, "estimated": 2}, "height": {"absolute": 1}}"#),
            "\(item0).size.width",
            "expected exactly one of \(dims); found \"absolute\", \"estimated\""
        ),
        .init(J.itemSize(#"{"width": {"absolute": 1}}"#), "\(item0).size", "missing required key \"height\""),
        .init(J.itemSize(#"{"height": {"absolute": 1}}"#), "\(item0).size", "missing required key \"width\""),
        .init(
            J.itemSize(#"{"width": {"absolute": 1}, "height": {"absolute": 1}, "depth": {"absolute": 1}}"#),
            "\(item0).size.depth",
            "unknown key \"depth\"; allowed keys: width, height"
        ),
        .init(J.itemSize(#"[1, 2]"#), "\(item0).size", "expected an object; found an array"),
        // Items.
        .init(J.itemBody("{}"), item0, "missing required key \"size\""),
        .init(J.itemBody("[]"), item0, "expected an object; found an empty array"),
        .init(
            J.itemKeys(#""insets": {}"#),
            "\(item0).insets",
            "unknown key \"insets\"; allowed keys: size, contentInsets, edgeSpacing, supplementaryItems"
        ),
        .init(
            J.itemKeys(#""contentInsets": {"bottom": false}"#),
            "\(item0).contentInsets.bottom",
            "expected a finite number; found false"
        ),
        .init(
            J.itemKeys(#""edgeSpacing": {"leading": {"fixed": null}}"#),
            "\(item0).edgeSpacing.leading.fixed",
            "expected a finite number; found null"
        ),
        .init(
            J.itemKeys(#""supplementaryItems": {}"#),
            "\(item0).supplementaryItems",
            "expected an array; found an empty object"
        ),
        // Badges and anchors.
        .init(
            J.badge(#""elementKind": 1, "size": \#(J.size), "anchor": \#(J.badgeAnchor)"#),
            "\(item0).supplementaryItems[0].elementKind",
            "expected a string; found 1"
        ),
        .init(
            J.badge(#""elementKind": "b", "anchor": \#(J.badgeAnchor)"#),
            "\(item0).supplementaryItems[0]",
            "missing required key \"size\""
        ),
        .init(
            J.badge(#""elementKind": "b", "size": \#(J.size), "anchor": \#(J.badgeAnchor), "alignment": "top""#),
            "\(item0).supplementaryItems[0].alignment",
            "unknown key \"alignment\"; allowed keys: elementKind, size, anchor, itemAnchor, zIndex"
        ),
        .init(
            J.badge(#""elementKind": "b", "size": \#(J.size), "anchor": \#(J.badgeAnchor), "zIndex": 2147483647"#),
            "\(item0).supplementaryItems[0].zIndex",
            "expected an integer from -2147483648 to 2147483646; found 2147483647"
        ),
        .init(
            J.badge(#""elementKind": "b", "size": \#(J.size), "anchor": {}"#),
            "\(item0).supplementaryItems[0].anchor",
            "missing required key \"edges\""
        ),
        .init(
            J.badge(#""elementKind": "b", "size": \#(J.size), "anchor": {"edges": "top"}"#),
            "\(item0).supplementaryItems[0].anchor.edges",
            "expected an array; found \"top\""
        ),
        .init(
            J.badge(#""elementKind": "b", "size": \#(J.size), "anchor": {"edges": ["top", "center"]}"#),
            "\(item0).supplementaryItems[0].anchor.edges[1]",
            "expected one of top, leading, bottom, trailing; found \"center\""
        ),
        .init(
            J.badge(#""elementKind": "b", "size": \#(J.size), "anchor": {"edges": [1]}"#),
            "\(item0).supplementaryItems[0].anchor.edges[0]",
            "expected one of top, leading, bottom, trailing; found 1"
        ),
        .init(
            J.badge(#""elementKind": "b", "size": \#(J.size), "anchor": {"edges": ["top", "top"]}"#),
            "\(item0).supplementaryItems[0].anchor.edges[1]",
            "duplicate edge \"top\""
        ),
        .init(
            J.badge(#""elementKind": "b", "size": \#(J.size), "anchor": {"edges": ["top", "trailing", "bottom"]}"#),
            "\(item0).supplementaryItems[0].anchor.edges[2]",
            "\"bottom\" contradicts \"top\"; an anchor takes at most one edge per axis"
        ),
        .init(
            J.badge(#""elementKind": "b", "size": \#(J.size), "anchor": {"edges": ["trailing", "leading"]}"#),
            "\(item0).supplementaryItems[0].anchor.edges[1]",
            "\"leading\" contradicts \"trailing\"; an anchor takes at most one edge per axis"
        ),
        .init(
            J.badge(#""elementKind": "b", "size": \#(J.size), "anchor": {"edges": [], "absoluteOffset": {"z": 1}}"#),
            "\(item0).supplementaryItems[0].anchor.absoluteOffset.z",
            "unknown key \"z\"; allowed keys: x, y"
        ),
        .init(
            J.badge(
                #""elementKind": "b", "size": \#(J.size), "anchor": {"edges": [], "fractionalOffset": {"x": "a"}}"#
            ),
            "\(item0).supplementaryItems[0].anchor.fractionalOffset.x",
            "expected a finite number; found \"a\""
        ),
        .init(
            J.badge(#""elementKind": "b", "size": \#(J.size), "anchor": {"edges": [], "offset": {}}"#),
            "\(item0).supplementaryItems[0].anchor.offset",
            "unknown key \"offset\"; allowed keys: edges, absoluteOffset, fractionalOffset"
        ),
        // Boundary supplementaries.
        .init(
            J.section(#""boundarySupplementaryItems": {}"#),
            "sections[0].boundarySupplementaryItems",
            "expected an array; found an empty object"
        ),
        .init(
            J.boundary(#""elementKind": "", "size": \#(J.size), "alignment": "top""#),
            "sections[0].boundarySupplementaryItems[0].elementKind",
            "expected a non-empty string; found \"\""
        ),
        .init(
            J.boundary(#""elementKind": "h", "size": \#(J.size), "alignment": "center""#),
            "sections[0].boundarySupplementaryItems[0].alignment",
            "expected one of \(alignments); found \"center\""
        ),
        .init(
            J.boundary(#""elementKind": "h", "size": \#(J.size), "alignment": "top", "offset": {"x": null}"#),
            "sections[0].boundarySupplementaryItems[0].offset.x",
            "expected a finite number; found null"
        ),
        .init(
            J.boundary(#""elementKind": "h", "size": \#(J.size), "alignment": "top", "extendsBoundary": 1"#),
            "sections[0].boundarySupplementaryItems[0].extendsBoundary",
            "expected true or false; found 1"
        ),
        .init(
            J.boundary(#""elementKind": "h", "size": \#(J.size), "alignment": "top", "pinToVisibleBounds": "true""#),
            "sections[0].boundarySupplementaryItems[0].pinToVisibleBounds",
            "expected true or false; found \"true\""
        ),
        .init(
            J.boundary(#""elementKind": "h", "size": \#(J.size), "alignment": "top", "zIndex": -2147483649"#),
            "sections[0].boundarySupplementaryItems[0].zIndex",
            "expected an integer from -2147483648 to 2147483646; found -2147483649"
        ),
        .init(
            J.boundary(#""elementKind": "h", "size": \#(J.size), "alignment": "top", "contentInsets": {"top": "1"}"#),
            "sections[0].boundarySupplementaryItems[0].contentInsets.top",
            "expected a finite number; found \"1\""
        ),
        .init(
            J.boundary(#""elementKind": "h", "size": \#(J.size), "alignment": "top", "pin": true"#),
            "sections[0].boundarySupplementaryItems[0].pin",
            "unknown key \"pin\"; allowed keys: elementKind, size, alignment, offset, extendsBoundary, pinToVisibleBounds, zIndex, contentInsets"
        ),
        .init(
            J.boundary(
                #""elementKind": "h", "size": {"width": {"fractional": 1}, "height": {"absolute": 1}}, "alignment": "top""#
            ),
            "sections[0].boundarySupplementaryItems[0].size.width",
            "expected one of \(dims); found \"fractional\""
        ),
        // Long and odd strings in messages are escaped and cut.
        .init(
            J.section(#""orthogonalScrollingBehavior": "a\"b\n\u00e9😀 0123456789012345678901234567890123456789""#),
            "sections[0].orthogonalScrollingBehavior",
            #"expected one of \#(behaviors); found "a\"b\né😀 012345678901234567890123456789012"…"#
        ),
        // Limits.
        .init(
            J.nestedGroups(depth: LayoutLimits.maxGroupDepth + 1),
            "sections[0].group" + String(repeating: ".subitems[0].group", count: LayoutLimits.maxGroupDepth),
            "group nesting depth 33 exceeds the limit of 32"
        ),
        .init(
            #"{"sections": [\#((0...LayoutLimits.maxSections).map { #"{"id": "s\#($0)"}"# }.joined(separator: ","))]}"#,
            "sections",
            "1001 sections exceed the limit of 1000"
        ),
    ]

    @Test("reports the path and what was expected", arguments: errorCases)
    func errors(_ c: ErrorCase) {
        #expect(throws: LayoutSpecError(path: c.path, reason: c.reason)) {
            try decode(c.json)
        }
    }

    @Test("prints the contract's example error in one line")
    func exampleDescription() {
        let error = LayoutSpecError(
            path: "sections[1].group.subitems[0].size.width",
            reason: "expected one of fractionalWidth, fractionalHeight, absolute, estimated; found \"fractional\""
        )
        #expect(
            error.description
                == "sections[1].group.subitems[0].size.width: expected one of fractionalWidth, fractionalHeight, absolute, estimated; found \"fractional\""
        )
        #expect(
            LayoutSpecError(path: "", reason: "missing required key \"sections\"").description
                == "$: missing required key \"sections\""
        )
    }

    @Test("reports JSON syntax errors with line and column before anything else")
    func syntaxErrorsFirst() {
        let json = "{\n  \"sections\": [\n    {\"id\": \"s\",}\n  ]\n}"
        #expect(throws: LayoutSpecError(path: "", line: 3, column: 16, reason: "trailing comma before '}'")) {
            try decode(json)
        }
        #expect(throws: LayoutSpecError(path: "", line: 1, column: 15, reason: "invalid UTF-8 byte 0xFF")) {
            try LayoutSpec(json: Array(#"{"sections": ""#.utf8) + [0xFF] + Array(#""}"#.utf8))
        }
    }
}

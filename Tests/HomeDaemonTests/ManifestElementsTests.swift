import Foundation
import HomeDaemon
import HomeLayout
import Testing

/// Element ids, sizing, the platform and group supplementaries in the manifest, and the
/// changes between two versions.
@Suite struct ManifestElementsTests {
    let environment = LayoutEnvironment(width: 375, height: 812, scale: 2)

    func build(_ spec: LayoutSpec, _ content: HomeContent, sizes: TargetSizes = .none) throws -> EncodedManifest {
        try ManifestBuilder.build(
            spec: spec,
            sections: HomeAssembler.assemble(
                sectionIDs: spec.sections.map(\.id),
                content: content,
                bindings: SectionBinding.defaults
            ),
            environment: environment,
            version: 1,
            profile: "phone",
            generatedAt: Date(timeIntervalSince1970: 0),
            measurements: sizes
        )
    }

    func object(_ manifest: EncodedManifest) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(manifest.bytes)) as? [String: Any])
    }

    /// `userHistory` with an estimated header and footer, two estimated rows, a badge on each
    /// row and a group supplementary of kind `header` (not a boundary item).
    static let spec: LayoutSpec = {
        var row = LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .estimated(30)))
        row.supplementaryItems = [
            ItemSupplementary(
                elementKind: "badge",
                size: LayoutSize(width: .absolute(10), height: .absolute(10)),
                anchor: SupplementaryAnchor(edges: [.top, .trailing])
            )
        ]
        var group = LayoutGroup.vertical(
            LayoutSize(width: .fractionalWidth(1), height: .estimated(60)),
            [.item(row), .item(row)]
        )
        group.supplementaryItems = [
            ItemSupplementary(
                elementKind: "header",
                size: LayoutSize(width: .absolute(20), height: .absolute(20)),
                anchor: SupplementaryAnchor(edges: [.leading])
            )
        ]
        var section = LayoutSection(id: "userHistory", group: group)
        section.boundarySupplementaryItems = [
            BoundarySupplementaryItem(
                elementKind: "footer",
                size: LayoutSize(width: .fractionalWidth(1), height: .estimated(20)),
                alignment: .bottom
            )
        ]
        return LayoutSpec(configuration: LayoutConfiguration(platform: .ios14), sections: [section])
    }()

    @Test("supplementaries carry ids and sizing; a group supplementary of kind header is not the header")
    func ids() throws {
        let root = try object(try build(Self.spec, HomeAssemblerTests.content))
        #expect(root["platform"] as? String == "ios14")
        let section = try #require((root["sections"] as? [[String: Any]])?.first)
        // No boundary header: the group supplementary stays among the supplementaries.
        #expect(section["header"] is NSNull)
        let footer = try #require(section["footer"] as? [String: Any])
        #expect(footer["id"] as? String == "footer:userHistory")
        #expect(footer["sizing"] as? String == "estimated")
        let supplementaries = try #require(section["supplementaries"] as? [[String: Any]])
        #expect(
            supplementaries.compactMap { $0["id"] as? String } == [
                "badge:badge:history:9", "badge:badge:history:8", "group:userHistory:0:header",
            ]
        )
        #expect(supplementaries.map { $0["sizing"] as? String } == ["fixed", "fixed", "fixed"])
        #expect(supplementaries.last?["group"] as? Int == 0)
        let items = try #require(section["items"] as? [[String: Any]])
        #expect(items.map { $0["sizing"] as? String } == ["estimated", "estimated"])
    }

    @Test("measured sizes apply by element id; a measured footer grows")
    func measuredByID() throws {
        let content = HomeAssemblerTests.content
        let plain = try build(Self.spec, content)
        let container = try #require(plain.containerFingerprint)
        func entry(_ height: Double, _ fingerprint: UInt64, in container: UInt64 = container) -> [SizeEntry] {
            [
                SizeEntry(
                    source: .reported,
                    width: nil,
                    height: height,
                    fingerprint: fingerprint,
                    containerFingerprint: container,
                    reportedAt: Date()
                )
            ]
        }
        let rowFingerprint = try #require(plain.elements?["history:8"]?.fingerprint)
        let footerFingerprint = try #require(plain.elements?["footer:userHistory"]?.fingerprint)
        let rowNineFingerprint = try #require(plain.elements?["history:9"]?.fingerprint)
        let sizes = TargetSizes(entries: [
            "history:8": entry(50, rowFingerprint), "footer:userHistory": entry(44, footerFingerprint),
            // Measured for other content, or in another container: stale, not applied.
            "history:9": entry(90, rowFingerprint &+ 1) + entry(70, rowNineFingerprint, in: container &+ 1),
        ])
        let measured = try build(Self.spec, content, sizes: sizes)
        let elements = try #require(measured.elements)
        // Rows 30 (stale measurement ignored) and 50: the second row stays at y 30; the footer
        // follows the content: 30 + 50 = 80, and is 44 tall.
        #expect(elements["history:9"]?.frame == Rect(x: 0, y: 0, width: 375, height: 30))
        #expect(elements["history:8"]?.frame == Rect(x: 0, y: 30, width: 375, height: 50))
        #expect(elements["footer:userHistory"]?.frame == Rect(x: 0, y: 80, width: 375, height: 44))
        #expect(elements.geometry != plain.elements?.geometry)
        #expect(elements["history:9"]?.measurable == .height)
    }

    @Test("changes: inserted, deleted, moved and updated ids between two versions")
    func changes() throws {
        var content = HomeAssemblerTests.content
        let old = try #require(try build(Self.spec, content).elements)
        // A new event on top (inserted: it pushes history:9 down to row 1, moved), history:9
        // renamed (updated), history:8 gone (deleted).
        content.history.insert(
            HistoryEntry(id: 10, title: "메일", at: Date(timeIntervalSince1970: 1_800_000_100)),
            at: 0
        )
        content.history[1].title = "도서관 좌석 예약 변경"
        content.history.removeLast()
        let new = try #require(try build(Self.spec, content).elements)
        let changes = new.changes(since: old)
        // history:10 and its badge are new, history:8 and its badge are gone; history:9 moved
        // from row 0 to row 1 and its title changed (its badge's fingerprint follows the item).
        #expect(changes.inserted == ["badge:badge:history:10", "history:10"])
        #expect(changes.deleted == ["badge:badge:history:8", "history:8"])
        #expect(changes.moved == ["badge:badge:history:9", "history:9"])
        #expect(changes.updated == ["badge:badge:history:9", "history:9"])
    }
}

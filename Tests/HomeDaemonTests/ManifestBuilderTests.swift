import Foundation
import HomeDaemon
import HomeLayout
import Testing

@Suite struct ManifestBuilderTests {
    let spec: LayoutSpec

    init() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("feeds/layout.json")
        spec = try LayoutSpec(json: try Data(contentsOf: url))
    }

    func build(_ content: HomeContent, version: Int = 1, at time: Double = 1_800_000_000) throws -> EncodedManifest {
        let sections = HomeAssembler.assemble(
            sectionIDs: spec.sections.map(\.id),
            content: content,
            bindings: SectionBinding.defaults
        )
        return try ManifestBuilder.build(
            spec: spec,
            sections: sections,
            environment: LayoutEnvironment(width: 375, height: 812, scale: 3),
            version: version,
            profile: "phone",
            generatedAt: Date(timeIntervalSince1970: time)
        )
    }

    func object(_ manifest: EncodedManifest) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(manifest.bytes)) as? [String: Any])
    }

    @Test("the manifest carries schema, version, etag, time, container and laid-out sections with content")
    func shape() throws {
        let manifest = try build(HomeAssemblerTests.content, version: 7)
        let root = try object(manifest)
        #expect(root["schema"] as? String == "homefeed.manifest/1")
        #expect(root["version"] as? Int == 7)
        #expect(root["etag"] as? String == manifest.etag)
        #expect(root["generatedAt"] as? String == "2027-01-15T08:00:00Z")
        #expect(root["profile"] as? String == "phone")
        let layout = root
        #expect(layout["container"] as? [String: Double] == ["width": 375, "height": 812, "scale": 3])
        let sections = try #require(layout["sections"] as? [[String: Any]])
        #expect(sections.count == 4)
        let header = try #require(sections[0]["header"] as? [String: Any])
        #expect((header["content"] as? [String: String])?["title"] == "김홈피드")
        let items = try #require(sections[1]["items"] as? [[String: Any]])
        #expect(items.map { $0["slot"] as? Int } == [0, 1, 2, 3])
        #expect(items.map { $0["kind"] as? String } == ["notice", "service", "service", "service"])
        // At 3x, 0.5 × 335 = 167.5 floors to 502/3 = 167.333…; minus the 6-pt inset.
        let width = try #require((items[1]["frame"] as? [String: Double])?["width"])
        #expect(abs(width - (502.0 / 3 - 6)) < 1e-9)
        // The hidden otherService section has no items and no frame height.
        #expect((sections[2]["items"] as? [Any])?.isEmpty == true)
        #expect(sections[3]["header"] is [String: Any])
    }

    @Test("the etag follows content, not version or time")
    func etag() throws {
        let a = try build(HomeAssemblerTests.content, version: 1, at: 0)
        let b = try build(HomeAssemblerTests.content, version: 2, at: 100)
        #expect(a.etag == b.etag)
        #expect(a.bytes != b.bytes)
        var changed = HomeAssemblerTests.content
        changed.history[0].title = "changed"
        #expect(try build(changed).etag != a.etag)
    }

    @Test("encoding is deterministic")
    func deterministic() throws {
        #expect(try build(HomeAssemblerTests.content).bytes == build(HomeAssemblerTests.content).bytes)
    }
}

import Foundation
import HomeLayout
import Testing
import ThumbnailProtocol

@testable import HomeDaemon

/// Images beside self-sizing and `changes`: what an item's picture does to its content
/// fingerprint (which keeps measurements valid) and to `changes.updated`.
@Suite struct ImageSizingTests {
    let spec: LayoutSpec
    static let phone = LayoutEnvironment(width: 375, height: 812, scale: 3)
    static let notice = ImageSubject.image(url: ManifestImageTests.noticeImage, source: nil)

    init() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("feeds/layout.json")
        spec = try LayoutSpec(json: try Data(contentsOf: url))
    }

    /// The manifest of `ManifestImageTests.content` with images boxed by the items' frames (no
    /// `image-size`).
    func build(_ index: ImageIndex, sizes: TargetSizes = .none) throws -> EncodedManifest {
        let bindings = SectionBinding.defaults.map { binding in
            var binding = binding
            binding.image = ImageSlot()
            return binding
        }
        return try ManifestBuilder.build(
            spec: spec,
            sections: HomeAssembler.assemble(
                sectionIDs: spec.sections.map(\.id),
                content: ManifestImageTests.content,
                bindings: bindings
            ),
            environment: Self.phone,
            version: 1,
            profile: "phone",
            generatedAt: Date(timeIntervalSince1970: 1_800_000_000),
            measurements: sizes,
            images: index
        )
    }

    /// The id of the one notice item.
    func noticeID(_ manifest: EncodedManifest) throws -> String {
        try #require(manifest.elements?.elements.first { $0.id.hasPrefix("notice:") }).id
    }

    /// The fingerprint as it was before images existed: FNV-1a over kind, title, subtitle, link,
    /// date, source and icon, each a presence byte, its UTF-8 and 0xFF (`ContentFingerprint`).
    static func fingerprintWithoutImage(_ content: ItemContent) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for field in [content.kind, content.title, content.subtitle, content.link, nil, content.source, content.icon] {
            let bytes: [UInt8] = field.map { [1] + Array($0.utf8) + [0xFF] } ?? [0]
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        return hash
    }

    @Test("content without an image keeps its stored fingerprint; an image URL changes it")
    func fingerprints() {
        let plain = ItemContent(kind: "notice", id: "n", title: "N", link: "https://example.test/n", source: "S")
        #expect(ContentFingerprint.of(plain) == Self.fingerprintWithoutImage(plain))
        var pictured = plain
        pictured.image = Self.notice
        var other = plain
        other.image = .image(url: "https://example.test/other.png", source: nil)
        let values = Set([plain, pictured, other].map { ContentFingerprint.of($0) })
        #expect(values.count == 3)
        // The document an image came from is not part of what is shown.
        var elsewhere = pictured
        elsewhere.image?.source = "https://example.test/other.xml"
        #expect(ContentFingerprint.of(elsewhere) == ContentFingerprint.of(pictured))
    }

    @Test("a rendition becoming ready lists the item as updated and leaves its measurement valid")
    func readyRendition() throws {
        let before = try build(.empty)
        let id = try noticeID(before)
        let element = try #require(before.elements?[id])
        // The headline notice is 335 × 25 points; a client measures 45.
        #expect(element.frame.height == 25 && element.measurable.contains(.height))
        let sizes = TargetSizes(entries: [
            id: [
                SizeEntry(
                    source: .reported,
                    width: nil,
                    height: 45,
                    fingerprint: element.fingerprint,
                    containerFingerprint: before.containerFingerprint,
                    reportedAt: Date(timeIntervalSince1970: 1_800_000_000)
                )
            ]
        ])
        let measured = try build(.empty, sizes: sizes)
        // Its box follows the measured frame: 335 × 45 points at 3x = 1005 × 135 pixels.
        let key = ImageIndex.RenditionKey(width: 1005, height: 135, mode: .fill)
        #expect(measured.imageRequirements.map(\.key).contains(key))
        let ready = ImageIndex(entries: [
            Self.notice.key: .init(
                averageColor: "#102030",
                renditions: [key: .init(url: "file:///cache/n.webp", pixelWidth: 1005, pixelHeight: 135)]
            )
        ])
        let shown = try build(ready, sizes: sizes)
        let after = try #require(shown.elements?[id])
        #expect(after.frame.height == 45)
        #expect(after.fingerprint == element.fingerprint)
        #expect(after.picture != nil && measured.elements?[id]?.picture == nil)
        let changes = try #require(shown.elements).changes(since: try #require(measured.elements))
        #expect(changes.updated == [id])
        #expect(changes.moved.isEmpty && changes.inserted.isEmpty && changes.deleted.isEmpty)
    }
}

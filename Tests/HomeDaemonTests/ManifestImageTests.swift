import Foundation
import HomeLayout
import Testing
import ThumbnailProtocol

@testable import HomeDaemon

/// `content.image` in the manifest: the rendition of each item's pixel box when ready, the
/// average colour alone before, nothing before that; and the boxes a version needs.
@Suite struct ManifestImageTests {
    let spec: LayoutSpec
    static let phone = LayoutEnvironment(width: 375, height: 812, scale: 3)
    static let noticeImage = "https://example.test/n.png"
    static let icon = "https://example.test/icon.png"

    init() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("feeds/layout.json")
        spec = try LayoutSpec(json: try Data(contentsOf: url))
    }

    /// One notice with an image; main-service links with an icon, on their page, and none.
    static let content = HomeContent(
        user: UserProfile(name: "u"),
        notices: [Notice(sourceURL: "file:///n.xml", entryID: "1", title: "N", imageURL: noticeImage)],
        services: [
            "main-service": [
                ServiceLink(title: "icon", url: "https://example.test/a", icon: icon),
                ServiceLink(title: "page", url: "https://example.test/b"),
                ServiceLink(title: "local", url: "file:///x"),
            ]
        ]
    )

    func build(
        _ index: ImageIndex,
        slot: ImageSlot = ImageSlot(width: 48, height: 48),
        profile: String? = "phone",
        environment: LayoutEnvironment = ManifestImageTests.phone
    ) throws -> (manifest: EncodedManifest, items: [[String: Any]]) {
        let bindings = SectionBinding.defaults.map { binding in
            var binding = binding
            binding.image = slot
            return binding
        }
        let sections = HomeAssembler.assemble(
            sectionIDs: spec.sections.map(\.id),
            content: Self.content,
            bindings: bindings
        )
        let manifest = try ManifestBuilder.build(
            spec: spec,
            sections: sections,
            environment: environment,
            version: 1,
            profile: profile,
            generatedAt: Date(timeIntervalSince1970: 1_800_000_000),
            images: index
        )
        let root = try #require(try JSONSerialization.jsonObject(with: Data(manifest.bytes)) as? [String: Any])
        let main = try #require((root["sections"] as? [[String: Any]])?.first { $0["id"] as? String == "mainService" })
        return (manifest, try #require(main["items"] as? [[String: Any]]))
    }

    func image(_ item: [String: Any]) -> [String: Any]? {
        (item["content"] as? [String: Any])?["image"] as? [String: Any]
    }

    /// 48 points at 3x: a 144 × 144 box.
    static let box = 144

    @Test("a ready rendition, the average colour alone, or nothing; and the boxes the version needs")
    func states() throws {
        let notice = ImageSubject.image(url: Self.noticeImage, source: nil)
        let index = ImageIndex(entries: [
            notice.key: .init(
                averageColor: "#112233",
                renditions: [
                    .init(width: Self.box, height: Self.box, mode: .fill): .init(
                        url: "file:///cache/n-144.webp",
                        pixelWidth: 144,
                        pixelHeight: 144
                    )
                ]
            ),
            ImageSubject.image(url: Self.icon, source: nil).key: .init(averageColor: "#445566"),
        ])
        let (manifest, items) = try build(index)
        #expect(items.map { $0["kind"] as? String } == ["notice", "service", "service", "service"])
        let ready = try #require(image(items[0]))
        #expect(ready["url"] as? String == "file:///cache/n-144.webp")
        #expect(ready["pixelWidth"] as? Int == 144 && ready["pixelHeight"] as? Int == 144)
        #expect(ready["averageColor"] as? String == "#112233")
        #expect(ready.count == 4)
        #expect(image(items[1]) as? [String: String] == ["averageColor": "#445566"])
        #expect(image(items[2]) == nil)
        #expect(image(items[3]) == nil)
        // Notices fill, links fit; the page link needs its icon too; the file: link has none.
        #expect(
            Set(manifest.imageRequirements) == [
                ImageRequirement(subject: notice, key: .init(width: Self.box, height: Self.box, mode: .fill)),
                ImageRequirement(
                    subject: .image(url: Self.icon, source: nil),
                    key: .init(width: Self.box, height: Self.box, mode: .fit)
                ),
                ImageRequirement(
                    subject: ImageSubject(kind: .page, url: "https://example.test/b"),
                    key: .init(width: Self.box, height: Self.box, mode: .fit)
                ),
            ]
        )
    }

    @Test("without image-size the box is the item's frame; image = none drops images and needs")
    func slots() throws {
        let (frameSized, _) = try build(.empty, slot: ImageSlot())
        // The headline notice's frame is 335 × 25 points at 3x: 1005 × 75 pixels.
        let noticeKey = frameSized.imageRequirements.first { $0.subject.url == Self.noticeImage }?.key
        #expect(noticeKey == .init(width: 1005, height: 75, mode: .fill))
        let (none, items) = try build(.empty, slot: ImageSlot(isEnabled: false))
        #expect(none.imageRequirements.isEmpty)
        #expect(items.allSatisfy { image($0) == nil })
    }

    @Test("an ad-hoc container takes the smallest covering rendition of the same mode, and needs nothing")
    func adHoc() throws {
        let notice = ImageSubject.image(url: Self.noticeImage, source: nil)
        func ready(_ side: Int) -> ImageIndex.Ready {
            .init(url: "file:///n-\(side)", pixelWidth: side, pixelHeight: side)
        }
        let index = ImageIndex(entries: [
            notice.key: .init(renditions: [
                .init(width: 96, height: 96, mode: .fill): ready(96),
                .init(width: 192, height: 192, mode: .fill): ready(192),
                .init(width: 288, height: 288, mode: .fill): ready(288),
                .init(width: 150, height: 150, mode: .fit): ready(150),
            ])
        ])
        // 48 points at 3.5x = 168 pixels: 192 is the smallest fill box that covers it.
        let (manifest, items) = try build(
            index,
            profile: nil,
            environment: LayoutEnvironment(width: 375, height: 812, scale: 3.5)
        )
        #expect(image(items[0])?["url"] as? String == "file:///n-192")
        #expect(manifest.imageRequirements.isEmpty)
        // At 10x (480 pixels) none covers: the largest.
        let (_, large) = try build(
            index,
            profile: nil,
            environment: LayoutEnvironment(width: 375, height: 812, scale: 10)
        )
        #expect(image(large[0])?["url"] as? String == "file:///n-288")
    }

    @Test("an image becoming ready changes the etag")
    func etag() throws {
        let notice = ImageSubject.image(url: Self.noticeImage, source: nil)
        let before = try build(.empty).manifest.etag
        let after = try build(ImageIndex(entries: [notice.key: .init(averageColor: "#000000")])).manifest.etag
        #expect(before != after)
    }
}

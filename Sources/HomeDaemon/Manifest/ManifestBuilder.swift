public import Foundation
public import HomeLayout

/// One manifest, encoded once and served as bytes (architecture.md "Manifest").
public struct EncodedManifest: Sendable, Equatable {
    public var version: Int
    /// Changes exactly when the manifest's content or geometry does (not with `version` or
    /// `generatedAt` alone), so `ifNoneMatch` saves a transfer after a no-op reload.
    public var etag: String
    public var environment: LayoutEnvironment
    /// The manifest JSON (compact, deterministic key order).
    public var bytes: [UInt8]
    /// The renditions this manifest's items need (made or not); not persisted.
    public var imageRequirements: [ImageRequirement] = []
    /// The parameters of the `io.homefeed.GetManifest` reply carrying this manifest, encoded
    /// once here so requests and pushes only send bytes:
    /// `{"container":…,"etag":…,"manifest":<bytes>,"version":…}`.
    public var replyParameters: [UInt8]

    /// A manifest as persisted by the store (or built by ``ManifestBuilder``).
    public init(version: Int, etag: String, environment: LayoutEnvironment, bytes: [UInt8]) {
        self.version = version
        self.etag = etag
        self.environment = environment
        self.bytes = bytes
        self.replyParameters = Self.parameters(version: version, etag: etag, environment: environment, manifest: bytes)
    }

    /// The reply parameters without the manifest (the client's `ifNoneMatch` matched).
    public var unchangedReplyParameters: [UInt8] {
        Self.parameters(version: version, etag: etag, environment: environment, manifest: nil)
    }

    static func parameters(version: Int, etag: String, environment: LayoutEnvironment, manifest: [UInt8]?) -> [UInt8] {
        var writer = JSONWriter(pretty: false, capacity: (manifest?.count ?? 0) + 160)
        writer.beginObject()
        writer.key("container")
        writer.beginObject()
        writer.key("height")
        writer.number(environment.height)
        writer.key("scale")
        writer.number(environment.scale)
        writer.key("width")
        writer.number(environment.width)
        writer.endObject()
        writer.key("etag")
        writer.string(etag)
        if let manifest {
            writer.key("manifest")
            writer.raw(manifest)
        }
        writer.key("version")
        writer.int(version)
        writer.endObject()
        return writer.bytes
    }
}

/// Lays out assembled content for one container and encodes the manifest (`docs/manifest.md`).
public enum ManifestBuilder {
    public static let schema = "homefeed.manifest/1"

    /// - Parameter images: the renditions ready; a profile's manifest shows exactly its
    ///   boxes, an ad-hoc container's (no `profile`) the nearest of the same mode.
    /// - Throws: ``LayoutSolveError`` when the layout cannot be solved for this container.
    public static func build(
        spec: LayoutSpec,
        sections assembled: [AssembledSection],
        environment: LayoutEnvironment,
        version: Int,
        profile: String?,
        generatedAt: Date,
        images: ImageIndex = .empty
    ) throws(LayoutSolveError) -> EncodedManifest {
        var spec = spec
        var counts: [Int] = []
        for index in spec.sections.indices {
            let content = index < assembled.count ? assembled[index] : nil
            counts.append(content?.items.count ?? 0)
            if content?.isHidden == true { hideSupplementaries(of: &spec.sections[index]) }
        }
        let result = try LayoutSolver.solve(spec, in: environment, itemCounts: counts)

        let pictures = ManifestPictures(index: images, scale: environment.scale, nearest: profile == nil)
        var body = JSONWriter(pretty: false, capacity: 4096)
        body.beginObject()
        body.key("container")
        body.container(environment)
        body.key("contentSize")
        body.size(result.contentSize)
        body.key("sections")
        body.beginArray()
        for section in result.sections {
            body.section(
                section,
                content: section.index < assembled.count ? assembled[section.index] : nil,
                pictures: pictures
            )
        }
        body.endArray()
        body.key("globalSupplementaries")
        body.beginArray()
        for supplementary in result.globalSupplementaries { body.supplementary(supplementary, content: nil) }
        body.endArray()
        body.endObject()

        let etag = "\"" + String(StableID.hash(body.bytes), radix: 16) + "\""
        // The header members, then the body's members spliced in without re-encoding:
        // {"schema":…,"profile":…, + "container":…}.
        var manifest = JSONWriter(pretty: false, capacity: body.bytes.count + 256)
        manifest.beginObject()
        manifest.key("schema")
        manifest.string(schema)
        manifest.key("version")
        manifest.int(version)
        manifest.key("etag")
        manifest.string(etag)
        manifest.key("generatedAt")
        manifest.string(ISO8601.string(generatedAt))
        manifest.key("profile")
        manifest.string(profile)
        let bytes = manifest.bytes + [UInt8(ascii: ",")] + body.bytes.dropFirst()
        var encoded = EncodedManifest(version: version, etag: etag, environment: environment, bytes: bytes)
        encoded.imageRequirements = pictures.requirements
        return encoded
    }

    /// A hidden section keeps no header, footer or background, at any width.
    static func hideSupplementaries(of section: inout LayoutSection) {
        section.boundarySupplementaryItems = []
        section.decorationItems = []
        for index in section.variants.indices {
            if section.variants[index].overrides.boundarySupplementaryItems != nil {
                section.variants[index].overrides.boundarySupplementaryItems = []
            }
            if section.variants[index].overrides.decorationItems != nil {
                section.variants[index].overrides.decorationItems = []
            }
        }
    }
}

extension JSONWriter {
    fileprivate mutating func section(_ section: SectionLayout, content: AssembledSection?, pictures: ManifestPictures)
    {
        beginObject()
        key("id")
        string(section.id)
        key("frame")
        frame(section.frame)
        // The first boundary item of kind "header" (or "footer") is the section's header
        // (footer) and carries the header content; the rest are listed as supplementaries.
        let boundary = section.supplementaries.filter { $0.item == nil }
        let header = boundary.first { $0.elementKind == "header" }
        let footer = boundary.first { $0.elementKind == "footer" }
        key("header")
        if let header { supplementary(header, content: content?.header) } else { null() }
        key("footer")
        if let footer { supplementary(footer, content: nil) } else { null() }
        key("supplementaries")
        beginArray()
        for s in section.supplementaries where s != header && s != footer { supplementary(s, content: nil) }
        endArray()
        key("decorations")
        beginArray()
        for decoration in section.decorations { self.decoration(decoration) }
        endArray()
        key("orthogonal")
        orthogonal(section.orthogonal)
        key("items")
        beginArray()
        for (index, itemFrame) in section.itemFrames.enumerated() {
            let item = content.flatMap { index < $0.items.count ? $0.items[index] : nil }
            beginObject()
            key("id")
            string(item?.id ?? "\(section.id):\(index)")
            key("kind")
            string(item?.kind ?? "placeholder")
            key("slot")
            int(section.slotsPerGroup > 0 ? index % section.slotsPerGroup : 0)
            key("frame")
            frame(itemFrame)
            key("zIndex")
            int(section.itemZIndex)
            key("content")
            contentObject(item, picture: pictures.picture(for: item, slot: content?.imageSlot, frame: itemFrame))
            endObject()
        }
        endArray()
        endObject()
    }

    fileprivate mutating func supplementary(_ s: SupplementaryFrame, content: ItemContent?) {
        beginObject()
        key("elementKind")
        string(s.elementKind)
        if let item = s.item {
            key("item")
            int(item)
        }
        key("frame")
        frame(s.frame)
        key("zIndex")
        int(s.zIndex)
        key("pinToVisibleBounds")
        bool(s.pinToVisibleBounds)
        pinRange(s.pinRange)
        if let content {
            key("content")
            contentObject(content)
        }
        endObject()
    }

    fileprivate mutating func contentObject(_ item: ItemContent?, picture: ManifestPictures.Picture? = nil) {
        beginObject()
        if let item {
            if let title = item.title {
                key("title")
                string(title)
            }
            if let subtitle = item.subtitle {
                key("subtitle")
                string(subtitle)
            }
            if let link = item.link {
                key("link")
                string(link)
            }
            if let date = item.date {
                // A notice's date is when it was published; a history event's when it happened.
                if item.kind == "notice" { key("published") } else { key("at") }
                string(ISO8601.string(date))
            }
            if let source = item.source {
                key("source")
                string(source)
            }
            if let icon = item.icon {
                key("icon")
                string(icon)
            }
            if let picture {
                key("image")
                self.picture(picture)
            }
        }
        endObject()
    }
}

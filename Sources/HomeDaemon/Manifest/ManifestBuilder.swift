public import FoundationEssentials
public import HomeLayout
import JSONCore
public import Varlink

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
    /// The final `io.homefeed.GetManifest` reply carrying this manifest, encoded and framed
    /// once here so a call only sends bytes: `{"parameters":{"container":…,"etag":…,
    /// "manifest":<bytes>,"version":…}}`.
    public var finalReply: VarlinkEncodedReply
    /// The final reply without the manifest (the client's `ifNoneMatch` matched), made once
    /// here too: the most frequent call is answered without encoding anything.
    public var unchangedFinalReply: VarlinkEncodedReply
    /// The elements behind the bytes (ids, frames, fingerprints), for `changes` and
    /// `ReportSizes`; nil for a manifest restored from the store.
    public var elements: ManifestElements?
    /// The container it was laid out in (``ContainerFingerprint``), which the sizes reported
    /// for it are kept with; nil for a manifest restored from the store.
    public var containerFingerprint: UInt64?

    /// A manifest as persisted by the store (or built by ``ManifestBuilder``).
    public init(version: Int, etag: String, environment: LayoutEnvironment, bytes: [UInt8]) {
        self.version = version
        self.etag = etag
        self.environment = environment
        self.bytes = bytes
        let parameters = Self.parameters(version: version, etag: etag, environment: environment, manifest: bytes)
        self.finalReply = VarlinkReply(encodedParameters: parameters).framed()
        let unchanged = Self.parameters(version: version, etag: etag, environment: environment, manifest: nil)
        self.unchangedFinalReply = VarlinkReply(encodedParameters: unchanged).framed()
    }

    /// The final reply to a call with `ifNoneMatch`: without the manifest when it matches.
    public func finalReply(ifNoneMatch: String?) -> VarlinkEncodedReply {
        ifNoneMatch == etag ? unchangedFinalReply : finalReply
    }

    /// The parameters of a reply that more follow (a subscription's first one, a push),
    /// encoded when a subscription starts or a version is pushed, once per target.
    func replyParameters(ifNoneMatch: String? = nil) -> [UInt8] {
        Self.parameters(
            version: version,
            etag: etag,
            environment: environment,
            manifest: ifNoneMatch == etag ? nil : bytes
        )
    }

    /// The reply parameters with `changes` (a subscriber that asked for them, `docs/manifest.md`).
    func replyParameters(changes: [UInt8]?) -> [UInt8] {
        Self.parameters(version: version, etag: etag, environment: environment, manifest: bytes, changes: changes ?? [])
    }

    /// - Parameter changes: the encoded `changes` object; `nil` leaves the key out, empty bytes
    ///   write `null`.
    static func parameters(
        version: Int,
        etag: String,
        environment: LayoutEnvironment,
        manifest: [UInt8]?,
        changes: [UInt8]? = nil
    ) -> [UInt8] {
        var writer = JSONWriter(pretty: false, capacity: (manifest?.count ?? 0) + (changes?.count ?? 0) + 160)
        writer.beginObject()
        if let changes {
            writer.key("changes")
            if changes.isEmpty { writer.null() } else { writer.raw(changes) }
        }
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

    /// - Parameter measurements: measured sizes of this container's elements (self-sizing):
    ///   applied where the element's content still has the fingerprint they were measured for.
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
        measurements: TargetSizes = .none,
        images: ImageIndex = .empty
    ) throws(LayoutSolveError) -> EncodedManifest {
        try built(
            spec: spec,
            sections: assembled,
            environment: environment,
            version: version,
            profile: profile,
            generatedAt: generatedAt,
            measurements: measurements,
            images: images
        ).manifest
    }

    /// A built manifest, and the measurements it found stale (their element's content or
    /// container changed).
    struct Built {
        var manifest: EncodedManifest
        var stale: [(id: String, entry: SizeEntry)]
    }

    static func built(
        spec: LayoutSpec,
        sections assembled: [AssembledSection],
        environment: LayoutEnvironment,
        version: Int,
        profile: String?,
        generatedAt: Date,
        measurements: TargetSizes,
        images: ImageIndex = .empty,
        elements: ElementIndex? = nil,
        reusing solved: SolvedLayout? = nil
    ) throws(LayoutSolveError) -> Built {
        let (layout, applied) = try solve(
            spec: spec,
            sections: assembled,
            environment: environment,
            measurements: measurements,
            elements: elements,
            reusing: solved
        )
        let result = layout.result
        let pictures = ManifestPictures(index: images, scale: environment.scale, nearest: profile == nil)
        var body = ManifestBodyWriter(sources: applied.sources, truncated: applied.truncated, pictures: pictures)
        body.write(result, environment: environment, sections: assembled)

        let bodyBytes = body.json.bytes
        let etag = "\"" + String(StableID.hash(bodyBytes), radix: 16) + "\""
        // The header members, then the body's members spliced in without re-encoding:
        // {"schema":…,"profile":…, + "container":…}.
        var manifest = JSONWriter(pretty: false, capacity: 256)
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
        var bytes = manifest.bytes
        bytes.reserveCapacity(bytes.count + bodyBytes.count)
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: bodyBytes.dropFirst())
        var encoded = EncodedManifest(version: version, etag: etag, environment: environment, bytes: bytes)
        encoded.elements = body.elements
        encoded.containerFingerprint = ContainerFingerprint.of(environment, laying: spec)
        encoded.imageRequirements = pictures.requirements
        return Built(manifest: encoded, stale: applied.stale)
    }

    /// Lays assembled content out for one container with the measurements that still apply:
    /// the geometry a manifest is written from (and text is measured in).
    ///
    /// - Parameters:
    ///   - elements: the ``ElementIndex`` of `spec`'s sections and `assembled`, when the caller
    ///     lays the same content out more than once; made here otherwise.
    ///   - solved: a layout solved before, returned again (not solved anew) when everything the
    ///     solver would read now is what it read then (``SolvedLayout/Input``).
    static func solve(
        spec: LayoutSpec,
        sections assembled: [AssembledSection],
        environment: LayoutEnvironment,
        measurements: TargetSizes,
        elements: ElementIndex? = nil,
        reusing solved: SolvedLayout? = nil
    ) throws(LayoutSolveError) -> (layout: SolvedLayout, applied: AppliedMeasurements) {
        let applied =
            measurements.isEmpty
            ? AppliedMeasurements()
            : (elements ?? ElementIndex(sectionIDs: spec.sections.map(\.id), sections: assembled))
                .measurements(measurements, container: ContainerFingerprint.of(environment, laying: spec))
        // What only the solver reads: the item counts, and the spec without the supplementaries
        // of hidden sections (section ids, which the measurements are keyed by, stay).
        var spec = spec
        var counts: [Int] = []
        for index in spec.sections.indices {
            let content = index < assembled.count ? assembled[index] : nil
            counts.append(content?.items.count ?? 0)
            if content?.isHidden == true { hideSupplementaries(of: &spec.sections[index]) }
        }
        let input = SolvedLayout.Input(
            spec: spec,
            environment: environment,
            itemCounts: counts,
            measurements: applied.layout
        )
        if let solved, solved.input == input {
            return (solved, applied)
        }
        let result = try LayoutSolver.solve(spec, in: environment, itemCounts: counts, measurements: applied.layout)
        return (SolvedLayout(input: input, result: result), applied)
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
    /// An item's or header's `content`: what the client draws in it, with the item's `image`.
    mutating func contentObject(_ item: ItemContent?, picture: ManifestPictures.Picture? = nil) {
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

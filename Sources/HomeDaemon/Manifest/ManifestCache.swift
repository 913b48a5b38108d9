public import Foundation
public import HomeLayout

/// The manifests of the current version: one per configured profile, encoded once when the
/// version is made, plus a small LRU of other containers computed on first use.
///
/// Requests and pushes are served from these bytes; nothing is re-encoded per request.
/// Sendable: an actor.
public actor ManifestCache {
    /// A container asked for by size rather than by profile name.
    struct ContainerKey: Hashable {
        var width: Double
        var height: Double
        var scale: Double

        init(_ environment: LayoutEnvironment) {
            width = environment.width
            height = environment.height
            scale = environment.scale
        }
    }

    public private(set) var version: Int
    private var spec: LayoutSpec
    private var profiles: [Profile]
    private var sections: [AssembledSection] = []
    private var images = ImageIndex.empty
    private var generatedAt = Date(timeIntervalSince1970: 0)
    private var byProfile: [String: EncodedManifest] = [:]
    /// Most recently used last; at most ``lruCapacity`` entries.
    private var lru: [(key: ContainerKey, manifest: EncodedManifest)] = []
    public let lruCapacity: Int

    public init(spec: LayoutSpec, profiles: [Profile], version: Int = 0, lruCapacity: Int = 16) {
        self.spec = spec
        self.profiles = profiles
        self.version = version
        self.lruCapacity = lruCapacity
    }

    /// Seeds the cache with manifests persisted by a previous run, so a restarted daemon
    /// serves at once, before any fetch. Manifests of unknown profiles are ignored.
    public func restore(_ manifests: [String: EncodedManifest]) {
        for (name, manifest) in manifests where profiles.contains(where: { $0.name == name }) {
            byProfile[name] = manifest
            version = max(version, manifest.version)
        }
    }

    /// Makes a new version from `content` (and, on reload, a new layout, bindings and
    /// profiles), lays it out for every profile and encodes each once.
    ///
    /// Atomic: if any profile cannot be solved, nothing changes and the error is thrown.
    /// - Returns: the new version's manifests by profile name.
    @discardableResult
    public func publish(
        content: HomeContent,
        bindings: [SectionBinding],
        spec newSpec: LayoutSpec? = nil,
        profiles newProfiles: [Profile]? = nil,
        images: ImageIndex = .empty,
        at time: Date
    ) throws(LayoutSolveError) -> [String: EncodedManifest] {
        let spec = newSpec ?? self.spec
        let profiles = newProfiles ?? self.profiles
        let sections = HomeAssembler.assemble(sectionIDs: spec.sections.map(\.id), content: content, bindings: bindings)
        let next = version + 1
        var built: [String: EncodedManifest] = [:]
        for profile in profiles {
            built[profile.name] = try ManifestBuilder.build(
                spec: spec,
                sections: sections,
                environment: profile.environment,
                version: next,
                profile: profile.name,
                generatedAt: time,
                images: images
            )
        }
        self.spec = spec
        self.profiles = profiles
        self.sections = sections
        self.images = images
        self.generatedAt = time
        self.version = next
        byProfile = built
        lru.removeAll()
        return built
    }

    public var profileNames: [String] { profiles.map(\.name) }

    /// The current manifest of a configured profile, or nil for an unknown name.
    public func manifest(profile: String) -> EncodedManifest? { byProfile[profile] }

    /// The current manifest for any container: a profile with exactly this container is
    /// reused; otherwise it is computed once per version and kept in the LRU.
    public func manifest(for environment: LayoutEnvironment) throws(LayoutSolveError) -> EncodedManifest {
        if let profile = profiles.first(where: { $0.environment == environment }),
            let manifest = byProfile[profile.name]
        {
            return manifest
        }
        let key = ContainerKey(environment)
        if let index = lru.firstIndex(where: { $0.key == key }) {
            let entry = lru.remove(at: index)
            lru.append(entry)
            return entry.manifest
        }
        let manifest = try ManifestBuilder.build(
            spec: spec,
            sections: sections,
            environment: environment,
            version: version,
            profile: nil,
            generatedAt: generatedAt,
            images: images
        )
        lru.append((key, manifest))
        if lru.count > lruCapacity { lru.removeFirst(lru.count - lruCapacity) }
        return manifest
    }
}

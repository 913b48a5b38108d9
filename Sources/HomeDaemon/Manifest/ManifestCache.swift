public import FoundationEssentials
public import HomeLayout
import Synchronization
public import Varlink

/// The manifests of the current version: one per configured profile, encoded once when the
/// version is made, plus a small LRU of other containers computed on first use.
///
/// Requests and pushes are served from these bytes; nothing is re-encoded per request. The
/// profiles' manifests are also readable without a hop to the actor
/// (``servedManifest(profile:)``), so a `GetManifest` for a profile is answered on the Varlink
/// loop thread that read it. Sendable: an actor.
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
    /// The renditions the current version shows (`docs/images.md`).
    private var images = ImageIndex.empty
    private var generatedAt = Date(timeIntervalSince1970: 0)
    private var byProfile: [String: EncodedManifest] = [:]
    /// The measured sizes the current version was laid out with (self-sizing).
    private var measurements = MeasurementBook()
    /// Measurements found stale while building, not yet handed to ``takeStaleMeasurements()``.
    private var stale: [StaleMeasurement] = []
    /// Most recently used last; at most ``lruCapacity`` entries.
    private var lru: [(key: ContainerKey, manifest: EncodedManifest)] = []
    public let lruCapacity: Int
    /// `profiles` and `byProfile` as last committed, for readers on other threads.
    private let served: Mutex<ServedProfiles>
    /// Advanced with every change of `served`, under its lock: the replies of
    /// ``servedReply(profile:ifNoneMatch:)`` hold until then, and the Varlink server answers a
    /// connection's repeated `GetManifest` with the same bytes until then (``VarlinkReplyValidity``).
    private nonisolated let replyGeneration = VarlinkReplyGeneration()

    private struct ServedProfiles: Sendable {
        var names: [String]
        var manifests: [String: EncodedManifest]
        /// What ``servedReply(profile:ifNoneMatch:)`` reads, a profile's name and three
        /// references to copy out instead of a whole manifest's dozen. A list searched in
        /// order: a daemon has a handful of profiles, and comparing a name with each costs less
        /// than hashing it (issue 17).
        var replies: [ServedReplies]

        init(names: [String], manifests: [String: EncodedManifest]) {
            self.names = names
            self.manifests = manifests
            // The configured order first (the first profile is the default), then any other.
            let ordered = names.filter { manifests[$0] != nil } + manifests.keys.filter { !names.contains($0) }
            self.replies = ordered.compactMap { name in
                manifests[name].map {
                    ServedReplies(name: name, etag: $0.etag, final: $0.finalReply, unchanged: $0.unchangedFinalReply)
                }
            }
        }
    }

    private struct ServedReplies: Sendable {
        var name: String
        var etag: String
        var final: VarlinkEncodedReply
        var unchanged: VarlinkEncodedReply
    }

    public init(spec: LayoutSpec, profiles: [Profile], version: Int = 0, lruCapacity: Int = 16) {
        self.spec = spec
        self.profiles = profiles
        self.version = version
        self.lruCapacity = lruCapacity
        self.served = Mutex(ServedProfiles(names: profiles.map(\.name), manifests: [:]))
    }

    /// The current manifest of a profile (the first configured one for nil), read without
    /// waiting for the actor: what ``manifest(profile:)`` returns once pending work is done.
    ///
    /// - Returns: the profile's name, and its manifest (nil for an unknown name, or before the
    ///   first version).
    public nonisolated func servedManifest(profile: String?) -> (profile: String, manifest: EncodedManifest?) {
        served.withLock { served in
            let name = profile ?? served.names.first ?? ""
            return (name, served.manifests[name])
        }
    }

    /// The final `GetManifest` reply for a profile (the first configured one for nil) and an
    /// `ifNoneMatch`, read under the lock without copying the manifest out: the call served on
    /// the Varlink loop thread needs only these bytes.
    ///
    /// - Returns: the profile's name, and the reply (nil for an unknown name, or before the
    ///   first version) with how long it holds: until the served manifests next change.
    public nonisolated func servedReply(
        profile: String?,
        ifNoneMatch: String?
    ) -> (profile: String, reply: VarlinkEncodedReply?, validity: VarlinkReplyValidity) {
        served.withLock { served in
            let name = profile ?? served.names.first ?? ""
            let validity = replyGeneration.validity
            for replies in served.replies where replies.name == name {
                // As EncodedManifest.finalReply(ifNoneMatch:).
                return (name, ifNoneMatch == replies.etag ? replies.unchanged : replies.final, validity)
            }
            return (name, nil, validity)
        }
    }

    private func updateServed() {
        let snapshot = ServedProfiles(names: profiles.map(\.name), manifests: byProfile)
        served.withLock {
            $0 = snapshot
            replyGeneration.advance()
        }
    }

    /// Seeds the cache with manifests persisted by a previous run, so a restarted daemon
    /// serves at once, before any fetch. Manifests of unknown profiles are ignored.
    public func restore(_ manifests: [String: EncodedManifest]) {
        for (name, manifest) in manifests where profiles.contains(where: { $0.name == name }) {
            byProfile[name] = manifest
            version = max(version, manifest.version)
        }
        updateServed()
    }

    /// Makes a new version from `content` (and, on reload, a new layout, bindings and
    /// profiles), lays it out for every profile and encodes each once: ``prepare`` then
    /// ``commit(_:)`` in one step.
    ///
    /// Atomic: if any profile cannot be solved, nothing changes and the error is thrown.
    /// - Parameter measurements: the measured sizes to lay out with; `nil` keeps the current ones.
    /// - Parameter images: the renditions ready to show; `nil` keeps the current ones.
    /// - Returns: the new version's manifests by profile name.
    @discardableResult
    public func publish(
        content: HomeContent,
        bindings: [SectionBinding],
        spec newSpec: LayoutSpec? = nil,
        profiles newProfiles: [Profile]? = nil,
        measurements newMeasurements: MeasurementBook? = nil,
        images newImages: ImageIndex? = nil,
        at time: Date
    ) async throws(LayoutSolveError) -> [String: EncodedManifest] {
        let prepared = try await prepare(
            content: content,
            bindings: bindings,
            spec: newSpec,
            profiles: newProfiles,
            measurements: newMeasurements,
            images: newImages,
            at: time
        )
        commit(prepared)
        return prepared.manifests
    }

    /// Builds the next version without serving it, so the daemon can store it first and serve
    /// only what is stored: a restart then never goes back to an older version number.
    ///
    /// - Parameter measurements: the measured sizes to lay out with; `nil` keeps the current ones.
    /// - Parameter images: the renditions ready to show; `nil` keeps the current ones.
    /// - Throws: the first profile that cannot be solved; nothing changes.
    public func prepare(
        content: HomeContent,
        bindings: [SectionBinding],
        spec newSpec: LayoutSpec? = nil,
        profiles newProfiles: [Profile]? = nil,
        measurements newMeasurements: MeasurementBook? = nil,
        images newImages: ImageIndex? = nil,
        at time: Date
    ) async throws(LayoutSolveError) -> PreparedVersion {
        let spec = newSpec ?? self.spec
        do throws(ProfileSolveError) {
            return try await prepare(
                sections: HomeAssembler.assemble(
                    sectionIDs: spec.sections.map(\.id),
                    content: content,
                    bindings: bindings
                ),
                spec: spec,
                profiles: newProfiles,
                measurements: newMeasurements,
                images: newImages,
                at: time
            )
        } catch {
            throw error.error
        }
    }

    /// A layout that cannot be solved at one profile: the service names the profile (and the
    /// layout file) in its log, as a reload's trial does.
    struct ProfileSolveError: Error {
        var profile: String
        var error: LayoutSolveError
    }

    /// ``prepare(content:bindings:spec:profiles:measurements:images:at:)`` for sections already
    /// assembled for `newSpec` (or the current layout), as the service assembles them once per
    /// version for measuring text and for the manifests.
    ///
    /// The profiles are laid out and encoded concurrently, each on its own child task: they share
    /// nothing but their inputs, and a version's latency is what the `RecordHistory` caller and
    /// every subscriber wait for (issue 17). The error thrown is still the first profile's, in
    /// configuration order, with that profile's name.
    ///
    /// - Parameter elements: the ``ElementIndex`` of the spec laid out (`newSpec`, or the current
    ///   one) and `sections`, when the caller has made it already (the service, once per
    ///   version); made here otherwise.
    /// - Parameter solved: layouts already solved, by profile name (see ``SolvedLayout``): each
    ///   is used when it was solved from the input its profile's solve would get now.
    func prepare(
        sections: [AssembledSection],
        elements: ElementIndex? = nil,
        spec newSpec: LayoutSpec? = nil,
        profiles newProfiles: [Profile]? = nil,
        measurements newMeasurements: MeasurementBook? = nil,
        images newImages: ImageIndex? = nil,
        solved: [String: SolvedLayout] = [:],
        at time: Date
    ) async throws(ProfileSolveError) -> PreparedVersion {
        let spec = newSpec ?? self.spec
        let profiles = newProfiles ?? self.profiles
        let measurements = newMeasurements ?? self.measurements
        let images = newImages ?? self.images
        let next = version + 1
        let elements = elements ?? ElementIndex(sectionIDs: spec.sections.map(\.id), sections: sections)
        let results = await ProfileSolves.map(profiles) { profile in
            Result { () throws(LayoutSolveError) -> ManifestBuilder.Built in
                try ManifestBuilder.built(
                    spec: spec,
                    sections: sections,
                    environment: profile.environment,
                    version: next,
                    profile: profile.name,
                    generatedAt: time,
                    measurements: measurements.sizes(for: MeasurementTargets.profile(profile.name)),
                    images: images,
                    elements: elements,
                    reusing: solved[profile.name]
                )
            }
        }
        var built: [String: EncodedManifest] = [:]
        var stale: [StaleMeasurement] = []
        for (profile, result) in zip(profiles, results) {
            let build: ManifestBuilder.Built
            do throws(LayoutSolveError) {
                build = try result.get()
            } catch {
                throw ProfileSolveError(profile: profile.name, error: error)
            }
            let target = MeasurementTargets.profile(profile.name)
            built[profile.name] = build.manifest
            stale += build.stale.map { StaleMeasurement(target: target, id: $0.id, entry: $0.entry) }
        }
        return PreparedVersion(
            version: next,
            manifests: built,
            spec: spec,
            profiles: profiles,
            sections: sections,
            measurements: measurements,
            images: images,
            stale: stale,
            generatedAt: time
        )
    }

    /// Serves a prepared version. One prepared before another was committed is stale.
    ///
    /// - Returns: false (and nothing changes) for a stale version.
    @discardableResult
    public func commit(_ prepared: PreparedVersion) -> Bool {
        guard prepared.version == version + 1 else { return false }
        spec = prepared.spec
        profiles = prepared.profiles
        sections = prepared.sections
        measurements = prepared.measurements
        images = prepared.images
        stale += prepared.stale
        generatedAt = prepared.generatedAt
        version = prepared.version
        byProfile = prepared.manifests
        lru.removeAll()
        updateServed()
        return true
    }

    /// The measurements found stale since the last call (their element's content changed), for
    /// the service to forget.
    public func takeStaleMeasurements() -> [StaleMeasurement] {
        defer { stale = [] }
        return stale
    }

    /// Whether laying out the current version for a target with `measurements` instead of the
    /// current ones moves any frame (a `ReportSizes` that changes nothing makes no version).
    ///
    /// - Parameters:
    ///   - profile: the target's profile name, or nil for the container `environment`.
    public func changesFrames(
        profile: String?,
        environment: LayoutEnvironment,
        with measurements: MeasurementBook
    ) throws(LayoutSolveError) -> Bool {
        let current: EncodedManifest
        if let profile {
            guard let manifest = byProfile[profile] else { return true }
            current = manifest
        } else {
            current = try manifest(for: environment)
        }
        let target = profile.map(MeasurementTargets.profile) ?? MeasurementTargets.container(environment)
        let candidate = try ManifestBuilder.built(
            spec: spec,
            sections: sections,
            environment: environment,
            version: version,
            profile: profile,
            generatedAt: generatedAt,
            measurements: measurements.sizes(for: target),
            images: images
        )
        return candidate.manifest.elements?.geometry != current.elements?.geometry
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
        let target = MeasurementTargets.container(environment)
        let built = try ManifestBuilder.built(
            spec: spec,
            sections: sections,
            environment: environment,
            version: version,
            profile: nil,
            generatedAt: generatedAt,
            measurements: measurements.sizes(for: target),
            images: images
        )
        let manifest = built.manifest
        stale += built.stale.map { StaleMeasurement(target: target, id: $0.id, entry: $0.entry) }
        lru.append((key, manifest))
        if lru.count > lruCapacity { lru.removeFirst(lru.count - lruCapacity) }
        return manifest
    }
}

/// A version ``ManifestCache/prepare(content:bindings:spec:profiles:measurements:images:at:)`` built and
/// ``ManifestCache/commit(_:)`` will serve. Sendable: an immutable value.
public struct PreparedVersion: Sendable {
    public let version: Int
    /// The encoded manifest of every profile, by name.
    public let manifests: [String: EncodedManifest]
    let spec: LayoutSpec
    let profiles: [Profile]
    let sections: [AssembledSection]
    let measurements: MeasurementBook
    let images: ImageIndex
    let stale: [StaleMeasurement]
    let generatedAt: Date
}

/// A measurement whose element's content changed since it was measured.
public struct StaleMeasurement: Sendable, Equatable {
    public var target: String
    public var id: String
    public var entry: SizeEntry
}

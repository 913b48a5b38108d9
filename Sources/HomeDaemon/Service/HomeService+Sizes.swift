public import FoundationEssentials
public import HomeLayout
import HomeStore

/// Whose layout measured sizes belong to: a configured profile, or an ad-hoc container.
public enum SizeTarget: Sendable, Equatable {
    case profile(String)
    case container(LayoutEnvironment)
}

/// One element's size as a client measured it (`io.homefeed.ReportSizes`).
public struct ReportedSize: Sendable, Equatable {
    public var id: String
    public var width: Double?
    public var height: Double?

    public init(id: String, width: Double? = nil, height: Double? = nil) {
        self.id = id
        self.width = width
        self.height = height
    }
}

/// A stored measurement as `ListSizes` returns it.
public struct SizeListing: Sendable, Equatable {
    public var target: String
    public var id: String
    public var entry: SizeEntry
}

/// Why a size report (or listing, clearing) could not be carried out.
public enum SizeReportError: Error, Sendable, CustomStringConvertible {
    /// A reported size that no layout can use, or a report beyond the limits; names the id.
    case invalidSize(id: String, reason: String)
    case unknownProfile(String)
    case invalidContainer(String)
    /// The store or the new version failed (`StoreUnavailable`, `InternalError`).
    case failed(ServiceError)

    public var description: String {
        switch self {
        case .invalidSize(let id, let reason): "\(id): \(reason)"
        case .unknownProfile(let name): "no profile \(name)"
        case .invalidContainer(let reason): "invalid container: \(reason)"
        case .failed(let error): error.description
        }
    }
}

extension HomeService {
    /// A store failure as `StoreUnavailable`, anything else as `InternalError` with `reason`.
    static func serviceError(_ error: any Error, doing reason: String) -> ServiceError {
        if let error = error as? StoreError { return .storeUnavailable(error) }
        return .internalError(reason: reason, cause: "\(error)")
    }

    /// Limits of one `ReportSizes` call.
    public enum SizeLimits {
        /// Sizes in one report.
        public static let maxSizesPerReport = 1_000
        /// Bytes of one element id.
        public static let maxIDBytes = 1_024
    }

    /// Records sizes a client measured for the elements of its current manifest, and makes a
    /// new version when that moves any frame (`docs/manifest.md`, "Self-sizing").
    ///
    /// A size applies to the axes of its element that are estimated; an id that is not in the
    /// current manifest, or whose element has no estimated axis among those reported, is
    /// returned in `ignored` and not kept.
    /// - Returns: the version that shows the sizes (the current one when nothing moved).
    /// - Throws: ``SizeReportError/invalidSize(id:reason:)`` naming the first bad entry.
    public func reportSizes(_ sizes: [ReportedSize], for target: SizeTarget, at now: Date = Date())
        async throws(SizeReportError) -> (version: Int, ignored: [String])
    {
        try Self.validate(sizes)
        let (profile, environment) = try await resolve(target)
        let current = try await currentManifest(profile: profile, environment: environment)
        let key = profile.map(MeasurementTargets.profile) ?? MeasurementTargets.container(environment)
        var ignored: [String] = []
        var accepted: [(id: String, entry: SizeEntry)] = []
        for size in sizes {
            guard let element = current.elements?[size.id] else {
                ignored.append(size.id)
                continue
            }
            let width = element.measurable.contains(.width) ? size.width : nil
            let height = element.measurable.contains(.height) ? size.height : nil
            guard width != nil || height != nil else {
                ignored.append(size.id)
                continue
            }
            let entry = SizeEntry(
                source: .reported,
                width: width,
                height: height,
                fingerprint: element.fingerprint,
                containerFingerprint: current.containerFingerprint,
                reportedAt: now
            )
            accepted.append((size.id, entry))
        }
        guard !accepted.isEmpty else { return (await cache.version, ignored) }

        var candidate = measurements
        for (id, entry) in accepted { candidate.set(entry, target: key, id: id) }
        let moves: Bool
        do throws(LayoutSolveError) {
            moves = try await cache.changesFrames(profile: profile, environment: environment, with: candidate)
        } catch {
            throw .invalidContainer(error.message)
        }
        let dropped: [MeasurementKey]
        do {
            dropped = try await store.saveMeasurements(
                accepted.map {
                    StoredMeasurement(
                        target: key,
                        elementID: $0.id,
                        fingerprint: $0.entry.fingerprint,
                        containerFingerprint: $0.entry.containerFingerprint,
                        width: $0.entry.width,
                        height: $0.entry.height,
                        reportedAt: now
                    )
                }
            )
        } catch {
            throw .failed(Self.serviceError(error, doing: "cannot store measured sizes"))
        }
        // Applied to the book as it is now: another report may have changed it meanwhile.
        for (id, entry) in accepted { measurements.set(entry, target: key, id: id) }
        for key in dropped where measurements.entry(.reported, target: key.target, id: key.elementID) != nil {
            measurements.set(nil, target: key.target, id: key.elementID)
        }
        guard moves else { return (await cache.version, ignored) }
        requestPublish()
        if let failure = await awaitPublished() { throw .failed(failure) }
        return (await cache.version, ignored)
    }

    /// The measured sizes kept for a target, or for all targets, oldest first per target.
    public func listSizes(for target: SizeTarget?) async throws(SizeReportError) -> [SizeListing] {
        var only: String?
        if let target {
            let (profile, environment) = try await resolve(target)
            only = profile.map(MeasurementTargets.profile) ?? MeasurementTargets.container(environment)
        }
        var listing: [SizeListing] = []
        for (key, byID) in measurements.entries(.reported) where only == nil || key == only {
            for (id, entry) in byID { listing.append(SizeListing(target: key, id: id, entry: entry)) }
        }
        return listing.sorted { ($0.target, $0.entry.reportedAt, $0.id) < ($1.target, $1.entry.reportedAt, $1.id) }
    }

    /// Forgets the measured sizes of a target, or of all targets, and makes a new version
    /// without them when there were any.
    public func clearSizes(for target: SizeTarget?) async throws(SizeReportError) -> (cleared: Int, version: Int) {
        var key: String?
        if let target {
            let (profile, environment) = try await resolve(target)
            key = profile.map(MeasurementTargets.profile) ?? MeasurementTargets.container(environment)
        }
        let cleared: Int
        do {
            cleared = try await store.deleteMeasurements(target: key)
        } catch {
            throw .failed(Self.serviceError(error, doing: "cannot delete measured sizes"))
        }
        measurements.removeAll(.reported, target: key)
        if cleared > 0 {
            requestPublish()
            if let failure = await awaitPublished() { throw .failed(failure) }
        }
        return (cleared, await cache.version)
    }

    /// Reads the stored measurements into the book (at start-up, before the first version).
    func loadMeasurements() async throws {
        for stored in try await store.measurements() {
            measurements.set(
                SizeEntry(
                    source: .reported,
                    width: stored.width,
                    height: stored.height,
                    fingerprint: stored.fingerprint,
                    containerFingerprint: stored.containerFingerprint,
                    reportedAt: stored.reportedAt
                ),
                target: stored.target,
                id: stored.elementID
            )
        }
    }

    /// Forgets the measurements the last builds found stale: a stale height never survives new
    /// text, nor a change of its profile's container (at a reload, or a restart with another
    /// configuration). A newer report of the same element stays, in memory and in the store,
    /// even when it is stored while the stale one is being deleted.
    func forgetStaleMeasurements() async {
        var keys: [StaleMeasurementKey] = []
        for stale in await cache.takeStaleMeasurements() {
            if measurements.remove(stale.entry, target: stale.target, id: stale.id), stale.entry.source == .reported {
                keys.append(
                    StaleMeasurementKey(
                        key: MeasurementKey(target: stale.target, elementID: stale.id),
                        fingerprint: stale.entry.fingerprint,
                        containerFingerprint: stale.entry.containerFingerprint
                    )
                )
            }
        }
        guard !keys.isEmpty else { return }
        do {
            try await store.deleteMeasurements(keys)
            logger.info("forgot \(keys.count) measured sizes whose content or container changed")
        } catch {
            logger.error("cannot delete stale measured sizes: \(error)")
        }
    }

    private static func validate(_ sizes: [ReportedSize]) throws(SizeReportError) {
        if sizes.count > SizeLimits.maxSizesPerReport {
            throw .invalidSize(
                id: sizes[SizeLimits.maxSizesPerReport].id,
                reason: "more than \(SizeLimits.maxSizesPerReport) sizes in one report"
            )
        }
        var seen: Set<String> = []
        for size in sizes {
            guard !size.id.isEmpty, size.id.utf8.count <= SizeLimits.maxIDBytes else {
                throw .invalidSize(id: size.id, reason: "an id is 1 to \(SizeLimits.maxIDBytes) bytes")
            }
            guard seen.insert(size.id).inserted else { throw .invalidSize(id: size.id, reason: "reported twice") }
            guard size.width != nil || size.height != nil else {
                throw .invalidSize(id: size.id, reason: "needs a width, a height or both")
            }
            for (name, value) in [("width", size.width), ("height", size.height)] {
                guard let value else { continue }
                guard value.isFinite, value > 0, value <= LayoutLimits.maxMagnitude else {
                    let shown =
                        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)"
                    throw .invalidSize(
                        id: size.id,
                        reason: "\(name) \(shown) must be finite, greater than 0 and at most 1000000"
                    )
                }
            }
        }
    }

    /// The profile a target names (a container equal to a profile's is that profile), checked.
    private func resolve(_ target: SizeTarget) async throws(SizeReportError) -> (
        profile: String?, environment: LayoutEnvironment
    ) {
        switch target {
        case .profile(let name):
            guard let profile = configuration.settings.profiles.first(where: { $0.name == name }) else {
                throw .unknownProfile(name)
            }
            return (name, profile.environment)
        case .container(let environment):
            if let profile = configuration.settings.profiles.first(where: { $0.environment == environment }) {
                return (profile.name, environment)
            }
            return (nil, environment)
        }
    }

    private func currentManifest(profile: String?, environment: LayoutEnvironment) async throws(SizeReportError)
        -> EncodedManifest
    {
        if let profile {
            guard let manifest = await cache.manifest(profile: profile) else { throw .unknownProfile(profile) }
            return manifest
        }
        do throws(LayoutSolveError) {
            return try await cache.manifest(for: environment)
        } catch {
            throw .invalidContainer(error.message)
        }
    }
}

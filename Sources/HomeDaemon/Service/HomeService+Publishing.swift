import FoundationEssentials
import HomeLayout
import HomeStore

/// The version path of ``HomeService``: what a change asks for, how a version is made, and
/// who hears of it. ``VersionPublisher`` does the counting, waiting and telling.
extension HomeService {
    /// The version clients currently get.
    public var version: Int {
        get async { await cache.version }
    }

    /// Asks for a new version; changes that arrive while one is being made are coalesced into
    /// the next one. While the store is being refilled after a recovery, the change waits.
    public func requestPublish() {
        publisher.request()
    }

    /// Makes a version that includes every change requested so far, and waits for it.
    ///
    /// - Throws: ``ServiceError/storeUnavailable(_:)`` or ``ServiceError/internalError(reason:cause:)``
    ///   when that version could not be made; the previous one keeps serving, and the changes
    ///   are tried again (``VersionPublisher``).
    public func publishNow() async throws(ServiceError) {
        awaitingRefetch = nil
        if let failure = await publisher.publish() { throw failure }
    }

    /// Waits until the changes requested so far are published, without asking for a version.
    ///
    /// - Returns: the failure of the publication that covered them, nil when it succeeded.
    func awaitPublished() async -> ServiceError? {
        await publisher.awaitPublished()
    }

    /// Each new version number, until the service stops (the newest only, when the consumer is
    /// behind). The daemon's runner follows one to push `GetManifest` subscribers and `STATUS=`.
    public func versions() -> AsyncStream<Int> {
        publisher.versions()
    }

    /// Open ``versions()`` streams.
    public var subscriberCount: Int { publisher.subscriberCount }

    /// Makes one version: reads the store, lays out and encodes every profile's manifest, stores
    /// them in one transaction, then serves them. A failure is returned to the callers waiting
    /// on the version, and logged at `<3>` by ``versionFailed(_:retryingIn:)``; the previous
    /// version keeps serving, since a version is served only once it is stored. A layout that
    /// cannot lay out the content names the layout file, the JSON path and the profile.
    func makeVersion() async -> Result<Int, ServiceError> {
        defer { memory.workHappened() }
        // Read once, before the first await: a reload while this version is made must not filter
        // its content by one configuration and lay it out (or reuse a layout) with another.
        let configuration = self.configuration
        let spec = configuration.spec
        let settings = configuration.settings
        do {
            let content = try await snapshot(of: configuration)
            // The stored images are looked up while the text is measured.
            let images = self.images
            async let stored = images?.index(for: content) ?? .empty
            let sections = HomeAssembler.assemble(
                sectionIDs: spec.sections.map(\.id),
                content: content,
                bindings: settings.bindings
            )
            // Made once for the version: measuring text and every profile's manifest look
            // measured elements up in it.
            let elements = ElementIndex(sectionIDs: spec.sections.map(\.id), sections: sections)
            let solved = await measureText(
                spec: spec,
                settings: settings,
                sections: sections,
                elements: elements,
                at: Date()
            )
            let index = try await stored
            let prepared = try await cache.prepare(
                sections: sections,
                elements: elements,
                spec: spec,
                profiles: settings.profiles,
                measurements: measurements,
                images: index,
                solved: solved,
                at: Date()
            )
            reserve(prepared.version)
            // Stored first, in one transaction, then served: what clients get is always
            // what a restart serves again.
            try await store.saveManifests(
                prepared.manifests.map { profile, manifest in
                    StoredManifest(
                        profile: profile,
                        version: Int64(manifest.version),
                        etag: manifest.etag,
                        bytes: manifest.bytes,
                        generatedAt: Date()
                    )
                }
            )
            await cache.commit(prepared)
            await images?.needs(prepared.manifests.values.flatMap(\.imageRequirements))
            await forgetStaleMeasurements()
            health.succeeded()
            let version = await cache.version
            logger.info("published version \(version) for \(prepared.manifests.count) profiles")
            return .success(version)
        } catch {
            let failure: ServiceError
            if let error = error as? StoreError {
                health.failed(error)
                failure = .storeUnavailable(error)
            } else if let error = error as? ManifestCache.ProfileSolveError {
                failure = .contentNotLaidOut(
                    ConfigError(
                        file: configuration.layoutURL.path,
                        unsolvable: error.error,
                        context: "at profile \(error.profile), with the content stored now"
                    )
                )
            } else {
                failure = .internalError(reason: "cannot make a new version", cause: "\(error)")
            }
            return .failure(failure)
        }
    }

    /// Logs a version that failed at `<3>`, with when its changes are tried again
    /// (``VersionPublisher``): after `delay`, or at the next change only when it is nil (the
    /// publisher does not tell the same such failure twice in a row). The served version is
    /// stale until one succeeds (``versionRecovered(_:from:)``).
    nonisolated func versionFailed(_ failure: ServiceError, retryingIn delay: Duration?) {
        let retry = delay.map { "trying again in \($0.components.seconds) s, or at the next change" }
        logger.error("cannot publish a new version: \(failure); " + (retry ?? "trying again at the next change"))
    }

    /// Logs at `<5>` the first version made after failures: the served version is current again.
    nonisolated func versionRecovered(_ version: Int, from failure: ServiceError) {
        logger.notice("published version \(version) after failing (\(failure)); the manifests are current again")
    }

    /// Reserves `version` before it is stored and served (``VersionReservation``). A reservation
    /// that cannot be written is logged at `<4>` and the version is served all the same: only a
    /// later store that loses its manifests could then start below it.
    private func reserve(_ version: Int) {
        do throws(FileCallError) {
            try versionReservation.cover(version)
        } catch {
            logger.warning("cannot reserve version \(version): \(error)")
        }
    }

    /// Ends the hold after a store recovery: changes made meanwhile are published now.
    func releasePublication() {
        guard awaitingRefetch != nil else { return }
        awaitingRefetch = nil
        publisher.release()
    }

    /// A source's attempt ended (fetched, not modified or failed). Once every source has been
    /// attempted after a store recovery, the refilled store is published.
    func sourceAttempted(_ url: String) {
        memory.workHappened()
        guard var waiting = awaitingRefetch else { return }
        waiting.remove(url)
        awaitingRefetch = waiting
        if waiting.isEmpty {
            logger.notice("every source was fetched again after the store recovery; publishing")
            releasePublication()
        }
    }
}

import FoundationEssentials
import HomeFetch
import HomeLayout

extension HomeService {
    /// Re-reads the configuration directory. A configuration is rejected, and the current one
    /// keeps serving, when it does not validate, when its layout cannot be solved at one of its
    /// profiles with the content stored now (so its versions could never be made; nothing of it
    /// is written or applied), or when the store cannot read that content or register its
    /// sources. Once the new one is
    /// swapped in the reload has succeeded: a version the store cannot take yet is logged at
    /// `<4>` and tried again (``VersionPublisher``), and the version being served is returned.
    ///
    /// - Throws: ``ServiceError/configuration(_:)`` (logged at `<3>` here) or
    ///   ``ServiceError/storeUnavailable(_:)``, only before the swap.
    public func reload() async throws(ServiceError) -> Int {
        let next: LoadedConfiguration
        do throws(ConfigError) {
            next = try await LoadedConfiguration.load(
                directory: configuration.directory,
                credentials: configuration.credentials,
                scope: configuration.scope
            )
        } catch {
            throw rejected(error)
        }
        // Before the sources are registered: nothing is written for a configuration rejected here.
        let trial = try await self.trial(of: next)
        let states = try await withStore("cannot apply the new configuration", isWrite: true) {
            let ingestion = StoreIngestion(
                store: store,
                maxImageBytes: next.settings.images.maxImageBytes,
                maxImagePixels: next.settings.images.maxPixels
            )
            let states = try await ingestion.register(next.sources)
            _ = try await ingestion.storeListLinks(next.sources)
            return states
        }
        await scheduler.replaceSources(next.sources.sources, states: states)
        configuration = next
        // Kept layouts are reused when their input compares equal, and Swift's String equality
        // is canonical equivalence: an id re-spelled in another Unicode form compares equal but
        // is written as spelled. The trial's were solved from this configuration's own spec.
        textState.layouts = trial.layouts
        measurements.replaceAll(.computed, with: trial.computed)
        authorization.update(clientGroup: next.settings.clientGroup)
        reportClientGroup()
        images?.updateClientGroup(next.settings.clientGroup)
        do throws(ServiceError) {
            try await publishNow()
            logger.notice("configuration reloaded")
        } catch {
            logger.warning(
                "configuration reloaded; its first version is not published yet and is tried again: \(error)"
            )
        }
        return await cache.version
    }

    /// Solves `next`'s layout at each of its profiles as its first version would: with the
    /// content the store holds now, read and assembled as `next` reads it, its text measured,
    /// and the measured sizes kept. Nothing of the service's changes.
    ///
    /// The links written in `next`'s sources list stand in for the ones stored for it, since
    /// registering them comes after this: each section gets the items its first version will
    /// lay out, unless a fetch changes them meanwhile.
    ///
    /// - Throws: ``ServiceError/configuration(_:)`` naming the layout file, the JSON path and
    ///   the first profile (in configuration order) whose layout cannot be solved;
    ///   ``ServiceError/storeUnavailable(_:)`` when the store cannot be read.
    ///
    /// - Returns: each profile's layout and the text heights measured for it: the first version
    ///   of an applied configuration starts from them, so a reload that succeeds solves its
    ///   profiles no more often than any other version does.
    func trial(of next: LoadedConfiguration) async throws(ServiceError) -> MeasuredText {
        defer { memory.workHappened() }
        let stored = try await withStore("cannot read the content for the new configuration", isWrite: false) {
            try await snapshot(of: next)
        }
        let spec = next.spec
        let settings = next.settings
        let sections = HomeAssembler.assemble(
            sectionIDs: spec.sections.map(\.id),
            content: stored.withListLinks(of: next.sources),
            bindings: settings.bindings
        )
        let elements = ElementIndex(sectionIDs: spec.sections.map(\.id), sections: sections)
        var book = measurements
        // The running configuration's layouts are not reused (see reload()).
        let text = await measuredText(
            spec: spec,
            settings: settings,
            sections: sections,
            elements: elements,
            measurements: book,
            reusing: [:],
            at: Date()
        )
        book.replaceAll(.computed, with: text.computed)
        let results = await ProfileSolves.map(settings.profiles) { [book] profile in
            Result { () throws(LayoutSolveError) -> SolvedLayout in
                try ManifestBuilder.solve(
                    spec: spec,
                    sections: sections,
                    environment: profile.environment,
                    measurements: book.sizes(for: MeasurementTargets.profile(profile.name)),
                    elements: elements,
                    reusing: text.layouts[profile.name]
                ).layout
            }
        }
        var trial = text
        for (profile, result) in zip(settings.profiles, results) {
            do throws(LayoutSolveError) {
                trial.layouts[profile.name] = try result.get()
            } catch {
                throw rejected(
                    ConfigError(
                        file: next.layoutURL.path,
                        unsolvable: error,
                        context: "at profile \(profile.name), with the content stored now"
                    )
                )
            }
        }
        return trial
    }

    /// A configuration a reload does not take, logged at `<3>` (the reload's caller logs no
    /// more): the running one keeps serving.
    private func rejected(_ error: ConfigError) -> ServiceError {
        logger.error("reload rejected, keeping the running configuration: \(error)")
        return .configuration(error)
    }
}

extension HomeContent {
    /// This content with the links `list` writes itself in place of the ones stored for it: what
    /// the store holds once `list` is registered. Each section gets as many links as it will
    /// then hold; they come after other documents' links here, where the store orders a section's
    /// links by position first.
    fileprivate func withListLinks(of list: SourceList) -> HomeContent {
        var content = self
        for section in content.services.keys {
            content.services[section]?.removeAll { $0.sourceURL == list.documentURL }
        }
        for link in list.serviceLinks {
            content.services[link.section?.key ?? "", default: []].append(
                ServiceLink(title: link.title, url: link.url, icon: link.icon, sourceURL: list.documentURL)
            )
        }
        return content
    }
}

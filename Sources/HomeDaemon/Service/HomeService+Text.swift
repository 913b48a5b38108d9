import FoundationEssentials
import HomeLayout
public import TextMeasure

/// What the service remembers about measuring text between versions: the styles it last
/// checked, the warnings it logged (each once), and the layouts the last version's text was
/// measured in.
struct TextMeasuringState {
    var checkedStyles: [TextSlotStyle]?
    var warned: Set<String> = []
    /// By profile name: the next version's text is measured in the same layout, not a new
    /// solve, when nothing the solver reads has changed (``SolvedLayout``).
    var layouts: [String: SolvedLayout] = [:]
}

extension HomeService {
    /// Measures the text slots of the next version, for every profile, and puts their heights in
    /// the measurement book as computed sizes, in place of the last version's.
    ///
    /// Each profile is solved once with its current measurements to find the slots' widths (or
    /// the last version's layout is taken, when it was solved from the same input); the strings
    /// are measured on the measurer's own queue (cached by string, style and width), so
    /// neither this actor's thread nor the socket loop waits on Pango. Text that cannot be
    /// measured (no fonts) keeps its estimate, with one warning in the log. Ad-hoc containers
    /// get no computed sizes: they are laid out on request, and keep their estimates until a
    /// client reports.
    ///
    /// - Parameters:
    ///   - spec: the layout the version is made with, read once by the caller: a reload while
    ///     this awaits must not change it between a profile's two solves.
    ///   - settings: the settings read with `spec` (profiles, text slots and styles).
    ///   - sections: the version's content, assembled for `spec`.
    ///   - elements: the ``ElementIndex`` of `spec`'s sections and `sections`, made once per
    ///     version for this and the manifests.
    /// - Returns: the layout each profile was solved to, by profile name, for the version's
    ///   manifests to reuse where measuring changed nothing it applies.
    func measureText(
        spec: LayoutSpec,
        settings: DaemonSettings,
        sections: [AssembledSection],
        elements: ElementIndex,
        at time: Date
    ) async -> [String: SolvedLayout] {
        guard !settings.textSlots.isEmpty, !settings.textStyles.isEmpty else {
            measurements.replaceAll(.computed, with: [:])
            textState.layouts = [:]
            return [:]
        }
        if textState.checkedStyles != settings.textStyles {
            textState.checkedStyles = settings.textStyles
            for warning in await Self.textStyleWarnings(settings, measurer: textMeasurer) { warnOnce(warning) }
        }
        // Each profile is laid out on its own child task, as the version's manifests are
        // (``ManifestCache/prepare(sections:elements:spec:profiles:measurements:images:solved:at:)``); the
        // slots keep the profiles' order.
        let found = await withTaskGroup(of: (Int, [TextSlot], SolvedLayout?).self) { group in
            for (position, profile) in settings.profiles.enumerated() {
                let target = MeasurementTargets.profile(profile.name)
                let sizes = measurements.sizes(for: target)
                let earlier = textState.layouts[profile.name]
                group.addTask {
                    do throws(LayoutSolveError) {
                        let (layout, _) = try ManifestBuilder.solve(
                            spec: spec,
                            sections: sections,
                            environment: profile.environment,
                            measurements: sizes,
                            elements: elements,
                            reusing: earlier
                        )
                        let slots = TextSlots.find(
                            in: layout.result,
                            sections: sections,
                            settings: settings,
                            target: target,
                            scale: profile.environment.scale
                        )
                        return (position, slots, layout)
                    } catch {
                        // The version itself will fail on this profile and say why.
                        return (position, [], nil)
                    }
                }
            }
            var found = [[TextSlot]](repeating: [], count: settings.profiles.count)
            var solved: [String: SolvedLayout] = [:]
            for await (position, slots, layout) in group {
                found[position] = slots
                solved[settings.profiles[position].name] = layout
            }
            return (slots: found, solved: solved)
        }
        textState.layouts = found.solved
        let slots = found.slots.flatMap { $0 }
        var computed: [String: [String: SizeEntry]] = [:]
        let results = slots.isEmpty ? [] : await textMeasurer.measure(slots.map(\.request))
        for (slot, result) in zip(slots, results) {
            switch result {
            case .success(let metrics):
                computed[slot.target, default: [:]][slot.id] = slot.entry(metrics, at: time)
            case .failure(let error):
                warnOnce("\(error); text cells keep their estimated heights")
            }
        }
        measurements.replaceAll(.computed, with: computed)
        return found.solved
    }

    /// Warnings about the configured text styles, one per style whose font fontconfig does not
    /// have (naming the family and what it substitutes), or one when nothing can be measured.
    /// `--check-config` prints them; the daemon logs them at `<4>` when the styles change.
    public static func textStyleWarnings(_ settings: DaemonSettings, measurer: TextMeasurer) async -> [String] {
        var warnings: [String] = []
        for style in settings.textStyles {
            do throws(TextMeasureError) {
                let resolution = try await measurer.resolveFont(style.style.font)
                if let missing = resolution.missingFamily {
                    warnings.append(
                        "[text \(style.name)] (line \(style.line)): font family \"\(missing)\" is not installed; "
                            + "fontconfig substitutes \"\(resolution.loadedFamily)\""
                    )
                }
            } catch .unavailable(let reason) {
                return ["\(TextMeasureError.unavailable(reason)); text cells keep their estimated heights"]
            } catch {
                warnings.append("[text \(style.name)] (line \(style.line)): \(error)")
            }
        }
        return warnings
    }

    private func warnOnce(_ message: String) {
        guard textState.warned.insert(message).inserted else { return }
        logger.warning(message)
    }
}

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
    /// solve, when nothing the solver reads has changed (``SolvedLayout``). After a reload, the
    /// layouts its trial solved the new configuration to (``HomeService/reload()``).
    var layouts: [String: SolvedLayout] = [:]
}

/// What measuring a version's text found, before the service keeps any of it: the layout each
/// profile was solved to for it, the heights measured, and why any text kept its estimate.
struct MeasuredText: Sendable {
    /// By profile name; a profile that could not be solved has none.
    var layouts: [String: SolvedLayout] = [:]
    /// By target and element id, as the measurement book keeps computed sizes.
    var computed: [String: [String: SizeEntry]] = [:]
    /// One line per failure (no fonts), each logged once.
    var failures: [String] = []
}

extension HomeService {
    /// Measures the text slots of the next version, for every profile, and puts their heights in
    /// the measurement book as computed sizes, in place of the last version's
    /// (``measuredText(spec:settings:sections:elements:measurements:reusing:at:)``). Text that
    /// cannot be measured (no fonts) keeps its estimate, with one warning in the log.
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
        guard Self.measuresText(settings) else {
            measurements.replaceAll(.computed, with: [:])
            // Nothing to measure: the layouts a reload's trial solved (``reload()``) are this
            // version's, once.
            defer { textState.layouts = [:] }
            return textState.layouts
        }
        if textState.checkedStyles != settings.textStyles {
            textState.checkedStyles = settings.textStyles
            for warning in await Self.textStyleWarnings(settings, measurer: textMeasurer) { warnOnce(warning) }
        }
        let measured = await measuredText(
            spec: spec,
            settings: settings,
            sections: sections,
            elements: elements,
            measurements: measurements,
            reusing: textState.layouts,
            at: time
        )
        textState.layouts = measured.layouts
        for failure in measured.failures { warnOnce(failure) }
        measurements.replaceAll(.computed, with: measured.computed)
        return measured.layouts
    }

    /// Whether `settings` bind any slot to a text style: without, no text is measured.
    static func measuresText(_ settings: DaemonSettings) -> Bool {
        !settings.textSlots.isEmpty && !settings.textStyles.isEmpty
    }

    /// Measures the text slots of `sections` for every profile of `settings`, changing nothing
    /// of the service's: what ``measureText(spec:settings:sections:elements:at:)`` keeps, and
    /// what a reload's trial measures its new configuration with before it is swapped in.
    ///
    /// Each profile is solved once with `measurements` to find the slots' widths (or takes its
    /// layout in `earlier`, when that was solved from the same input); the strings are measured
    /// on the measurer's own queue (cached by string, style and width), so neither this actor's
    /// thread nor the socket loop waits on Pango. Ad-hoc containers get no computed sizes: they
    /// are laid out on request, and keep their estimates until a client reports.
    func measuredText(
        spec: LayoutSpec,
        settings: DaemonSettings,
        sections: [AssembledSection],
        elements: ElementIndex,
        measurements: MeasurementBook,
        reusing earlier: [String: SolvedLayout],
        at time: Date
    ) async -> MeasuredText {
        guard Self.measuresText(settings) else { return MeasuredText() }
        // Laid out as the version's manifests are, a child task per profile (``ProfileSolves``);
        // the slots keep the profiles' order.
        let found = await ProfileSolves.map(settings.profiles) {
            profile -> (slots: [TextSlot], layout: SolvedLayout?) in
            let target = MeasurementTargets.profile(profile.name)
            do throws(LayoutSolveError) {
                let (layout, _) = try ManifestBuilder.solve(
                    spec: spec,
                    sections: sections,
                    environment: profile.environment,
                    measurements: measurements.sizes(for: target),
                    elements: elements,
                    reusing: earlier[profile.name]
                )
                let slots = TextSlots.find(
                    in: layout.result,
                    sections: sections,
                    settings: settings,
                    target: target,
                    scale: profile.environment.scale
                )
                return (slots, layout)
            } catch {
                // The version itself will fail on this profile and say why.
                return ([], nil)
            }
        }
        var measured = MeasuredText()
        for (profile, result) in zip(settings.profiles, found) {
            measured.layouts[profile.name] = result.layout
        }
        let slots = found.flatMap(\.slots)
        let results = slots.isEmpty ? [] : await textMeasurer.measure(slots.map(\.request))
        for (slot, result) in zip(slots, results) {
            switch result {
            case .success(let metrics):
                measured.computed[slot.target, default: [:]][slot.id] = slot.entry(metrics, at: time)
            case .failure(let error):
                measured.failures.append("\(error); text cells keep their estimated heights")
            }
        }
        return measured
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

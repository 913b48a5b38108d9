import HomeLayout

/// The ids of manifest elements that are not items (`docs/manifest.md`, "Element ids"), stable
/// across versions like item ids, so clients can report their sizes and diff them.
enum ElementIDs {
    /// A section's boundary item: `header:SECTION`, `footer:SECTION`, else `boundary:SECTION:KIND`
    /// (element kinds are unique within a section).
    static func boundary(section: String, kind: String) -> String {
        switch kind {
        case "header": "header:" + section
        case "footer": "footer:" + section
        default: "boundary:\(section):\(kind)"
        }
    }

    /// A layout-wide boundary item: `global:KIND`.
    static func global(kind: String) -> String { "global:" + kind }

    /// An item's badge: `badge:KIND:ITEM ID` (kinds are unique per item).
    static func badge(kind: String, item: String) -> String { "badge:\(kind):\(item)" }

    /// A group supplementary: `group:SECTION:REPETITION:KIND`; when one repetition holds the same
    /// nested group more than once, the later ones get `#2`, `#3` ….
    static func group(section: String, repetition: Int, kind: String) -> String {
        "group:\(section):\(repetition):\(kind)"
    }
}

/// Finds the layout element and content fingerprint behind a manifest element id, for the
/// assembled content of one version: what a measurement of that id applies to.
///
/// Made once per version and shared by every profile's layouts (``ManifestBuilder/solve``):
/// it hashes every item id. Sendable: an immutable value.
struct ElementIndex: Sendable {
    private let sectionIDs: [String]
    private let sections: [AssembledSection]
    private var sectionByID: [String: Int] = [:]
    private var items: [String: (section: Int, item: Int)] = [:]

    init(sectionIDs: [String], sections: [AssembledSection]) {
        self.sectionIDs = sectionIDs
        self.sections = sections
        for (index, id) in sectionIDs.enumerated() { sectionByID[id] = index }
        for (s, section) in sections.enumerated() {
            for (i, item) in section.items.enumerated() { items[item.id] = (s, i) }
        }
    }

    /// The element `id` names and the fingerprint of its content now; nil for an id this
    /// version does not have, or one that takes no measurement (a group supplementary).
    func resolve(_ id: String) -> (element: MeasuredElement, fingerprint: UInt64)? {
        if let (s, i) = items[id] {
            return (.item(section: s, item: i), sections[s].fingerprint(ofItem: i))
        }
        if let section = suffix(of: id, after: "header:").flatMap({ sectionByID[$0] }), isShown(section) {
            return (.boundary(section: section, elementKind: "header"), sections[section].headerFingerprint)
        }
        if let section = suffix(of: id, after: "footer:").flatMap({ sectionByID[$0] }), isShown(section) {
            return (.boundary(section: section, elementKind: "footer"), ContentFingerprint.empty)
        }
        if let rest = suffix(of: id, after: "boundary:") {
            for (section, sectionID) in sectionIDs.enumerated() where isShown(section) {
                if let kind = suffix(of: rest, after: sectionID + ":") {
                    return (.boundary(section: section, elementKind: kind), ContentFingerprint.empty)
                }
            }
        }
        if let kind = suffix(of: id, after: "global:") {
            return (.globalBoundary(elementKind: kind), ContentFingerprint.empty)
        }
        if let rest = suffix(of: id, after: "badge:") {
            // The kind ends at some ':'; the rest is an item id.
            var cut = rest.firstIndex(of: ":")
            while let colon = cut {
                let itemID = String(rest[rest.index(after: colon)...])
                if let (s, i) = items[itemID] {
                    let kind = String(rest[..<colon])
                    return (
                        .itemSupplementary(section: s, item: i, elementKind: kind),
                        sections[s].fingerprint(ofItem: i)
                    )
                }
                cut = rest[rest.index(after: colon)...].firstIndex(of: ":")
            }
        }
        return nil
    }

    private func isShown(_ section: Int) -> Bool { section >= sections.count || !sections[section].isHidden }

    private func suffix(of text: String, after prefix: String) -> String? {
        text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : nil
    }

    /// The measurements of `sizes` that apply to this version laid out in the container of
    /// `container` (``ContainerFingerprint``): per element, each axis from the highest-ranked
    /// source whose fingerprint matches the content now, and a reported size only when it was
    /// measured in that container.
    func measurements(_ sizes: TargetSizes, container: UInt64) -> AppliedMeasurements {
        var applied = AppliedMeasurements()
        for (id, entries) in sizes.entries {
            guard let (element, fingerprint) = resolve(id) else { continue }
            var size = MeasuredSize()
            var source: MeasurementSource?
            var isTruncated = false
            for entry in entries {
                guard entry.applies(toContent: fingerprint, inContainer: container) else {
                    applied.stale.append((id, entry))
                    continue
                }
                if size.width == nil, let width = entry.width {
                    size.width = width
                    source = source ?? entry.source
                }
                if size.height == nil, let height = entry.height {
                    size.height = height
                    source = source ?? entry.source
                    isTruncated = entry.source == .computed && entry.isTruncated
                }
            }
            guard let source else { continue }
            applied.layout[element] = size
            applied.sources[id] = source
            if isTruncated, source == .computed { applied.truncated.insert(id) }
        }
        return applied
    }
}

/// What a target's measurements give one build: the sizes for the solver, the source that
/// gave each measured element its size (its `sizing`), the elements whose computed text was cut
/// at its style's `max-lines` (`truncated`), and the entries whose element's content or
/// container changed since they were measured (stale).
struct AppliedMeasurements {
    var layout = LayoutMeasurements()
    var sources: [String: MeasurementSource] = [:]
    var truncated: Set<String> = []
    var stale: [(id: String, entry: SizeEntry)] = []
}

public import FoundationEssentials
public import HomeLayout

/// Where a measured size came from. Sources are ranked: a higher one wins, axis by axis, and
/// the estimate is used where none has a value.
public enum MeasurementSource: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Reported by a client (`io.homefeed.ReportSizes`): what the device actually drew.
    case reported = 100
    /// Computed by the daemon: text measured with Pango in its configured style
    /// (`HomeService+Text.swift`). Never stored: it is computed again for every version.
    case computed = 50

    /// The manifest's `sizing` of an element that took a measurement from this source.
    var sizing: String {
        switch self {
        case .reported: "measured"
        case .computed: "computed"
        }
    }

    public static func < (a: MeasurementSource, b: MeasurementSource) -> Bool { a.rawValue < b.rawValue }
}

/// One source's measured size of one element, with the fingerprint of the content it was
/// measured for and, for a reported size, of the container it was measured in.
public struct SizeEntry: Sendable, Hashable {
    public var source: MeasurementSource
    public var width: Double?
    public var height: Double?
    public var fingerprint: UInt64
    /// The container a reported size was measured in (``ContainerFingerprint``): in another
    /// one (its profile's width or insets changed) the size is stale. Nil for a computed size,
    /// measured for each layout anew, and for a size stored before it was recorded (stale).
    public var containerFingerprint: UInt64?
    public var reportedAt: Date
    /// A computed text height measured at the style's `max-lines` (or the measuring cap): the
    /// manifest says `truncated`, so the client ellipsises instead of overflowing.
    public var isTruncated: Bool

    public init(
        source: MeasurementSource,
        width: Double?,
        height: Double?,
        fingerprint: UInt64,
        containerFingerprint: UInt64? = nil,
        reportedAt: Date,
        isTruncated: Bool = false
    ) {
        self.source = source
        self.width = width
        self.height = height
        self.fingerprint = fingerprint
        self.containerFingerprint = containerFingerprint
        self.reportedAt = reportedAt
        self.isTruncated = isTruncated
    }

    /// Whether the size applies to an element whose content has `fingerprint`, laid out in the
    /// container of `containerFingerprint`.
    func applies(toContent fingerprint: UInt64, inContainer containerFingerprint: UInt64) -> Bool {
        self.fingerprint == fingerprint
            && (source != .reported || self.containerFingerprint == containerFingerprint)
    }
}

/// The measurements of one target as the manifest builder applies them: by element id, the
/// entries of every source, the highest-ranked first.
public struct TargetSizes: Sendable, Hashable {
    public var entries: [String: [SizeEntry]] = [:]

    public init(entries: [String: [SizeEntry]] = [:]) {
        self.entries = entries
    }

    public static let none = TargetSizes()

    var isEmpty: Bool { entries.isEmpty }
}

/// Every measured size the daemon lays versions out with, by target (`profile:NAME` or
/// `container:W×H@S`, see ``MeasurementTargets``) and element id, per source.
///
/// A value: the service owns the current book and hands copies to the manifest cache, so a
/// version is laid out with the book as it was when the version was made.
public struct MeasurementBook: Sendable, Hashable {
    private var sources: [MeasurementSource: [String: [String: SizeEntry]]] = [:]

    public init() {}

    /// The sizes of `target` from every source, highest-ranked first per element.
    public func sizes(for target: String) -> TargetSizes {
        var merged: [String: [SizeEntry]] = [:]
        for source in MeasurementSource.allCases.sorted(by: >) {
            for (id, entry) in sources[source]?[target] ?? [:] { merged[id, default: []].append(entry) }
        }
        return TargetSizes(entries: merged)
    }

    /// One source's entry for an element.
    public func entry(_ source: MeasurementSource, target: String, id: String) -> SizeEntry? {
        sources[source]?[target]?[id]
    }

    /// Sets (or with `nil` removes) one source's entry for an element.
    public mutating func set(_ entry: SizeEntry?, target: String, id: String) {
        let source = entry?.source ?? .reported
        sources[source, default: [:]][target, default: [:]][id] = entry
        if sources[source]?[target]?.isEmpty == true { sources[source]?[target] = nil }
    }

    /// Removes an element's entry, only if it still is `entry` (a newer report stays).
    mutating func remove(_ entry: SizeEntry, target: String, id: String) -> Bool {
        let source = entry.source
        guard sources[source]?[target]?[id] == entry else { return false }
        sources[source]?[target]?[id] = nil
        if sources[source]?[target]?.isEmpty == true { sources[source]?[target] = nil }
        return true
    }

    /// Removes one source's entries of a target, or of every target.
    mutating func removeAll(_ source: MeasurementSource, target: String?) {
        if let target { sources[source]?[target] = nil } else { sources[source] = nil }
    }

    /// One source's entries, by target and id, for listing.
    func entries(_ source: MeasurementSource) -> [String: [String: SizeEntry]] { sources[source] ?? [:] }

    /// Replaces every entry of one source (each version's computed sizes replace the last ones).
    mutating func replaceAll(_ source: MeasurementSource, with entries: [String: [String: SizeEntry]]) {
        sources[source] = entries.isEmpty ? nil : entries.filter { !$0.value.isEmpty }
    }
}

/// The keys measurements are kept under: one per profile, one per ad-hoc container.
public enum MeasurementTargets {
    public static func profile(_ name: String) -> String { "profile:" + name }

    /// `container:375x812@3`, numbers in their shortest form.
    public static func container(_ environment: LayoutEnvironment) -> String {
        "container:\(number(environment.width))x\(number(environment.height))@\(number(environment.scale))"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

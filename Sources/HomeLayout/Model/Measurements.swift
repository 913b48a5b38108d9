/// A measured size of one element (self-sizing, §7.1): what a cell, header or badge reported as
/// its fitted size. Either axis may be missing; a measurement replaces an estimate on estimated
/// axes only, and is ignored with a warning on the others.
public struct MeasuredSize: Sendable, Hashable {
    public var width: Double?
    public var height: Double?

    public init(width: Double? = nil, height: Double? = nil) {
        self.width = width
        self.height = height
    }

    /// The axes this measurement gives a value for.
    public var axes: SizingAxes {
        var axes: SizingAxes = []
        if width != nil { axes.insert(.width) }
        if height != nil { axes.insert(.height) }
        return axes
    }

    /// Width and height swapped (the solver lays horizontal scrolling out transposed).
    var transposed: MeasuredSize { MeasuredSize(width: height, height: width) }

    /// `size` with the measured values on the axes of `estimated`.
    func applied(to size: Size, on estimated: SizingAxes) -> Size {
        var size = size
        if estimated.contains(.width), let width { size.width = width }
        if estimated.contains(.height), let height { size.height = height }
        return size
    }
}

/// A set of axes: which of an element's dimensions are estimated, or which were measured.
public struct SizingAxes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let width = SizingAxes(rawValue: 1)
    public static let height = SizingAxes(rawValue: 2)

    /// The estimated axes of a size (`.estimated` and `.uniformAcrossSiblings`).
    init(estimatedIn size: LayoutSize) {
        var axes: SizingAxes = []
        if size.width.isEstimated { axes.insert(.width) }
        if size.height.isEstimated { axes.insert(.height) }
        self = axes
    }

    /// Width and height swapped.
    var transposed: SizingAxes {
        var axes: SizingAxes = []
        if contains(.width) { axes.insert(.height) }
        if contains(.height) { axes.insert(.width) }
        return axes
    }
}

/// How an element's size was decided, so a client knows which frames are final.
public enum Sizing: String, Sendable, Hashable, CaseIterable {
    /// No estimated dimension: the frame is final as laid out.
    case fixed
    /// At least one estimated axis still has its estimate.
    case estimated
    /// Every estimated axis took a measured value.
    case measured

    /// The sizing of an element with estimated axes `estimated`, measured on `measured`.
    init(estimated: SizingAxes, measured: SizingAxes) {
        if estimated.isEmpty {
            self = .fixed
        } else {
            self = measured.isSuperset(of: estimated) ? .measured : .estimated
        }
    }
}

/// An element a measurement is for, by its place in the layout.
public enum MeasuredElement: Sendable, Hashable {
    /// The item at `item` (numbered as the result numbers it) of the section at `section`.
    case item(section: Int, item: Int)
    /// A section's boundary supplementary (header, footer …), by element kind (unique per section).
    case boundary(section: Int, elementKind: String)
    /// A layout-wide (configuration) boundary supplementary, by element kind.
    case globalBoundary(elementKind: String)
    /// An item's supplementary (a badge), by its item and element kind (unique per item).
    case itemSupplementary(section: Int, item: Int, elementKind: String)
}

/// Measured sizes for one solve (self-sizing, `layout-semantics.md` §7.1), by element.
///
/// Plain input: the solver re-fits what the measurements change and nothing else, so a solve
/// with measurements costs a plain solve plus the repetitions that hold a measured element.
/// Whoever has several sources of sizes (a client's report, a text measurement) merges them
/// into one value of this type before solving. Sendable: a value.
public struct LayoutMeasurements: Sendable, Hashable {
    /// The measurements of one section.
    public struct Section: Sendable, Hashable {
        /// By item index.
        public var items: [Int: MeasuredSize] = [:]
        /// By element kind.
        public var boundary: [String: MeasuredSize] = [:]
        /// By item index, then element kind.
        public var itemSupplementaries: [Int: [String: MeasuredSize]] = [:]

        public init() {}

        var isEmpty: Bool { items.isEmpty && boundary.isEmpty && itemSupplementaries.isEmpty }

        var count: Int { items.count + boundary.count + itemSupplementaries.values.reduce(0) { $0 + $1.count } }

        /// Width and height swapped (the solver lays horizontal scrolling out transposed).
        var transposed: Section {
            var copy = Section()
            copy.items = items.mapValues(\.transposed)
            copy.boundary = boundary.mapValues(\.transposed)
            copy.itemSupplementaries = itemSupplementaries.mapValues { $0.mapValues(\.transposed) }
            return copy
        }
    }

    /// By section index.
    public var sections: [Int: Section] = [:]
    /// Global boundary items, by element kind.
    public var global: [String: MeasuredSize] = [:]

    public init() {}

    public var isEmpty: Bool { global.isEmpty && sections.values.allSatisfy(\.isEmpty) }

    /// How many elements are measured.
    public var count: Int { global.count + sections.values.reduce(0) { $0 + $1.count } }

    /// The measurement of one element; setting `nil` removes it.
    public subscript(element: MeasuredElement) -> MeasuredSize? {
        get {
            switch element {
            case .item(let section, let item): sections[section]?.items[item]
            case .boundary(let section, let kind): sections[section]?.boundary[kind]
            case .globalBoundary(let kind): global[kind]
            case .itemSupplementary(let section, let item, let kind):
                sections[section]?.itemSupplementaries[item]?[kind]
            }
        }
        set {
            switch element {
            case .item(let section, let item): sections[section, default: Section()].items[item] = newValue
            case .boundary(let section, let kind): sections[section, default: Section()].boundary[kind] = newValue
            case .globalBoundary(let kind): global[kind] = newValue
            case .itemSupplementary(let section, let item, let kind):
                sections[section, default: Section()].itemSupplementaries[item, default: [:]][kind] = newValue
            }
        }
    }
}

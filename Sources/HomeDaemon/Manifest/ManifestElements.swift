public import HomeLayout
import JSONCore

/// What a manifest shows, element by element, kept beside its bytes: the ids with their frames,
/// content fingerprints and pictures (for `changes` between versions), the axes each one has estimated
/// (for `ReportSizes`), and a hash of every frame (does a report change anything?).
///
/// Items and supplementaries with ids are listed in manifest order; decorations only count in
/// the geometry hash. Sendable: a value.
public struct ManifestElements: Sendable, Equatable {
    public struct Element: Sendable, Equatable {
        public var id: String
        public var frame: Rect
        public var fingerprint: UInt64
        /// The axes a measurement applies to; empty for a fixed size or a group supplementary.
        public var measurable: SizingAxes
        /// What the item's `content.image` shows (rendition, size, average colour), nil without
        /// one. Apart from `fingerprint`: a rendition's box follows the item's frame, which a
        /// measurement changes, so a measurement must not go stale when its picture arrives.
        public var picture: UInt64? = nil
    }

    public private(set) var elements: [Element] = []
    private var positions: [String: Int] = [:]
    /// FNV-1a over the bit patterns of every frame, section frames, decorations and the content
    /// size included, in manifest order.
    public private(set) var geometry: UInt64 = 0xcbf2_9ce4_8422_2325

    init() {}

    /// Room for `count` elements with ids, so the id index is not rehashed as a manifest grows.
    mutating func reserveCapacity(_ count: Int) {
        elements.reserveCapacity(count)
        positions.reserveCapacity(count)
    }

    public subscript(id: String) -> Element? { positions[id].map { elements[$0] } }

    mutating func append(_ element: Element) {
        positions[element.id] = elements.count
        elements.append(element)
        add(element.frame)
    }

    /// Adds a frame that has no id (a section band, a decoration) to the geometry hash.
    mutating func add(_ rect: Rect) {
        for value in [rect.x, rect.y, rect.width, rect.height] {
            var bits = value.bitPattern
            for _ in 0..<8 {
                geometry ^= bits & 0xFF
                geometry = geometry &* 0x0000_0100_0000_01b3
                bits >>= 8
            }
        }
    }

    /// What changed from `old` to this manifest (`docs/manifest.md`, "Changes"): ids only here
    /// (new order), only there (old order), here and there with another frame, with another
    /// content fingerprint or picture (an image that became ready counts as new content).
    public func changes(since old: ManifestElements) -> ManifestChanges {
        var changes = ManifestChanges()
        for element in elements {
            guard let before = old[element.id] else {
                changes.inserted.append(element.id)
                continue
            }
            if before.frame != element.frame { changes.moved.append(element.id) }
            if before.fingerprint != element.fingerprint || before.picture != element.picture {
                changes.updated.append(element.id)
            }
        }
        for element in old.elements where positions[element.id] == nil { changes.deleted.append(element.id) }
        return changes
    }
}

/// The difference between two versions of one manifest, by element id.
public struct ManifestChanges: Sendable, Equatable {
    public var inserted: [String] = []
    public var deleted: [String] = []
    public var moved: [String] = []
    public var updated: [String] = []

    public init() {}

    /// `{"deleted":[…],"inserted":[…],"moved":[…],"since":N,"updated":[…]}` (sorted keys, as
    /// Varlink replies are written).
    func encoded(since version: Int) -> [UInt8] {
        var writer = JSONWriter(pretty: false, capacity: 64 + 48 * (inserted.count + deleted.count + moved.count))
        writer.beginObject()
        let lists: [(StaticString, [String])] = [("deleted", deleted), ("inserted", inserted), ("moved", moved)]
        for (key, ids) in lists {
            writer.key(key)
            writer.beginArray()
            for id in ids { writer.string(id) }
            writer.endArray()
        }
        writer.key("since")
        writer.int(version)
        writer.key("updated")
        writer.beginArray()
        for id in updated { writer.string(id) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}

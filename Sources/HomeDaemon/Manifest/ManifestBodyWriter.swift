import HomeLayout
import JSONCore

/// Writes a manifest's body (`docs/manifest.md`, "Shape") from a solved layout and its content,
/// and collects its ``ManifestElements`` on the way: every element with an id gets its frame,
/// content fingerprint and measurable axes recorded as it is written.
///
/// Noncopyable, as the ``JSONWriter`` it owns.
struct ManifestBodyWriter: ~Copyable {
    var json = JSONWriter(pretty: false, capacity: 4096)
    private(set) var elements = ManifestElements()
    /// Which source gave each measured element its size (its `sizing`).
    let sources: [String: MeasurementSource]
    /// Items whose computed text height was measured at its style's `max-lines` (`truncated`).
    let truncated: Set<String>
    /// The items' `content.image`, and the renditions the manifest needs.
    let pictures: ManifestPictures

    init(sources: [String: MeasurementSource], truncated: Set<String> = [], pictures: ManifestPictures) {
        self.sources = sources
        self.truncated = truncated
        self.pictures = pictures
    }

    /// `{"container":…,"platform":…,"contentSize":…,"sections":[…],"globalSupplementaries":[…]}`.
    mutating func write(_ result: LayoutResult, environment: LayoutEnvironment, sections assembled: [AssembledSection])
    {
        let items = result.sections.reduce(0) { $0 + $1.itemFrames.count }
        let supplementaries = result.sections.reduce(result.globalSupplementaries.count) {
            $0 + $1.supplementaries.count
        }
        elements.reserveCapacity(items + supplementaries)
        pictures.reserveCapacity(items)
        json.beginObject()
        json.key("container")
        json.container(environment)
        json.key("platform")
        json.string(result.platform.rawValue)
        json.key("contentSize")
        json.size(result.contentSize)
        elements.add(Rect(x: 0, y: 0, width: result.contentSize.width, height: result.contentSize.height))
        json.key("sections")
        json.beginArray()
        for section in result.sections {
            self.section(section, content: section.index < assembled.count ? assembled[section.index] : nil)
        }
        json.endArray()
        json.key("globalSupplementaries")
        json.beginArray()
        for supplementary in result.globalSupplementaries {
            self.supplementary(supplementary, id: ElementIDs.global(kind: supplementary.elementKind), content: nil)
        }
        json.endArray()
        json.endObject()
    }

    private mutating func section(_ section: SectionLayout, content: AssembledSection?) {
        json.beginObject()
        json.key("id")
        json.string(section.id)
        json.key("frame")
        json.frame(section.frame)
        elements.add(section.frame)
        // The boundary item of kind "header" (or "footer") is the section's header (footer) and
        // carries the header content; the rest are listed as supplementaries.
        let header = section.supplementaries.firstIndex { $0.isBoundary && $0.elementKind == "header" }
        let footer = section.supplementaries.firstIndex { $0.isBoundary && $0.elementKind == "footer" }
        let itemIDs = (0..<section.itemFrames.count).map { index in
            content.flatMap { index < $0.items.count ? $0.items[index].id : nil } ?? "\(section.id):\(index)"
        }
        json.key("header")
        if let header {
            supplementary(
                section.supplementaries[header],
                id: ElementIDs.boundary(section: section.id, kind: "header"),
                content: content?.header,
                fingerprint: content?.headerFingerprint ?? ContentFingerprint.empty
            )
        } else {
            json.null()
        }
        json.key("footer")
        if let footer {
            supplementary(
                section.supplementaries[footer],
                id: ElementIDs.boundary(section: section.id, kind: "footer"),
                content: nil
            )
        } else {
            json.null()
        }
        json.key("supplementaries")
        json.beginArray()
        var groupIDs: [String: Int] = [:]
        for (index, s) in section.supplementaries.enumerated() where index != header && index != footer {
            if let item = s.item {
                supplementary(
                    s,
                    id: ElementIDs.badge(kind: s.elementKind, item: itemIDs[item]),
                    content: nil,
                    fingerprint: content?.fingerprint(ofItem: item) ?? ContentFingerprint.empty
                )
            } else if let group = s.group {
                var id = ElementIDs.group(section: section.id, repetition: group, kind: s.elementKind)
                let occurrence = (groupIDs[id] ?? 0) + 1
                groupIDs[id] = occurrence
                if occurrence > 1 { id += "#\(occurrence)" }
                supplementary(s, id: id, content: nil, measurable: false)
            } else {
                supplementary(s, id: ElementIDs.boundary(section: section.id, kind: s.elementKind), content: nil)
            }
        }
        json.endArray()
        json.key("decorations")
        json.beginArray()
        for decoration in section.decorations {
            json.decoration(decoration)
            elements.add(decoration.frame)
        }
        json.endArray()
        json.key("orthogonal")
        json.orthogonal(section.orthogonal)
        json.key("items")
        json.beginArray()
        for (index, itemFrame) in section.itemFrames.enumerated() {
            let item = content.flatMap { index < $0.items.count ? $0.items[index] : nil }
            let id = itemIDs[index]
            let picture = pictures.picture(for: item, slot: content?.imageSlot, frame: itemFrame)
            json.beginObject()
            json.key("id")
            json.string(id)
            json.key("kind")
            json.string(item?.kind ?? "placeholder")
            json.key("slot")
            json.int(section.slotsPerGroup > 0 ? index % section.slotsPerGroup : 0)
            json.key("frame")
            json.frame(itemFrame)
            json.key("zIndex")
            json.int(section.itemZIndex)
            json.key("sizing")
            json.string(label(section.itemSizing(index), id: id))
            if truncated.contains(id) {
                json.key("truncated")
                json.bool(true)
            }
            json.key("content")
            json.contentObject(item, picture: picture)
            json.endObject()
            elements.append(
                ManifestElements.Element(
                    id: id,
                    frame: itemFrame,
                    fingerprint: content?.fingerprint(ofItem: index) ?? ContentFingerprint.empty,
                    measurable: section.itemEstimatedAxes(index),
                    picture: picture?.fingerprint
                )
            )
        }
        json.endArray()
        json.endObject()
    }

    private mutating func supplementary(
        _ s: SupplementaryFrame,
        id: String,
        content: ItemContent?,
        fingerprint: UInt64? = nil,
        measurable: Bool = true
    ) {
        json.beginObject()
        json.key("id")
        json.string(id)
        json.key("elementKind")
        json.string(s.elementKind)
        if let item = s.item {
            json.key("item")
            json.int(item)
        }
        if let group = s.group {
            json.key("group")
            json.int(group)
        }
        json.key("frame")
        json.frame(s.frame)
        json.key("zIndex")
        json.int(s.zIndex)
        json.key("pinToVisibleBounds")
        json.bool(s.pinToVisibleBounds)
        json.pinRange(s.pinRange)
        json.key("sizing")
        json.string(label(s.sizing, id: id))
        if let content {
            json.key("content")
            json.contentObject(content)
        }
        json.endObject()
        elements.append(
            ManifestElements.Element(
                id: id,
                frame: s.frame,
                fingerprint: fingerprint ?? ContentFingerprint.of(content),
                measurable: measurable ? s.estimatedAxes : []
            )
        )
    }

    /// `fixed`, `estimated`, or for a measured size the name of the source that gave it.
    private func label(_ sizing: Sizing, id: String) -> String {
        switch sizing {
        case .fixed: "fixed"
        case .estimated: "estimated"
        case .measured: (sources[id] ?? .reported).sizing
        }
    }
}

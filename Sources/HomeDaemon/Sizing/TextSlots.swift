import FoundationEssentials
import HomeLayout
import TextMeasure

/// One element whose text the daemon measures for a version: a section item in a slot bound to
/// a text style (`text` in `[section ID]`), laid out with an estimated height.
struct TextSlot {
    var target: String
    var id: String
    var fingerprint: UInt64
    var request: TextMeasurer.Request
    /// Added to the text's height: the style's top and bottom padding.
    var verticalPadding: Double
    /// The container's display scale: heights are rounded up to its pixels.
    var scale: Double

    /// The computed size of the element: the text's height and the padding, rounded up to a
    /// whole pixel so the cell never cuts the text's last pixel row (19.55 at scale 3 → 59/3).
    func entry(_ metrics: TextMetrics, at time: Date) -> SizeEntry {
        var height = metrics.height + verticalPadding
        if scale > 0 { height = (height * scale - 1e-6).rounded(.up) / scale }
        return SizeEntry(
            source: .computed,
            width: nil,
            height: min(max(height, 1 / max(scale, 1)), LayoutLimits.maxMagnitude),
            fingerprint: fingerprint,
            reportedAt: time,
            isTruncated: metrics.isTruncated
        )
    }
}

/// Finds the text slots of one solved layout.
enum TextSlots {
    /// Elements measured per target and version, at most: a section of thousands of items is
    /// laid out with its estimates beyond this (each cold measurement costs tens of µs).
    static let maxPerTarget = 1_000

    /// The items of `result` whose slot has a text style and whose height is estimated, with the
    /// width their text wraps in (the frame's width less the style's leading and trailing
    /// padding) and the content field the style measures. Items without that field, or without
    /// room for text, keep their estimate.
    static func find(
        in result: LayoutResult,
        sections: [AssembledSection],
        settings: DaemonSettings,
        target: String,
        scale: Double
    ) -> [TextSlot] {
        var found: [TextSlot] = []
        for section in result.sections {
            guard let slots = settings.textSlots[section.id], section.index < sections.count else { continue }
            let assembled = sections[section.index]
            let items = assembled.items
            for (index, frame) in section.itemFrames.enumerated() where index < items.count {
                let slot = section.slotsPerGroup > 0 ? index % section.slotsPerGroup : 0
                guard let name = slots.style(forSlot: slot),
                    let style = settings.textStyles.first(where: { $0.name == name }),
                    section.itemEstimatedAxes(index).contains(.height)
                else { continue }
                let item = items[index]
                guard let text = style.field == .title ? item.title : item.subtitle else { continue }
                let width = frame.width - style.padding.leading - style.padding.trailing
                guard width >= 1 else { continue }
                found.append(
                    TextSlot(
                        target: target,
                        id: item.id,
                        fingerprint: assembled.fingerprint(ofItem: index),
                        request: TextMeasurer.Request(text: text, style: style.style, width: width),
                        verticalPadding: style.padding.top + style.padding.bottom,
                        scale: scale
                    )
                )
                if found.count >= maxPerTarget { return found }
            }
        }
        return found
    }
}

import HomeLayout

/// Draws a solved layout as an SVG wireframe people can look at.
///
/// Section bands alternate in tint and carry their id; items are numbered boxes; headers and
/// footers are dashed amber, badges red, group supplementaries purple, backgrounds grey (with
/// their corner radius), list separators dark hairlines. Orthogonal rows are drawn past the
/// screen edge with the visible window outlined in red and each rest offset ticked. The first
/// screen (W × H) is outlined in black.
struct WireframeSVG {
    let result: LayoutResult
    let margin = 24.0
    /// Room on the left for section labels.
    let gutter = 110.0

    func render() -> String {
        let env = result.environment
        var minX = 0.0
        var maxX = max(env.width, result.contentSize.width)
        var maxY = result.contentSize.height
        for section in result.sections {
            for frame in section.itemFrames + section.supplementaries.map(\.frame) {
                minX = min(minX, frame.x)
                maxX = max(maxX, frame.maxX)
                maxY = max(maxY, frame.maxY)
            }
        }
        let width = maxX - minX + 2 * margin + gutter
        let height = maxY + 2 * margin
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
            viewBox="0 0 \(n(width)) \(n(height))" font-family="sans-serif">
            <style>
            .band0 { fill: #f3f5fa; } .band1 { fill: #e9edf6; }
            .label { font-size: 10px; fill: #556; }
            .section { font-size: 11px; fill: #223; text-anchor: end; }
            .item { fill: #d8e5ff; stroke: #3366cc; stroke-width: 1; }
            .num { font-size: 11px; fill: #1d3d80; text-anchor: middle; dominant-baseline: central; }
            .boundary { fill: #fff1cc; stroke: #c98a00; stroke-width: 1; stroke-dasharray: 4 2; }
            .badge { fill: #ff5a5a; stroke: #a00; stroke-width: 0.5; }
            .groupSupplementary { fill: #c9a7f5; stroke: #6a3fb0; stroke-width: 0.5; }
            .separator { fill: #223; stroke: #223; stroke-width: 1; }
            .background { fill: #dcdcdc; stroke: #aaa; stroke-width: 0.5; }
            .window { fill: none; stroke: #d00; stroke-width: 1.5; }
            .tick { stroke: #d00; stroke-width: 1.5; }
            .screen { fill: none; stroke: #111; stroke-width: 2; stroke-dasharray: 8 4; }
            </style>
            <rect x="0" y="0" width="\(n(width))" height="\(n(height))" fill="#fff"/>
            <g transform="translate(\(n(margin + gutter - minX)) \(n(margin)))">

            """
        for (index, section) in result.sections.enumerated() {
            let band = section.frame
            svg += rect(Rect(x: minX, y: band.y, width: maxX - minX, height: band.height), "band\(index % 2)")
            for decoration in section.decorations where decoration.item == nil {
                svg += rect(decoration.frame, "background", cornerRadius: decoration.cornerRadius)
            }
            for (number, frame) in section.itemFrames.enumerated() {
                svg += rect(frame, "item")
                svg +=
                    "<text class=\"num\" x=\"\(n(frame.x + frame.width / 2))\" y=\"\(n(frame.y + frame.height / 2))\">\(number)</text>\n"
            }
            // List separators belong to rows and are drawn over them, as UIKit layers them.
            for decoration in section.decorations where decoration.item != nil {
                svg += rect(decoration.frame, "separator")
            }
            for supplementary in section.supplementaries {
                let style =
                    supplementary.item != nil ? "badge" : supplementary.group != nil ? "groupSupplementary" : "boundary"
                svg += rect(supplementary.frame, style)
                if style == "boundary" {
                    svg +=
                        "<text class=\"label\" x=\"\(n(supplementary.frame.x + 4))\" y=\"\(n(supplementary.frame.y + 12))\">\(XMLText.escaped(supplementary.elementKind))</text>\n"
                }
            }
            if let orthogonal = section.orthogonal, orthogonal.axis == .horizontal {
                // The scroller's visible window at rest offset 0 and a tick at each rest offset.
                svg += rect(Rect(x: 0, y: band.y + 1, width: env.width, height: max(band.height - 2, 0)), "window")
                for offset in orthogonal.restOffsets {
                    svg +=
                        "<line class=\"tick\" x1=\"\(n(offset))\" y1=\"\(n(band.maxY - 6))\" x2=\"\(n(offset))\" y2=\"\(n(band.maxY))\"/>\n"
                    svg +=
                        "<text class=\"label\" x=\"\(n(offset + 2))\" y=\"\(n(band.maxY - 8))\">\(n(offset))</text>\n"
                }
            }
            svg +=
                "<text class=\"section\" x=\"\(n(minX - 8))\" y=\"\(n(band.y + 12))\">\(index) \(XMLText.escaped(section.id))</text>\n"
        }
        for supplementary in result.globalSupplementaries { svg += rect(supplementary.frame, "boundary") }
        svg += rect(
            Rect(x: 0, y: 0, width: env.width, height: min(env.height, max(result.contentSize.height, 1))),
            "screen"
        )
        svg +=
            "<text class=\"section\" x=\"-8\" y=\"\(n(min(env.height, result.contentSize.height) - 4))\">screen \(n(env.width))×\(n(env.height))@\(n(env.scale))x</text>\n"
        svg += "</g>\n</svg>\n"
        return svg
    }

    private func rect(_ r: Rect, _ style: String, cornerRadius: Double? = nil) -> String {
        let corner = cornerRadius.map { " rx=\"\(n($0))\"" } ?? ""
        return
            "<rect class=\"\(style)\" x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(max(r.width, 0)))\" height=\"\(n(max(r.height, 0)))\"\(corner)/>\n"
    }

    private func n(_ v: Double) -> String {
        let rounded = (v * 1000).rounded() / 1000
        return pointsText(rounded)
    }
}

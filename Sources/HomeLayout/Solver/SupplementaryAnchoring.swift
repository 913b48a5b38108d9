/// §6.5: where a supplementary anchored to a rectangle goes. The rectangle is an item's visible
/// frame (badges) or a group's frame inside its contentInsets (group supplementaries).
extension PixelGrid {
    /// - Parameter measured: the supplementary's measured size, used on its estimated axes (§7.1).
    func anchoredFrame(_ supplementary: ItemSupplementary, in container: Rect, measured: MeasuredSize? = nil) -> Rect {
        var size = resolve(supplementary.size, in: Container(width: container.width, height: container.height))
        if let measured { size = measured.applied(to: size, on: SizingAxes(estimatedIn: supplementary.size)) }
        let anchor = supplementary.anchor
        let edges = anchor.edges
        var x: Double
        var y: Double
        if let itemAnchor = supplementary.itemAnchor {
            // The item anchor's point of the supplementary (plus its offset, in the same units)
            // is placed on the container anchor's point.
            let item = itemAnchor.edges
            x = Self.point(
                container.x,
                container.width,
                leading: edges.contains(.leading),
                trailing: edges.contains(.trailing)
            )
            y = Self.point(
                container.y,
                container.height,
                leading: edges.contains(.top),
                trailing: edges.contains(.bottom)
            )
            x -= Self.point(0, size.width, leading: item.contains(.leading), trailing: item.contains(.trailing))
            y -= Self.point(0, size.height, leading: item.contains(.top), trailing: item.contains(.bottom))
            x -= itemAnchor.absoluteOffset.x + itemAnchor.fractionalOffset.x * size.width
            y -= itemAnchor.absoluteOffset.y + itemAnchor.fractionalOffset.y * size.height
        } else {
            // Each named edge aligns the supplementary's same edge inside the container; an axis
            // with no edge is centred.
            x = container.x + (container.width - size.width) / 2
            if edges.contains(.leading) {
                x = container.x
            } else if edges.contains(.trailing) {
                x = container.maxX - size.width
            }
            y = container.y + (container.height - size.height) / 2
            if edges.contains(.top) {
                y = container.y
            } else if edges.contains(.bottom) {
                y = container.maxY - size.height
            }
        }
        x += anchor.absoluteOffset.x + anchor.fractionalOffset.x * size.width
        y += anchor.absoluteOffset.y + anchor.fractionalOffset.y * size.height
        return Rect(x: x, y: y, width: size.width, height: size.height)
    }

    /// The anchor point along one axis: the start, the end, or the middle of `length`.
    private static func point(_ start: Double, _ length: Double, leading: Bool, trailing: Bool) -> Double {
        leading ? start : trailing ? start + length : start + length / 2
    }
}

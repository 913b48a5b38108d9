/// Declared subitems resolved into templates (§4.1): an item becomes a leaf slot, a nested
/// group is solved now when its extent depends on its content, later (``materialize``) when the
/// final pass places it at its fixed size.
extension GroupSolver {
    /// Solves the nested groups of fixed size that the final pass placed (their extent was their
    /// resolved size, §4.8, so the fill pass did not need their leaves).
    mutating func materialize(
        _ templates: inout [Template?],
        _ subitems: [LayoutElement],
        depth: Int
    ) throws(GroupFailure) {
        for index in templates.indices {
            guard let t = templates[index], t.leafRange == nil, case .group(let nested) = subitems[index] else {
                continue
            }
            let start = leaves.count
            do {
                _ = try solve(nested, size: t.size, depth: depth + 1)
            } catch {
                var failure = error
                failure.steps.insert(.group(index), at: 0)
                throw failure
            }
            templates[index]?.leafRange = start..<leaves.count
        }
    }

    /// Resolves and (for groups) solves one declared subitem in `container`.
    mutating func template(
        for element: LayoutElement,
        at index: Int,
        axis: Axis,
        container: Container,
        depth: Int
    ) throws(GroupFailure) -> Template {
        let size = grid.resolve(element.size, in: container)
        let start = leaves.count
        let extent: Size
        var leafRange: Range<Int>? = nil
        switch element {
        case .item(let item):
            let insets = item.contentInsets.ignoringEstimatedAxes(of: item.size)
            let slot = Rect(x: 0, y: 0, width: size.width, height: size.height)
            var badges: Int32 = -1
            if !item.supplementaryItems.isEmpty {
                badges = Int32(truncatingIfNeeded: badgeLists.count)
                badgeLists.append(item.supplementaryItems)
            }
            leaves.append(
                LeafSlot(
                    slot: slot,
                    visible: slot.inset(by: insets),
                    badges: badges,
                    estimated: SizingAxes(estimatedIn: item.size)
                )
            )
            extent = size
            leafRange = start..<leaves.count
        case .group(let nested) where !nested.size.width.isEstimated && !nested.size.height.isEstimated:
            // Fixed size: the extent is known without solving; leaves come in `materialize`.
            extent = size
        case .group(let nested):
            do {
                extent = try solve(nested, size: size, depth: depth + 1)
            } catch {
                var failure = error
                failure.steps.insert(.group(index), at: 0)
                throw failure
            }
            leafRange = start..<leaves.count
        }
        let cross: Axis = axis == .horizontal ? .vertical : .horizontal
        let edges = element.edgeSpacing
        let pre = edges?.pre(along: axis)
        let post = edges?.post(along: axis)
        let crossPre = edges?.pre(along: cross)
        let crossPost = edges?.post(along: cross)
        return Template(
            extent: extent,
            leafRange: leafRange,
            size: size,
            dependsOnAxis: element.size.dependsOnContainer(along: axis),
            pre: pre?.value ?? 0,
            post: post?.value ?? 0,
            preFlexible: pre?.isFlexible ?? false,
            postFlexible: post?.isFlexible ?? false,
            crossPre: crossPre?.value ?? 0,
            crossPost: crossPost?.value ?? 0,
            crossPreFlexible: crossPre?.isFlexible ?? false,
            crossPostFlexible: crossPost?.isFlexible ?? false
        )
    }
}

/// The measured leaves of one repetition of a root group (self-sizing, §7.1), by leaf index:
/// the depth-first slot numbering of ``GroupSolver/leaves``.
struct MeasuredLeaves: Sendable {
    /// Ascending.
    private var indices: [Int] = []
    private var sizes: [MeasuredSize] = []

    init(_ entries: [(leaf: Int, size: MeasuredSize)]) {
        for entry in entries.sorted(by: { $0.leaf < $1.leaf }) {
            indices.append(entry.leaf)
            sizes.append(entry.size)
        }
    }

    /// The first position whose leaf index is at least `leaf`.
    private func lowerBound(_ leaf: Int) -> Int {
        var low = 0
        var high = indices.count
        while low < high {
            let mid = (low + high) / 2
            if indices[mid] < leaf { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Whether any leaf in `range` is measured.
    func any(in range: Range<Int>) -> Bool {
        let position = lowerBound(range.lowerBound)
        return position < indices.count && indices[position] < range.upperBound
    }

    func size(at leaf: Int) -> MeasuredSize? {
        let position = lowerBound(leaf)
        return position < indices.count && indices[position] == leaf ? sizes[position] : nil
    }
}

extension GroupSolver {
    /// §7.1: the templates of the placements a measurement changes, `nil` where the shared
    /// template stands. A measured item takes its measured size on its estimated axes; a nested
    /// group holding a measured leaf is solved again with the measurements, so it re-fits on
    /// its estimated axes; `uniformAcrossSiblings` items take the largest measured value among
    /// the group's uniform items.
    ///
    /// Only extents change: the fill pass already chose the placements from the estimates, so
    /// every placement keeps its leaves and the repetition its slots.
    mutating func specialize(
        _ pass: (placed: [Int], templates: [Template?]),
        _ subitems: [LayoutElement],
        measured: MeasuredLeaves,
        firstLeaf: Int,
        depth: Int
    ) throws(GroupFailure) -> [Template?] {
        var result = [Template?](repeating: nil, count: pass.placed.count)
        var starts = [Int](repeating: 0, count: pass.placed.count)
        var uniform: [Int] = []
        var leaf = firstLeaf
        for (n, index) in pass.placed.enumerated() {
            guard let t = pass.templates[index], let range = t.leafRange else { continue }
            starts[n] = leaf
            let span = leaf..<leaf + range.count
            leaf += range.count
            switch subitems[index] {
            case .item(let item):
                if item.size.width.isUniformAcrossSiblings || item.size.height.isUniformAcrossSiblings {
                    uniform.append(n)
                }
                guard let size = measured.size(at: span.lowerBound) else { continue }
                let resized = size.applied(to: t.extent, on: leaves[range.lowerBound].estimated)
                if resized != t.extent { result[n] = resizedItem(t, to: resized, item) }
            case .group(let nested):
                guard measured.any(in: span) else { continue }
                var copy = t
                let start = leaves.count
                do {
                    copy.extent = try solve(
                        nested,
                        size: t.size,
                        depth: depth + 1,
                        measured: measured,
                        firstLeaf: span.lowerBound
                    )
                } catch {
                    var failure = error
                    failure.steps.insert(.group(index), at: 0)
                    throw failure
                }
                copy.leafRange = start..<leaves.count
                result[n] = copy
            }
        }
        if !uniform.isEmpty {
            uniformAcrossSiblings(uniform, starts: starts, pass, subitems, measured: measured, into: &result)
        }
        return result
    }

    /// iOS 17's `uniformAcrossSiblings`: on each axis where it is declared, every such item of
    /// the group takes the largest measured value among them; with none measured, each keeps
    /// its estimate.
    private mutating func uniformAcrossSiblings(
        _ uniform: [Int],
        starts: [Int],
        _ pass: (placed: [Int], templates: [Template?]),
        _ subitems: [LayoutElement],
        measured: MeasuredLeaves,
        into result: inout [Template?]
    ) {
        for axis in [SizingAxes.width, .height] {
            var largest: Double?
            var members: [(n: Int, item: LayoutItem)] = []
            for n in uniform {
                guard case .item(let item) = subitems[pass.placed[n]] else { continue }
                let dimension = axis == .width ? item.size.width : item.size.height
                guard dimension.isUniformAcrossSiblings else { continue }
                members.append((n, item))
                if let size = measured.size(at: starts[n]), let value = axis == .width ? size.width : size.height {
                    largest = max(largest ?? value, value)
                }
            }
            guard let largest else { continue }
            for (n, item) in members {
                guard let t = result[n] ?? pass.templates[pass.placed[n]] else { continue }
                var resized = t.extent
                if axis == .width { resized.width = largest } else { resized.height = largest }
                if resized != t.extent { result[n] = resizedItem(t, to: resized, item) }
            }
        }
    }

    /// A copy of an item's template at another size, with a leaf of its own: the slot is the
    /// new size and the visible frame its inset (insets are zero on estimated axes, §3.1).
    private mutating func resizedItem(_ template: Template, to size: Size, _ item: LayoutItem) -> Template {
        let shared = leaves[template.leafRange?.lowerBound ?? 0]
        let insets = item.contentInsets.ignoringEstimatedAxes(of: item.size)
        let slot = Rect(x: 0, y: 0, width: size.width, height: size.height)
        var copy = template
        copy.extent = size
        copy.size = size
        copy.leafRange = leaves.count..<leaves.count + 1
        leaves.append(
            LeafSlot(slot: slot, visible: slot.inset(by: insets), badges: shared.badges, estimated: shared.estimated)
        )
        return copy
    }
}

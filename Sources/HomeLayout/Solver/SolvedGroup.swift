/// One leaf item of a solved group: where its slot and visible frame are, relative to the
/// origin of the group being solved.
struct LeafSlot: Sendable {
    /// The item's resolved layout size, placed (§1 "slot").
    var slot: Rect
    /// The slot shrunk by the item's contentInsets (§3.1): the reported cell frame.
    var visible: Rect
    /// Index into ``GroupSolver/badgeLists`` when the item has supplementaries, else -1.
    var badges: Int32
    /// The item's estimated axes, which measurements may change (§7.1).
    var estimated: SizingAxes
}

/// Where a solve failed, relative to the group handed to ``GroupSolver/solve(_:size:depth:)``.
struct GroupFailure: Error, Sendable {
    enum Step: Sendable {
        case group(Int)
        case item(Int)
    }

    var kind: LayoutSolveError.Kind
    var steps: [Step] = []

    /// `group.subitems[0].group.subitems[2].item`, relative to a `…group` prefix.
    func path(from prefix: String) -> String {
        var path = prefix
        for step in steps {
            switch step {
            case .group(let i): path += ".subitems[\(i)].group"
            case .item(let i): path += ".subitems[\(i)].item"
            }
        }
        return path
    }
}

/// A solved group instance that has supplementary items (`NSCollectionLayoutGroup`'s
/// `supplementaryItems`): they are anchored to its content box in every repetition.
struct GroupBox: Sendable {
    /// The group's frame inside its contentInsets, relative to the origin of the group being
    /// solved (its extent on estimated axes).
    var content: Rect
    /// Index into ``GroupSolver/badgeLists``.
    var supplementaries: Int32
    /// The group's first leaf, counted from the first leaf of the solved root group: the group
    /// is laid out in a repetition that holds this slot.
    var firstLeaf: Int
}

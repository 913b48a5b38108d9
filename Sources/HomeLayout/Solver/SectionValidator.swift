/// Checks a section before it is solved: every number finite and within
/// ``LayoutLimits/maxMagnitude``, sizes > 0, the structural errors UIKit raises (§9 items
/// 4, 6, 7), and the warnings it logs (§9 items 3 and 8), each with its JSON path.
///
/// Paths are kept as a stack of steps and rendered only when something is reported, so a
/// clean section costs no string work. Where a section's key was declared (the section, or the
/// variant that set it) is worked out then too: a solve validates every section, and building
/// those roots for each key was a third of the home screen's solve (callgrind, issue 17).
struct SectionValidator {
    enum Step {
        case key(StaticString)
        case index(Int)
    }

    /// Where a path starts: fixed for the layout-wide checks, by key for a section's.
    enum PathRoot {
        case fixed([Step])
        /// A section's: `sections[i]`, or `sections[i].variants[v]` when a variant that applies
        /// sets `key` (``SectionPathRoot``).
        case section(SectionPathRoot, key: String)

        var steps: [Step] {
            switch self {
            case .fixed(let steps): steps
            case .section(let section, let key): section.steps(for: key)
            }
        }
    }

    /// Below the root: the key being checked and what lies inside it.
    private var steps: [Step] = []
    private var root: PathRoot
    private let sectionIndex: Int?
    private let sectionID: String?
    private(set) var diagnostics: [LayoutDiagnostic] = []

    init(sectionIndex: Int?, sectionID: String?, root: [Step]) {
        self.sectionIndex = sectionIndex
        self.sectionID = sectionID
        self.root = .fixed(root)
        steps.reserveCapacity(16)
    }

    var path: String { Self.render(root.steps + steps) }

    static func render(_ steps: [Step]) -> String {
        var path = ""
        for step in steps {
            switch step {
            case .key(let key): path += path.isEmpty ? "\(key)" : ".\(key)"
            case .index(let index): path += "[\(index)]"
            }
        }
        return path
    }

    private func fail(_ kind: LayoutSolveError.Kind, at step: Step? = nil) -> LayoutSolveError {
        let path = step.map { Self.render(root.steps + steps + [$0]) } ?? path
        return LayoutSolveError(kind, sectionIndex: sectionIndex, sectionID: sectionID, path: path)
    }

    private mutating func warn(_ message: String) {
        diagnostics.append(LayoutDiagnostic(path: path, message: message))
    }

    private mutating func at<T>(_ step: Step, _ body: (inout Self) throws(LayoutSolveError) -> T)
        throws(LayoutSolveError) -> T
    {
        steps.append(step)
        defer { steps.removeLast() }
        return try body(&self)
    }

    // MARK: Leaves

    mutating func number(_ value: Double, _ key: StaticString, what: String) throws(LayoutSolveError) {
        guard value.isFinite, abs(value) <= LayoutLimits.maxMagnitude else {
            throw fail(.invalidValue(what: what, value: value), at: .key(key))
        }
    }

    /// zIndex values stay within Int32, so raising cells above a background cannot overflow.
    mutating func zIndex(_ value: Int) throws(LayoutSolveError) {
        guard value >= Int(Int32.min), value < Int(Int32.max) else {
            throw fail(.invalidValue(what: "zIndex", value: Double(value)), at: .key("zIndex"))
        }
    }

    mutating func dimension(_ dimension: Dimension, _ key: StaticString) throws(LayoutSolveError) {
        let value = dimension.value
        guard value.isFinite, value > 0, value <= LayoutLimits.maxMagnitude else {
            throw fail(.invalidValue(what: "dimension", value: value), at: .key(key))
        }
    }

    /// `uniformAcrossSiblings` compares an item with its siblings, so only items may use it.
    mutating func size(_ size: LayoutSize, allowsUniform: Bool = false) throws(LayoutSolveError) {
        try at(.key("size")) { (v: inout Self) throws(LayoutSolveError) in
            try v.dimension(size.width, "width")
            try v.dimension(size.height, "height")
            if !allowsUniform, size.width.isUniformAcrossSiblings || size.height.isUniformAcrossSiblings {
                let key: StaticString = size.width.isUniformAcrossSiblings ? "width" : "height"
                throw v.fail(.unsupported("uniformAcrossSiblings sizes items only"), at: .key(key))
            }
        }
    }

    mutating func insets(_ insets: EdgeInsets, _ key: StaticString = "contentInsets") throws(LayoutSolveError) {
        try at(.key(key)) { (v: inout Self) throws(LayoutSolveError) in
            try v.number(insets.top, "top", what: "inset")
            try v.number(insets.leading, "leading", what: "inset")
            try v.number(insets.bottom, "bottom", what: "inset")
            try v.number(insets.trailing, "trailing", what: "inset")
        }
    }

    mutating func point(_ point: Point, _ key: StaticString) throws(LayoutSolveError) {
        try at(.key(key)) { (v: inout Self) throws(LayoutSolveError) in
            try v.number(point.x, "x", what: "offset")
            try v.number(point.y, "y", what: "offset")
        }
    }

    mutating func spacing(_ spacing: Spacing?, _ key: StaticString) throws(LayoutSolveError) {
        guard let spacing else { return }
        try at(.key(key)) { (v: inout Self) throws(LayoutSolveError) in
            try v.number(spacing.value, spacing.isFlexible ? "flexible" : "fixed", what: "spacing")
        }
    }

    mutating func edgeSpacing(_ edges: EdgeSpacing?) throws(LayoutSolveError) {
        guard let edges else { return }
        try at(.key("edgeSpacing")) { (v: inout Self) throws(LayoutSolveError) in
            try v.spacing(edges.leading, "leading")
            try v.spacing(edges.top, "top")
            try v.spacing(edges.trailing, "trailing")
            try v.spacing(edges.bottom, "bottom")
        }
    }

    /// §9 item 8: insets on an estimated axis are ignored.
    mutating func warnAboutEstimatedInsets(_ insets: EdgeInsets, _ size: LayoutSize) {
        let onWidth = size.width.isEstimated && (insets.leading != 0 || insets.trailing != 0)
        let onHeight = size.height.isEstimated && (insets.top != 0 || insets.bottom != 0)
        if onWidth || onHeight {
            steps.append(.key("contentInsets"))
            warn(
                "contentInsets are ignored on an estimated axis (\(onWidth ? "width" : "height")); UIKit logs a warning"
            )
            steps.removeLast()
        }
    }

    // MARK: Tree

    /// `depth` counts from 0 at the root group, so `maxGroupDepth` levels are allowed, as the
    /// decoder allows them.
    mutating func group(_ group: LayoutGroup, depth: Int) throws(LayoutSolveError) {
        guard depth < LayoutLimits.maxGroupDepth else {
            throw fail(.limitExceeded(what: "group nesting depth", limit: LayoutLimits.maxGroupDepth))
        }
        try size(group.size)
        try insets(group.contentInsets)
        warnAboutEstimatedInsets(group.contentInsets, group.size)
        try edgeSpacing(group.edgeSpacing)
        try spacing(group.interItemSpacing, "interItemSpacing")
        if let count = group.count, count < 1 || count > LayoutLimits.maxSubitemsPerGroup {
            let limit = LayoutLimits.maxSubitemsPerGroup
            throw fail(.limitExceeded(what: "count \(count) (at least 1)", limit: limit), at: .key("count"))
        }
        guard !group.subitems.isEmpty else { throw fail(.emptyGroup, at: .key("subitems")) }
        try supplementaries(group.supplementaryItems, limit: LayoutLimits.maxSupplementariesPerGroup)
        try at(.key("subitems")) { (v: inout Self) throws(LayoutSolveError) in
            for (index, element) in group.subitems.enumerated() {
                try v.at(.index(index)) { (v: inout Self) throws(LayoutSolveError) in
                    switch element {
                    case .item(let item):
                        try v.at(.key("item")) { (v: inout Self) throws(LayoutSolveError) in try v.item(item) }
                    case .group(let nested):
                        try v.at(.key("group")) { (v: inout Self) throws(LayoutSolveError) in
                            try v.group(nested, depth: depth + 1)
                        }
                    }
                }
            }
        }
    }

    mutating func item(_ item: LayoutItem) throws(LayoutSolveError) {
        try size(item.size, allowsUniform: true)
        try insets(item.contentInsets)
        warnAboutEstimatedInsets(item.contentInsets, item.size)
        try edgeSpacing(item.edgeSpacing)
        try supplementaries(item.supplementaryItems, limit: LayoutLimits.maxSupplementariesPerItem)
    }

    /// The supplementary items of one item or group: at most `limit`, kinds unique among them
    /// (§9 item 7).
    mutating func supplementaries(_ list: [ItemSupplementary], limit: Int) throws(LayoutSolveError) {
        guard !list.isEmpty else { return }
        guard list.count <= limit else {
            throw fail(
                .limitExceeded(what: "\(list.count) supplementary items", limit: limit),
                at: .key("supplementaryItems")
            )
        }
        var kinds: Set<String> = []
        try at(.key("supplementaryItems")) { (v: inout Self) throws(LayoutSolveError) in
            for (index, supplementary) in list.enumerated() {
                try v.at(.index(index)) { (v: inout Self) throws(LayoutSolveError) in
                    try v.elementKind(supplementary.elementKind)
                    guard kinds.insert(supplementary.elementKind).inserted else {
                        throw v.fail(.duplicateElementKind(supplementary.elementKind), at: .key("elementKind"))
                    }
                    try v.size(supplementary.size)
                    try v.zIndex(supplementary.zIndex)
                    try v.anchor(supplementary.anchor, "anchor")
                    if let itemAnchor = supplementary.itemAnchor { try v.anchor(itemAnchor, "itemAnchor") }
                }
            }
        }
    }

    /// ``LayoutLimits/maxElementKindBytes``: the output repeats a kind for every element.
    mutating func elementKind(_ kind: String) throws(LayoutSolveError) {
        guard kind.utf8.count <= LayoutLimits.maxElementKindBytes else {
            throw fail(
                .limitExceeded(
                    what: "element kind of \(kind.utf8.count) bytes",
                    limit: LayoutLimits.maxElementKindBytes
                ),
                at: .key("elementKind")
            )
        }
    }

    mutating func anchor(_ anchor: SupplementaryAnchor, _ key: StaticString) throws(LayoutSolveError) {
        try at(.key(key)) { (v: inout Self) throws(LayoutSolveError) in
            try v.point(anchor.absoluteOffset, "absoluteOffset")
            try v.point(anchor.fractionalOffset, "fractionalOffset")
        }
    }

    /// Boundary items of a section or of the configuration; returns their element kinds.
    mutating func boundaryItems(_ items: [BoundarySupplementaryItem]) throws(LayoutSolveError) -> Set<String> {
        var kinds: Set<String> = []
        try at(.key("boundarySupplementaryItems")) { (v: inout Self) throws(LayoutSolveError) in
            for (index, item) in items.enumerated() {
                try v.at(.index(index)) { (v: inout Self) throws(LayoutSolveError) in
                    try v.elementKind(item.elementKind)
                    guard kinds.insert(item.elementKind).inserted else {
                        throw v.fail(.duplicateElementKind(item.elementKind), at: .key("elementKind"))
                    }
                    try v.size(item.size)
                    try v.zIndex(item.zIndex)
                    try v.point(item.offset, "offset")
                    try v.insets(item.contentInsets)
                    v.warnAboutEstimatedInsets(item.contentInsets, item.size)
                }
            }
        }
        return kinds
    }
}

/// Where a section's keys were declared, for its error paths (``SectionValidator/PathRoot``).
struct SectionPathRoot {
    var index: Int
    var variants: [SectionVariant]
    /// The indices of the variants that apply at the container's width, in order.
    var matching: [Int]

    /// `sections[index]`, or `sections[index].variants[v]` for the last variant that applies
    /// and sets `key` (the one whose value the resolved section has).
    func steps(for key: String) -> [SectionValidator.Step] {
        let root: [SectionValidator.Step] = [.key("sections"), .index(index)]
        let source = matching.last { LayoutSolver.variant(variants[$0], sets: key) }
        return source.map { root + [.key("variants"), .index($0)] } ?? root
    }
}

extension SectionValidator {
    /// Validates a resolved section. Each key's path starts where it was declared (`root`): the
    /// section, or the variant that supplied it when one did.
    mutating func section(
        _ section: LayoutSection,
        scrollDirection: Axis,
        root sectionRoot: SectionPathRoot
    ) throws(LayoutSolveError) {
        // Called on a fresh validator (one per section): only the root needs restoring, and
        // keeping no second reference to `steps` leaves its reserved buffer unshared.
        assert(steps.isEmpty, "a section is validated from an empty path")
        let baseRoot = root
        defer {
            root = baseRoot
            steps.removeAll(keepingCapacity: true)
        }
        func enter(_ key: String) {
            root = .section(sectionRoot, key: key)
            steps.removeAll(keepingCapacity: true)
        }

        enter("contentInsets")
        try insets(section.contentInsets, "contentInsets")
        enter("interGroupSpacing")
        try number(section.interGroupSpacing, "interGroupSpacing", what: "interGroupSpacing")
        if section.itemCount < 0 || section.itemCount > LayoutLimits.maxItemsPerSection {
            enter("itemCount")
            let limit = LayoutLimits.maxItemsPerSection
            throw fail(.limitExceeded(what: "itemCount \(section.itemCount)", limit: limit), at: .key("itemCount"))
        }

        if let list = section.list {
            enter("list")
            steps.append(.key("list"))
            try self.list(list, scrollDirection: scrollDirection)
            // The rest is generated from the list configuration (`ListSection`).
            return
        }

        enter("group")
        steps.append(.key("group"))
        try group(section.group, depth: 0)
        // §5.3 / §9 item 3: flexible edge spacing along the section's axis is ignored.
        // The section's layout axis: the scroll axis, or across it when orthogonal (§1, §8.1).
        let isOrthogonal = section.orthogonalScrollingBehavior != .none
        let axis: Axis = isOrthogonal ? scrollDirection.transposed : scrollDirection
        if section.group.edgeSpacing?.pre(along: axis)?.isFlexible == true
            || section.group.edgeSpacing?.post(along: axis)?.isFlexible == true
        {
            steps.append(.key("edgeSpacing"))
            warn(
                "A NSCollectionLayoutGroup has specified flexible edge spacing along primary layout axis; "
                    + "flexible spacing will be ignored (its minimum is used)"
            )
        }

        enter("supplementariesFollowContentInsets")
        if section.supplementariesFollowContentInsets == true,
            let reference = section.supplementaryContentInsetsReference, reference != .automatic
        {
            throw fail(.conflictingSupplementaryInsets, at: .key("supplementariesFollowContentInsets"))
        }

        enter("boundarySupplementaryItems")
        let kinds = try boundaryItems(section.boundarySupplementaryItems)
        enter("group")
        steps.append(.key("group"))
        if !kinds.isEmpty, let clash = Self.badgeKinds(of: section.group).first(where: { kinds.contains($0) }) {
            throw fail(.duplicateElementKind(clash))
        }
        // Decoration kinds are registered apart from supplementary kinds; unique among themselves.
        enter("decorationItems")
        steps.append(.key("decorationItems"))
        var decorationKinds: Set<String> = []
        for (index, decoration) in section.decorationItems.enumerated() {
            try at(.index(index)) { (v: inout Self) throws(LayoutSolveError) in
                try v.elementKind(decoration.elementKind)
                guard decorationKinds.insert(decoration.elementKind).inserted else {
                    throw v.fail(.duplicateElementKind(decoration.elementKind), at: .key("elementKind"))
                }
                try v.insets(decoration.contentInsets)
                try v.zIndex(decoration.zIndex)
            }
        }
    }

    /// The element kinds of every item and group supplementary in the group tree.
    private static func badgeKinds(of group: LayoutGroup) -> Set<String> {
        var kinds: Set<String> = []
        for supplementary in group.supplementaryItems { kinds.insert(supplementary.elementKind) }
        for element in group.subitems {
            switch element {
            case .item(let item): kinds.formUnion(item.supplementaryItems.map(\.elementKind))
            case .group(let nested): kinds.formUnion(badgeKinds(of: nested))
            }
        }
        return kinds
    }

    /// A list section: vertical layouts only; a row height that is a size; finite insets.
    private mutating func list(_ list: ListConfiguration, scrollDirection: Axis) throws(LayoutSolveError) {
        guard scrollDirection == .vertical else {
            throw fail(.unsupported("list sections need the vertical scroll direction"))
        }
        switch list.itemHeight {
        case .absolute(let value), .estimated(let value):
            guard value.isFinite, value > 0, value <= LayoutLimits.maxMagnitude else {
                throw fail(.invalidValue(what: "dimension", value: value), at: .key("itemHeight"))
            }
        case .fractionalWidth, .fractionalHeight, .uniformAcrossSiblings:
            throw fail(.unsupported("a list row height is absolute or estimated"), at: .key("itemHeight"))
        }
        try at(.key("separatorInsets")) { (v: inout Self) throws(LayoutSolveError) in
            if let leading = list.separatorInsets.leading { try v.number(leading, "leading", what: "inset") }
            if let trailing = list.separatorInsets.trailing { try v.number(trailing, "trailing", what: "inset") }
        }
    }
}

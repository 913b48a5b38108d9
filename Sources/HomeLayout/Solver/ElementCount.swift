/// What a section (or a whole solve) emits, counted before any of it is allocated, so that
/// ``LayoutLimits/maxElementsPerLayout`` and ``LayoutLimits/maxSolveWorkPerSection``
/// bound the result: badges and group supplementaries multiply with the items, list separators
/// follow the rows.
struct ElementCount: Hashable, Sendable, CustomStringConvertible {
    var items = 0
    var boundarySupplementaries = 0
    var badges = 0
    var groupSupplementaries = 0
    /// Section decorations, list separators and the inset-grouped card.
    var decorations = 0
    var restOffsets = 0

    var total: Int {
        items + boundarySupplementaries + badges + groupSupplementaries + decorations + restOffsets
    }

    static func += (lhs: inout ElementCount, rhs: ElementCount) {
        lhs.items += rhs.items
        lhs.boundarySupplementaries += rhs.boundarySupplementaries
        lhs.badges += rhs.badges
        lhs.groupSupplementaries += rhs.groupSupplementaries
        lhs.decorations += rhs.decorations
        lhs.restOffsets += rhs.restOffsets
    }

    /// `3000001 elements (1000000 items, 1 boundary supplementaries, 2000000 badges)`: the total
    /// and every kind that is not zero.
    var description: String {
        let parts: [(Int, String)] = [
            (items, "items"), (boundarySupplementaries, "boundary supplementaries"), (badges, "badges"),
            (groupSupplementaries, "group supplementaries"), (decorations, "decorations"),
            (restOffsets, "rest offsets"),
        ]
        let named = parts.filter { $0.0 != 0 }.map { "\($0.0) \($0.1)" }
        return "\(total) elements" + (named.isEmpty ? "" : " (" + named.joined(separator: ", ") + ")")
    }
}

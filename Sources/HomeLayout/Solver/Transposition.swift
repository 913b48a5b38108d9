/// `scrollDirection: .horizontal` swaps the roles of the axes everywhere (§1). The solver
/// transposes the spec and the container, lays out vertically, and transposes the frames back:
/// x ↔ y, width ↔ height, fractionalWidth ↔ fractionalHeight, top ↔ leading, bottom ↔ trailing.
protocol Transposable {
    var transposed: Self { get }
}

extension Axis: Transposable {
    var transposed: Axis { self == .horizontal ? .vertical : .horizontal }
}

extension Point: Transposable {
    var transposed: Point { Point(x: y, y: x) }
}

extension Rect: Transposable {
    var transposed: Rect { Rect(x: y, y: x, width: height, height: width) }
}

extension Dimension: Transposable {
    var transposed: Dimension {
        switch self {
        case .fractionalWidth(let f): .fractionalHeight(f)
        case .fractionalHeight(let f): .fractionalWidth(f)
        case .absolute, .estimated, .uniformAcrossSiblings: self
        }
    }
}

extension LayoutSize: Transposable {
    var transposed: LayoutSize { LayoutSize(width: height.transposed, height: width.transposed) }
}

extension EdgeInsets: Transposable {
    var transposed: EdgeInsets { EdgeInsets(top: leading, leading: top, bottom: trailing, trailing: bottom) }
}

extension EdgeSpacing: Transposable {
    var transposed: EdgeSpacing { EdgeSpacing(leading: top, top: leading, trailing: bottom, bottom: trailing) }
}

extension BoundaryAlignment: Transposable {
    var transposed: BoundaryAlignment {
        switch self {
        case .top: .leading
        case .leading: .top
        case .bottom: .trailing
        case .trailing: .bottom
        case .topLeading: .topLeading
        case .bottomTrailing: .bottomTrailing
        case .topTrailing: .bottomLeading
        case .bottomLeading: .topTrailing
        }
    }
}

extension AnchorEdges: Transposable {
    var transposed: AnchorEdges {
        var edges: AnchorEdges = []
        if contains(.top) { edges.insert(.leading) }
        if contains(.leading) { edges.insert(.top) }
        if contains(.bottom) { edges.insert(.trailing) }
        if contains(.trailing) { edges.insert(.bottom) }
        return edges
    }
}

extension LayoutItem: Transposable {
    var transposed: LayoutItem {
        LayoutItem(
            size: size.transposed,
            contentInsets: contentInsets.transposed,
            edgeSpacing: edgeSpacing?.transposed,
            supplementaryItems: supplementaryItems.map(\.transposed)
        )
    }
}

extension SupplementaryAnchor: Transposable {
    var transposed: SupplementaryAnchor {
        SupplementaryAnchor(
            edges: edges.transposed,
            absoluteOffset: absoluteOffset.transposed,
            fractionalOffset: fractionalOffset.transposed
        )
    }
}

extension ItemSupplementary: Transposable {
    var transposed: ItemSupplementary {
        var copy = self
        copy.size = size.transposed
        copy.anchor = anchor.transposed
        copy.itemAnchor = itemAnchor?.transposed
        return copy
    }
}

extension LayoutElement: Transposable {
    var transposed: LayoutElement {
        switch self {
        case .item(let item): .item(item.transposed)
        case .group(let group): .group(group.transposed)
        }
    }
}

extension LayoutGroup: Transposable {
    var transposed: LayoutGroup {
        var copy = self
        copy.axis = axis.transposed
        copy.size = size.transposed
        copy.subitems = subitems.map(\.transposed)
        copy.contentInsets = contentInsets.transposed
        copy.edgeSpacing = edgeSpacing?.transposed
        copy.supplementaryItems = supplementaryItems.map(\.transposed)
        return copy
    }
}

extension BoundarySupplementaryItem: Transposable {
    var transposed: BoundarySupplementaryItem {
        var copy = self
        copy.size = size.transposed
        copy.alignment = alignment.transposed
        copy.offset = offset.transposed
        copy.contentInsets = contentInsets.transposed
        return copy
    }
}

extension DecorationItem: Transposable {
    var transposed: DecorationItem {
        var copy = self
        copy.contentInsets = contentInsets.transposed
        return copy
    }
}

extension LayoutSection: Transposable {
    /// Transposes a section whose variants were already resolved.
    var transposed: LayoutSection {
        var copy = self
        copy.group = group.transposed
        copy.contentInsets = contentInsets.transposed
        copy.boundarySupplementaryItems = boundarySupplementaryItems.map(\.transposed)
        copy.decorationItems = decorationItems.map(\.transposed)
        return copy
    }
}

extension LayoutEnvironment: Transposable {
    var transposed: LayoutEnvironment {
        var copy = self
        copy.width = height
        copy.height = width
        copy.safeAreaInsets = safeAreaInsets.transposed
        copy.layoutMargins = layoutMargins.transposed
        copy.readableContentInsets = readableContentInsets.transposed
        return copy
    }
}

@testable import HomeLayout

/// The product's home screen (`feeds/layout.json` at phone width), built in code: the four
/// sections of `shared/seeds/000_*.txt` with the two-column width made fractional.
enum HomeScreenFixture {
    static func abs(_ v: Double) -> Dimension { .absolute(v) }
    static func fw(_ f: Double) -> Dimension { .fractionalWidth(f) }
    static func fh(_ f: Double) -> Dimension { .fractionalHeight(f) }

    static let userHistory = LayoutSection(
        id: "userHistory",
        itemCount: 3,
        group: .vertical(
            LayoutSize(width: fw(1), height: abs(72)),
            [.item(LayoutItem(size: LayoutSize(width: fw(1), height: abs(24))))]
        ),
        contentInsets: EdgeInsets(top: 8, leading: 20, bottom: 16, trailing: 20),
        boundarySupplementaryItems: [
            BoundarySupplementaryItem(
                elementKind: "header",
                size: LayoutSize(width: fw(1), height: abs(60)),
                alignment: .top
            )
        ]
    )

    static let mainService: LayoutSection = {
        let leading = LayoutItem(
            size: LayoutSize(width: fw(0.5), height: fh(1)),
            contentInsets: EdgeInsets(trailing: 6)
        )
        let trailing = LayoutGroup(
            axis: .vertical,
            size: LayoutSize(width: fw(0.5), height: fh(1)),
            subitems: [.item(LayoutItem(size: LayoutSize(width: fw(1), height: fh(0.5))))],
            count: 2,
            interItemSpacing: .fixed(12),
            contentInsets: EdgeInsets(leading: 6)
        )
        let cards = LayoutGroup.horizontal(
            LayoutSize(width: fw(1), height: abs(192)),
            [.item(leading), .group(trailing)]
        )
        var container = LayoutGroup.vertical(
            LayoutSize(width: fw(1), height: .estimated(237)),
            [.item(LayoutItem(size: LayoutSize(width: fw(1), height: .estimated(25)))), .group(cards)]
        )
        container.interItemSpacing = .fixed(12)
        return LayoutSection(
            id: "mainService",
            itemCount: 4,
            group: container,
            contentInsets: EdgeInsets(top: 16, leading: 20, bottom: 12, trailing: 20)
        )
    }()

    static let otherService = LayoutSection(
        id: "otherService",
        itemCount: 5,
        group: .horizontal(
            LayoutSize(width: abs(230), height: abs(90)),
            [.item(LayoutItem(size: LayoutSize(width: abs(218), height: fh(1))))]
        ),
        contentInsets: EdgeInsets(top: 0, leading: 20, bottom: 32, trailing: 0),
        orthogonalScrollingBehavior: .groupPaging
    )

    static let appService: LayoutSection = {
        var row = LayoutGroup.horizontal(
            LayoutSize(width: fw(1), height: abs(120)),
            [.item(LayoutItem(size: LayoutSize(width: fw(0.5), height: fh(1))))]
        )
        row.interItemSpacing = .fixed(12)
        return LayoutSection(
            id: "appService",
            itemCount: 6,
            group: row,
            contentInsets: EdgeInsets(top: 14, leading: 20, bottom: 0, trailing: 20),
            interGroupSpacing: 12,
            boundarySupplementaryItems: [
                BoundarySupplementaryItem(
                    elementKind: "header",
                    size: LayoutSize(width: fw(1), height: abs(44)),
                    alignment: .top
                )
            ]
        )
    }()

    static let spec = LayoutSpec(sections: [userHistory, mainService, otherService, appService])
}

func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

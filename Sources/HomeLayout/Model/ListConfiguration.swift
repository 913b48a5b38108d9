/// A list section: `NSCollectionLayoutSection.list(using:layoutEnvironment:)` with a
/// `UICollectionLayoutListConfiguration`, the way most apps build settings-like screens.
///
/// The solver builds the section's rows, insets, header and footer from it, and reports the
/// separators and the inset-grouped card as decorations; `docs/layout.md` ("List sections")
/// gives every number and where it comes from.
public struct ListConfiguration: Sendable, Hashable {
    /// `UICollectionLayoutListConfiguration.Appearance`.
    public enum Appearance: String, Sendable, Hashable, CaseIterable {
        case plain, grouped, insetGrouped, sidebar, sidebarPlain
    }

    /// `UICollectionLayoutListConfiguration.HeaderMode`.
    public enum HeaderMode: String, Sendable, Hashable, CaseIterable {
        case none
        /// A boundary supplementary of kind `header`.
        case supplementary
        /// The first row is the header (expandable outlines); it is a row like the others.
        case firstItemInSection
    }

    /// `UICollectionLayoutListConfiguration.FooterMode`.
    public enum FooterMode: String, Sendable, Hashable, CaseIterable {
        case none
        /// A boundary supplementary of kind `footer`.
        case supplementary
    }

    public var appearance: Appearance
    public var headerMode: HeaderMode
    public var footerMode: FooterMode
    /// `nil`: the appearance's default, shown except in the sidebar appearances.
    public var showsSeparators: Bool?
    /// `UIListSeparatorConfiguration`'s leading and trailing insets for every separator; an
    /// edge left `nil` is automatic (the layout margin on the leading edge, 0 on the trailing).
    public var separatorInsets: SeparatorInsets
    /// The row height: estimated 44 unless given (self-sizing replaces an estimate). Only
    /// `absolute` and `estimated` make sense for a row and are accepted.
    public var itemHeight: Dimension

    public init(
        appearance: Appearance,
        headerMode: HeaderMode = .none,
        footerMode: FooterMode = .none,
        showsSeparators: Bool? = nil,
        separatorInsets: SeparatorInsets = SeparatorInsets(),
        itemHeight: Dimension = .estimated(44)
    ) {
        self.appearance = appearance
        self.headerMode = headerMode
        self.footerMode = footerMode
        self.showsSeparators = showsSeparators
        self.separatorInsets = separatorInsets
        self.itemHeight = itemHeight
    }

    /// The group UIKit gives a list section: one full-width row of ``itemHeight`` in a vertical
    /// group estimated 1000 tall, which fits to its row, so every repetition is one row.
    var rowGroup: LayoutGroup {
        let row = LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: itemHeight))
        return .vertical(LayoutSize(width: .fractionalWidth(1), height: .estimated(1000)), [.item(row)])
    }

    /// The leading and trailing insets of list separators; `nil` is automatic per edge
    /// (`UIListSeparatorConfiguration.automaticInsets`).
    public struct SeparatorInsets: Sendable, Hashable {
        public var leading: Double?
        public var trailing: Double?

        public init(leading: Double? = nil, trailing: Double? = nil) {
            self.leading = leading
            self.trailing = trailing
        }
    }
}

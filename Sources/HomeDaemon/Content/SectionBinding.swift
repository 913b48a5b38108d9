/// How one layout section is filled: which content, how much, its header, its empty state.
///
/// Declared in the daemon configuration next to the layout (`[section ID]` blocks of
/// `homefeedd.conf`, see `docs/configuration.md`), so the same daemon can serve a different
/// home screen without code changes.
public struct SectionBinding: Sendable, Equatable {
    /// A run of items taken from one kind of content, in order.
    public struct Source: Sendable, Equatable {
        public enum Content: Sendable, Equatable {
            /// The most recent history entries.
            case history
            /// The newest notices, optionally of one source URL.
            case notices(sourceURL: String?)
            /// The service links of one OPML category (`main-service` …), in order.
            case services(category: String)
        }

        /// The most items a run's limit may ask for, and what a history or notices run without
        /// one takes (`[section ID]`'s `items`, `docs/configuration.md`). The snapshot reads
        /// that many rows at most, each through an index: ``ContentReads``.
        public static let maxLimit = 1_000

        public var content: Content
        /// At most this many items, 1 to ``maxLimit``; `nil` takes all (at most ``maxLimit``
        /// history entries or notices).
        public var limit: Int?
        /// Pad the run to exactly `limit` items with placeholders, so later runs keep their
        /// slots (the notice headline above the service cards, even before the first fetch).
        public var isExact: Bool

        public init(_ content: Content, limit: Int? = nil, isExact: Bool = false) {
            self.content = content
            self.limit = limit
            self.isExact = isExact
        }
    }

    /// What the section's header shows.
    public enum Header: Sendable, Equatable {
        case none
        /// The user's name and subtitle (the history header).
        case profile
        /// A fixed title.
        case title(String)
    }

    /// What the section shows when its sources give no items.
    public enum EmptyState: Sendable, Equatable {
        /// No items; headers and footers stay (layout-semantics.md §5.6).
        case headerOnly
        /// One placeholder item with the section's placeholder text.
        case placeholder
        /// Nothing at all: no items and no header.
        case hide
    }

    public var sectionID: String
    public var sources: [Source]
    public var header: Header
    public var empty: EmptyState
    /// Text of placeholder items (exact runs and the `placeholder` empty state).
    public var placeholder: String
    /// How the section's items show their images (`image`, `image-size`).
    public var image = ImageSlot()

    public init(
        sectionID: String,
        sources: [Source],
        header: Header = .none,
        empty: EmptyState = .headerOnly,
        placeholder: String = ""
    ) {
        self.sectionID = sectionID
        self.sources = sources
        self.header = header
        self.empty = empty
        self.placeholder = placeholder
    }

    /// The product's four sections, used for any section the configuration does not bind.
    public static let defaults: [SectionBinding] = [
        SectionBinding(
            sectionID: "userHistory",
            sources: [Source(.history, limit: 3)],
            header: .profile,
            empty: .placeholder,
            placeholder: "No recent activity yet"
        ),
        SectionBinding(
            sectionID: "mainService",
            sources: [
                Source(.notices(sourceURL: nil), limit: 1, isExact: true),
                Source(.services(category: "main-service"), limit: 3),
            ],
            empty: .hide,
            placeholder: "No notices yet"
        ),
        SectionBinding(
            sectionID: "otherService",
            sources: [Source(.services(category: "other-service"))],
            empty: .hide
        ),
        SectionBinding(
            sectionID: "appService",
            sources: [Source(.services(category: "app-service"))],
            header: .title("App services"),
            empty: .hide
        ),
    ]
}

/// One service link to store, as the daemon maps it from an OPML outline.
public struct ServiceLinkInput: Sendable, Hashable {
    /// The link's title.
    public var title: String
    /// The link's target URL.
    public var url: String
    /// The target section's key, e.g. `main-service`; empty when the link names none.
    public var section: String
    /// An icon URL or name, if the document gives one.
    public var icon: String?
    /// A short description, if the document gives one.
    public var description: String?
    /// Position within the section; links are listed by ascending order.
    public var order: Int

    /// Creates a link to store.
    public init(
        title: String,
        url: String,
        section: String,
        icon: String? = nil,
        description: String? = nil,
        order: Int
    ) {
        self.title = title
        self.url = url
        self.section = section
        self.icon = icon
        self.description = description
        self.order = order
    }
}

/// A stored service link. Sendable: a plain value.
public struct StoredServiceLink: Sendable, Hashable, Identifiable {
    /// The row id.
    public var id: Int64
    /// The services source (`Source.id`) the link came from.
    public var sourceID: Int64
    /// The link's title.
    public var title: String
    /// The link's target URL.
    public var url: String
    /// The target section's key, e.g. `main-service`; empty when the link names none.
    public var section: String
    /// An icon URL or name, if the document gives one.
    public var icon: String?
    /// A short description, if the document gives one.
    public var description: String?
    /// Position within the section.
    public var order: Int
}

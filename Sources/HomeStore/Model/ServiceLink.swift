/// One service link to store, as the daemon maps it from an OPML outline.
public struct ServiceLinkInput: Sendable, Hashable {
    public var title: String
    public var url: String
    /// The target section, e.g. `/main-service`.
    public var section: String
    public var icon: String?
    public var description: String?
    /// Position within the section; links are listed by ascending order.
    public var order: Int

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
public struct ServiceLink: Sendable, Hashable, Identifiable {
    public var id: Int64
    public var sourceID: Int64
    public var title: String
    public var url: String
    public var section: String
    public var icon: String?
    public var description: String?
    public var order: Int
}

public import FoundationEssentials

/// A user action to remember (opening a service or a notice).
public struct HistoryInput: Sendable, Hashable {
    /// When it happened; stored in whole seconds.
    public var time: Date
    /// The title shown for it.
    public var title: String
    /// The link that was opened, if any.
    public var link: String?
    /// What was opened, e.g. `"service"` or `"notice"`; free text for the daemon to define.
    public var kind: String

    /// Creates a history event to record.
    public init(time: Date, title: String, link: String? = nil, kind: String) {
        self.time = time
        self.title = title
        self.link = link
        self.kind = kind
    }
}

/// A stored history event. Sendable: a plain value.
public struct HistoryEvent: Sendable, Hashable, Identifiable {
    /// The row id, as returned by ``Store/recordHistory(_:)``.
    public var id: Int64
    /// When it happened; stored in whole seconds.
    public var time: Date
    /// The title shown for it.
    public var title: String
    /// The link that was opened, if any.
    public var link: String?
    /// What was opened, as recorded.
    public var kind: String
}

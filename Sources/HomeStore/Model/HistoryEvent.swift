public import Foundation

/// A user action to remember (opening a service or a notice).
public struct HistoryInput: Sendable, Hashable {
    public var time: Date
    public var title: String
    public var link: String?
    /// What was opened, e.g. `"service"` or `"notice"`; free text for the daemon to define.
    public var kind: String

    public init(time: Date, title: String, link: String? = nil, kind: String) {
        self.time = time
        self.title = title
        self.link = link
        self.kind = kind
    }
}

/// A stored history event. Sendable: a plain value.
public struct HistoryEvent: Sendable, Hashable, Identifiable {
    public var id: Int64
    public var time: Date
    public var title: String
    public var link: String?
    public var kind: String
}

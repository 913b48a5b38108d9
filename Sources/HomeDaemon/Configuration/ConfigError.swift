import HomeLayout

/// A configuration problem, naming the file, line and key: `homefeedd.conf:14: refresh-interval:
/// expected a duration like 15m, got "soon"`.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var key: String?
    public var reason: String
    /// The file is the layout the configuration names (`layout` in homefeedd.conf): it cannot
    /// be read, decoded or solved. `Reload()` answers `InvalidLayout` for it, whatever the file
    /// is called, and `InvalidArgument` for the other files.
    public var isLayout: Bool

    public init(file: String, line: Int? = nil, key: String? = nil, reason: String, isLayout: Bool = false) {
        self.file = file
        self.line = line
        self.key = key
        self.reason = reason
        self.isLayout = isLayout
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let key { text += ": \(key)" }
        return text + ": " + reason
    }
}

extension ConfigError {
    /// A layout that cannot be solved: the layout file, the JSON path of the element involved,
    /// then `context` (at which profile, with what) and what is wrong.
    init(file: String, unsolvable error: LayoutSolveError, context: String) {
        self.init(
            file: file,
            key: error.path.isEmpty ? nil : error.path,
            reason: "\(context): \(error.message)",
            isLayout: true
        )
    }
}

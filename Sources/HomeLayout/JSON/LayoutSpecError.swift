/// Why a layout spec could not be decoded, and exactly where (`layout-spec-format.md`).
///
/// `path` is the JSON path (`sections[1].group.subitems[0].size.width`); syntax errors also
/// carry the 1-based line and column. The description is one line:
/// `sections[1].group.subitems[0].size.width: expected one of fractionalWidth, …; found "fractional"`.
public struct LayoutSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var column: Int?
    public var reason: String

    public init(path: String, line: Int? = nil, column: Int? = nil, reason: String) {
        self.path = path
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String {
        var location = path.isEmpty ? "$" : path
        if let line, let column { location = "line \(line), column \(column)" + (path.isEmpty ? "" : " (\(path))") }
        return "\(location): \(reason)"
    }
}

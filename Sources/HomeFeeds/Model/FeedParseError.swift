/// Why a document could not be turned into a feed or OPML document.
///
/// A struct with a `kind` plus context (style.md §3.1): callers switch on `kind`, logs print
/// `description`, a single line `URL:line:column: message` that never includes feed bodies.
public struct FeedParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The body is empty or only whitespace.
        case empty
        /// libxml2 could not find a document element; `code` is libxml2's error number.
        case malformedXML(code: Int)
        /// The root element (or JSON object) is not a feed or OPML format we read.
        case unsupportedFormat
        /// The JSON Feed document is not valid JSON or not a JSON Feed.
        case malformedJSON
        /// The HTTP charset or the document names an encoding libxml2 cannot convert.
        case unsupportedEncoding(String)
        /// One of `FeedParseLimits` was exceeded; the payload names it.
        case limitExceeded(Limit)
    }

    /// The limit behind `Kind.limitExceeded`.
    public enum Limit: String, Sendable, Equatable {
        case bodyBytes = "body bytes"
        case depth = "element depth"
        case fieldBytes = "text bytes per field"
        case totalTextBytes = "text bytes per document"
        case parseDuration = "parse time"
    }

    public var kind: Kind
    /// The feed URL the document came from.
    public var source: String
    /// 1-based line and column when libxml2 knows them.
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(kind: Kind, source: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.kind = kind
        self.source = source
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var location = source
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return "\(location): \(message)"
    }
}

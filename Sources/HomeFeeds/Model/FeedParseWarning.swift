/// Something the parser recovered from or left out while reading a document that still parsed:
/// a broken XML construct, bytes replaced by U+FFFD, an encoding fallback, a dropped entry or
/// link. Listed in the output JSON (`warnings`) so a recovered parse is never silent.
///
/// Sendable: an immutable value.
public struct FeedParseWarning: Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the document, when the warning has a position.
    public var line: Int?
    /// 1-based column in characters of the decoded text, when the warning has a position.
    public var column: Int?
    /// One line of plain text; never more than a short excerpt of the document.
    public var message: String

    public init(line: Int? = nil, column: Int? = nil, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line:column: message`, or the message alone when there is no position.
    public var description: String {
        guard let line else { return message }
        return "\(line):\(column ?? 0): \(message)"
    }
}

/// Collects the warnings of one parse: the first `limit` in document order are kept, those
/// without a position first, the rest only counted, so a document with a million broken bytes
/// cannot grow the result without bound. A warning without a position (the entry limit, an HTTP
/// charset) raised once the list is full takes the place of the last positioned one: the
/// entry limit is never crowded out by the recoveries before it.
struct WarningLog {
    /// How many warnings a result lists; `ParsedFeed.warningCount` counts them all.
    static let limit = 20

    private(set) var kept: [FeedParseWarning] = []
    private(set) var count = 0

    mutating func add(_ warning: FeedParseWarning) {
        // libxml2 re-parses a start tag whose buffer moved, so the same event can be reported
        // twice in a row; a repeat of the last warning is not a new one.
        if kept.last == warning { return }
        count += 1
        if kept.count < Self.limit {
            kept.append(warning)
        } else if warning.line == nil, let last = lastPositioned {
            kept.remove(at: last)
            kept.append(warning)
        }
    }

    /// The index of the kept warning with a position that comes last in document order.
    private var lastPositioned: Int? {
        kept.indices.filter { kept[$0].line != nil }.max { lhs, rhs in
            (kept[lhs].line ?? 0, kept[lhs].column ?? 0, lhs) < (kept[rhs].line ?? 0, kept[rhs].column ?? 0, rhs)
        }
    }

    /// True once `limit` warnings are kept: later ones are only counted.
    var isFull: Bool { kept.count >= Self.limit }

    mutating func add(line: Int?, column: Int?, _ message: String) {
        add(FeedParseWarning(line: line, column: column, message: message))
    }

    /// Counts `count` more warnings that could not be listed any more: more of a kind whose
    /// first `limit` were added already, so not kept to be counted.
    mutating func addUnlisted(_ count: Int) {
        self.count += max(0, count)
    }

    /// Adds the warnings of another log of the same parse (the decoder's): the first `limit`
    /// in document order stay listed, all are counted.
    mutating func merge(_ other: WarningLog) {
        count += other.count
        kept = Array(Self.inDocumentOrder(kept + other.kept).prefix(Self.limit))
    }

    /// The kept warnings in document order (those without a position first), stable otherwise.
    var sorted: [FeedParseWarning] { Self.inDocumentOrder(kept) }

    private static func inDocumentOrder(_ warnings: [FeedParseWarning]) -> [FeedParseWarning] {
        warnings.enumerated().sorted { lhs, rhs in
            let left = (lhs.element.line ?? 0, lhs.element.column ?? 0, lhs.offset)
            let right = (rhs.element.line ?? 0, rhs.element.column ?? 0, rhs.offset)
            return left < right
        }.map(\.element)
    }
}

/// A short, single-line excerpt of document text for a warning message: controls become
/// spaces and anything past `maxCharacters` is cut with an ellipsis.
func excerpt(_ text: String, maxCharacters: Int = 60) -> String {
    var out = ""
    for (index, character) in text.enumerated() {
        if index == maxCharacters {
            out += "…"
            break
        }
        out.append(character.isNewline || character.asciiValue.map { $0 < 0x20 } == true ? " " : character)
    }
    return out
}

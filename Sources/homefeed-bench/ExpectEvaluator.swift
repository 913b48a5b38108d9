import Foundation
import HomeFeeds

/// Decides an `ExpectExpression` against homefeed's result for the same document.
///
/// feedparser keeps markup and raw date strings where homefeed gives plain text and one
/// instant, so a comparison holds when homefeed's value is what the contract makes of
/// feedparser's expected one:
/// - text (titles, summaries): equal as written, or equal to the expected value read as HTML
///   (tags stripped, entities decoded once, white space folded) or with white space folded;
/// - links: equal, or equal once the expected IRI is percent-encoded;
/// - dates (any of feedparser's date keys, homefeed has the one `published`): the same
///   instant, from an expected date string or a `time.struct_time` tuple (its first six fields);
/// - `ord(x) == n`: x is the single character n.
/// `bozo` is `!wellFormed` when `withBozo`, else the clause is left out of the line.
struct ExpectEvaluator {
    let document: FeedDocument?
    let withBozo: Bool

    /// True or false, or nil when the line holds no clause this mode compares.
    func holds(_ expression: ExpectExpression) -> Bool? {
        switch expression {
        case .bozo:
            guard withBozo else { return nil }
            return !(document?.isWellFormed ?? false)
        case .not(let inner):
            return holds(inner).map(!)
        case .and(let parts):
            let results = parts.compactMap(holds)
            return results.isEmpty ? nil : results.allSatisfy { $0 }
        case .equal(let parts):
            let values = parts.map(value)
            for index in 1..<values.count where !Self.matches(values[index - 1], values[index]) { return false }
            return true
        case .notEqual(let lhs, let rhs):
            return !Self.matches(value(lhs), value(rhs))
        case .integer(let number):
            return number != 0
        default:
            return nil
        }
    }

    enum Value {
        case text(String?)
        case link(String?)
        case date(FeedTimestamp?)
        case string(String)
        case integer(Int)
        case tuple([Int])
        case missing
    }

    func value(_ expression: ExpectExpression) -> Value {
        switch expression {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .tuple(let numbers): return .tuple(numbers)
        case .entryCount:
            guard case .feed(let feed)? = document else { return .missing }
            return .integer(feed.entries.count)
        case .ord(let inner):
            guard case .text(let text?) = value(inner), text.unicodeScalars.count == 1,
                let scalar = text.unicodeScalars.first
            else { return .missing }
            return .integer(Int(scalar.value))
        case .field(let index, let key):
            guard case .feed(let feed)? = document else { return .missing }
            guard let index else { return key == "link" ? .link(feed.link) : .text(feed.title) }
            guard index < feed.entries.count else { return .missing }
            let entry = feed.entries[index]
            switch key {
            case "id": return .text(entry.id)
            case "title": return .text(entry.title)
            case "link": return .link(entry.link)
            case "summary", "description": return .text(entry.summary)
            default: return .date(entry.published)
            }
        default:
            return .missing
        }
    }

    static func matches(_ lhs: Value, _ rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.text(let actual), .string(let expected)), (.string(let expected), .text(let actual)):
            guard let actual else { return expected.isEmpty }
            return actual == expected || actual == folded(expected) || actual == plain(html: expected)
        case (.link(let actual), .string(let expected)), (.string(let expected), .link(let actual)):
            guard let actual else { return expected.isEmpty }
            return actual == expected || actual == percentEncoded(expected)
        case (.date(let actual), .string(let expected)), (.string(let expected), .date(let actual)):
            return actual != nil && actual == FeedTimestamp(parsing: expected)
        case (.date(let actual), .tuple(let fields)), (.tuple(let fields), .date(let actual)):
            guard fields.count >= 6 else { return false }
            let text = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02dZ",
                fields[0],
                fields[1],
                fields[2],
                fields[3],
                fields[4],
                fields[5]
            )
            return actual != nil && actual == FeedTimestamp(parsing: text)
        case (.integer(let left), .integer(let right)): return left == right
        case (.string(let left), .string(let right)): return left == right
        case (.text(let left), .text(let right)): return left == right
        case (.link(let left), .link(let right)): return left == right
        case (.date(let left), .date(let right)): return left == right
        default: return false
        }
    }

    /// White space runs as one space, trimmed (the contract's rule 3).
    static func folded(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Tags dropped (block elements as spaces), the common entities decoded, white space folded.
    static func plain(html: String) -> String {
        var out = ""
        var inTag = false
        var tag = ""
        for character in html {
            if inTag {
                if character == ">" {
                    inTag = false
                    let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                    if ["p", "div", "br", "li", "tr", "td", "h1", "h2", "h3", "blockquote", "pre"].contains(name) {
                        out += " "
                    }
                } else {
                    tag.append(character)
                }
            } else if character == "<" {
                inTag = true
                tag = ""
            } else {
                out.append(character)
            }
        }
        for (entity, replacement) in [
            ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&#39;", "'"), ("&amp;", "&"),
        ] {
            out = out.replacingOccurrences(of: entity, with: replacement)
        }
        return folded(out)
    }

    static func percentEncoded(_ link: String) -> String {
        var out = ""
        for byte in link.utf8 {
            if byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}

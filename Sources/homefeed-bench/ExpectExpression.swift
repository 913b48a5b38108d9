/// The subset of Python that feedparser's test corpus writes its `Expect:` lines in, as far as
/// they speak of what homefeed exposes: `bozo`, `feed['title']`/`feed.link`,
/// `entries[N]['id'|'title'|'link'|'summary'|'description'|<date>]`, `len(entries)`,
/// `ord(…)`, string, integer and tuple literals, chained `==`, `!=`, `and`, `not`.
///
/// Anything else (`encoding`, `bozo_exception`, `title_detail`, `isinstance`…) parses to
/// `.unsupported`, which takes the whole line out of the count: `CorpusBenchmark` compares
/// only lines entirely about exposed fields.
indirect enum ExpectExpression {
    case bozo
    case string(String)
    case integer(Int)
    case tuple([Int])
    /// `feed[key]` (entry nil) or `entries[entry][key]`.
    case field(entry: Int?, key: String)
    case entryCount
    case ord(ExpectExpression)
    /// `a == b == c` holds when every neighbouring pair does.
    case equal([ExpectExpression])
    case notEqual(ExpectExpression, ExpectExpression)
    case and([ExpectExpression])
    case not(ExpectExpression)
    case unsupported

    /// Keys homefeed has a value for: its feed title and link; its entry id, title, link,
    /// summary, and the one date (`published`) every date field of feedparser maps onto.
    static let feedKeys: Set<String> = ["title", "link"]
    static let entryKeys: Set<String> = {
        var keys: Set<String> = ["id", "title", "link", "summary", "description"]
        for date in ["published", "updated", "created", "issued", "modified", "date"] {
            keys.insert(date)
            keys.insert(date + "_parsed")
        }
        return keys
    }()

    static func parse(_ text: String) -> ExpectExpression {
        var parser = Parser(tokens: tokenize(text))
        let expression = parser.orLevel()
        return parser.isAtEnd ? expression : .unsupported
    }

    /// True when the line speaks of at least one exposed field and of nothing unexposed.
    var isOnExposedFields: Bool {
        var fields = 0
        var isSupported = true
        visit { node in
            switch node {
            case .field: fields += 1
            case .entryCount: fields += 1
            case .unsupported: isSupported = false
            default: break
            }
        }
        return isSupported && fields > 0
    }

    private func visit(_ body: (ExpectExpression) -> Void) {
        body(self)
        switch self {
        case .ord(let inner), .not(let inner): inner.visit(body)
        case .equal(let parts), .and(let parts): for part in parts { part.visit(body) }
        case .notEqual(let lhs, let rhs):
            lhs.visit(body)
            rhs.visit(body)
        default: break
        }
    }

    // MARK: Tokens

    enum Token: Equatable {
        case name(String)
        case string(String)
        case integer(Int)
        case symbol(String)
    }

    static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == " " || scalar == "\t" {
                index += 1
            } else if scalar == "'" || scalar == "\"" {
                var value = ""
                index += 1
                while index < scalars.count && scalars[index] != scalar {
                    if scalars[index] == "\\" && index + 1 < scalars.count {
                        index += 1
                        let (decoded, used) = escape(scalars, at: index)
                        value.unicodeScalars.append(contentsOf: decoded)
                        index += used
                    } else {
                        value.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                }
                index += 1
                tokens.append(.string(value))
            } else if scalar.properties.numericType != nil && scalar.isASCII {
                var digits = ""
                while index < scalars.count, scalars[index].isASCII, scalars[index].properties.numericType != nil {
                    digits.unicodeScalars.append(scalars[index])
                    index += 1
                }
                tokens.append(.integer(Int(digits) ?? 0))
            } else if scalar.properties.isAlphabetic || scalar == "_" {
                var name = ""
                while index < scalars.count,
                    scalars[index].properties.isAlphabetic || scalars[index] == "_"
                        || (scalars[index].isASCII && scalars[index].properties.numericType != nil)
                {
                    name.unicodeScalars.append(scalars[index])
                    index += 1
                }
                // u'…' and b'…' prefixes: Python 2 leftovers in the corpus.
                if name == "u" || name == "b", index < scalars.count, scalars[index] == "'" || scalars[index] == "\"" {
                    continue
                }
                tokens.append(.name(name))
            } else if index + 1 < scalars.count,
                ["==", "!=", ">=", "<="].contains(String(scalar) + String(scalars[index + 1]))
            {
                tokens.append(.symbol(String(scalar) + String(scalars[index + 1])))
                index += 2
            } else {
                tokens.append(.symbol(String(scalar)))
                index += 1
            }
        }
        return tokens
    }

    /// A Python escape after its backslash: `\xHH`, `\uHHHH`, `\UHHHHHHHH`, `\n`, `\t`, `\\`…
    private static func escape(_ scalars: [Unicode.Scalar], at index: Int) -> ([Unicode.Scalar], Int) {
        let letter = scalars[index]
        let width = letter == "x" ? 2 : letter == "u" ? 4 : letter == "U" ? 8 : 0
        if width > 0, index + width < scalars.count {
            let hex = String(String.UnicodeScalarView(scalars[(index + 1)...(index + width)]))
            if let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) { return ([decoded], width + 1) }
        }
        switch letter {
        case "n": return (["\n"], 1)
        case "t": return (["\t"], 1)
        case "r": return (["\r"], 1)
        default: return ([letter], 1)
        }
    }

    // MARK: Grammar

    struct Parser {
        var tokens: [Token]
        var position = 0

        var isAtEnd: Bool { position >= tokens.count }

        mutating func take(_ symbol: Token) -> Bool {
            guard position < tokens.count, tokens[position] == symbol else { return false }
            position += 1
            return true
        }

        mutating func orLevel() -> ExpectExpression {
            let first = andLevel()
            // `or` never appears in a line about exposed fields; treat it as unsupported.
            if take(.name("or")) {
                _ = orLevel()
                return .unsupported
            }
            return first
        }

        mutating func andLevel() -> ExpectExpression {
            var parts = [notLevel()]
            while take(.name("and")) { parts.append(notLevel()) }
            return parts.count == 1 ? parts[0] : .and(parts)
        }

        mutating func notLevel() -> ExpectExpression {
            if take(.name("not")) { return .not(notLevel()) }
            return comparison()
        }

        mutating func comparison() -> ExpectExpression {
            let first = term()
            if take(.symbol("!=")) { return .notEqual(first, term()) }
            var parts = [first]
            while take(.symbol("==")) { parts.append(term()) }
            if position < tokens.count, case .symbol(let symbol) = tokens[position],
                ["<", ">", ">=", "<="].contains(symbol)
            {
                return .unsupported
            }
            return parts.count == 1 ? parts[0] : .equal(parts)
        }

        mutating func term() -> ExpectExpression {
            guard position < tokens.count else { return .unsupported }
            let token = tokens[position]
            position += 1
            switch token {
            case .string(let value): return .string(value)
            case .integer(let value): return .integer(value)
            case .symbol("("):
                var values: [Int] = []
                while position < tokens.count, case .integer(let value) = tokens[position] {
                    values.append(value)
                    position += 1
                    _ = take(.symbol(","))
                }
                return take(.symbol(")")) ? .tuple(values) : .unsupported
            case .name("bozo"): return .bozo
            case .name("ord"), .name("len"):
                guard take(.symbol("(")) else { return .unsupported }
                let inner = orLevel()
                guard take(.symbol(")")) else { return .unsupported }
                if token == .name("len") {
                    if case .field(nil, "entries") = inner { return .entryCount }
                    return .unsupported
                }
                return .ord(inner)
            case .name("feed"): return subscripted(entry: nil)
            case .name("entries"):
                guard take(.symbol("[")), position < tokens.count, case .integer(let entry) = tokens[position] else {
                    return .field(entry: nil, key: "entries")
                }
                position += 1
                guard take(.symbol("]")) else { return .unsupported }
                return subscripted(entry: entry)
            default: return .unsupported
            }
        }

        /// `['key']` or `.key` after `feed` or `entries[N]`; a deeper path is unsupported.
        mutating func subscripted(entry: Int?) -> ExpectExpression {
            var key: String?
            if take(.symbol("[")), position < tokens.count, case .string(let value) = tokens[position] {
                position += 1
                key = take(.symbol("]")) ? value : nil
            } else if take(.symbol(".")), position < tokens.count, case .name(let value) = tokens[position] {
                position += 1
                key = value
            }
            guard let key,
                position >= tokens.count || (tokens[position] != .symbol("[") && tokens[position] != .symbol("."))
            else { return .unsupported }
            let known = entry == nil ? ExpectExpression.feedKeys : ExpectExpression.entryKeys
            return known.contains(key) ? .field(entry: entry, key: key) : .unsupported
        }
    }
}

public import FoundationEssentials

/// Every failure `HomeStore` reports: an SQLite error with its code, message and SQL, or a
/// store-level refusal (a database newer than this code, an unknown source, a clock that is behind).
///
/// The description is one line and safe to log: SQL is shown with its `?` placeholders,
/// never with bound values (feed text, URLs with credentials), and is shortened when long.
/// For example:
/// `SQLITE_CONSTRAINT_UNIQUE (2067): UNIQUE constraint failed: sources.url in INSERT INTO sources …`.
/// Sendable: a plain value.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a closed set of cases.
    public enum Kind: Sendable, Hashable {
        /// SQLite returned an error; the extended result code.
        case sqlite(ResultCode)
        /// The file records migrations this code does not know: it was written by a newer
        /// homefeed. It is left untouched.
        case newerDatabase(unknownMigrations: [String])
        /// The file is an SQLite database of another application (its `application_id`
        /// is not homefeed's). It is left untouched.
        case foreignDatabase(applicationID: Int32)
        /// No source is stored under the given URL.
        case unknownSource(url: String)
        /// The source exists but is of the other kind (notices vs. services).
        case wrongSourceKind(url: String, kind: SourceKind)
        /// A history event older than every one kept while the history is full: the trim would
        /// remove it at once. Nothing is written. `oldestKept` is nil when the limit keeps none.
        case historyEventTooOld(oldestKept: Date?)
        /// The clock (`now`) is more than a day behind `latest`, the newest time the store
        /// recorded: a notices ingest or a retention pass would date and prune rows by a clock
        /// that is behind (a device without a battery-backed clock, before NTP). Nothing is
        /// written; the same call succeeds once the clock is right.
        case clockBehind(now: Date, latest: Date)
    }

    /// The case, with the data a caller can match on.
    public var kind: Kind
    /// SQLite's message (`sqlite3_errmsg`) or the store's own explanation.
    public var message: String
    /// The statement that failed, with placeholders, when there is one.
    public var sql: String?

    /// Creates an error; `sql` keeps its placeholders and never holds bound values.
    public init(kind: Kind, message: String, sql: String? = nil) {
        self.kind = kind
        self.message = message
        self.sql = sql
    }

    /// The extended SQLite result code, when SQLite reported the error.
    public var resultCode: ResultCode? {
        if case .sqlite(let code) = kind { return code }
        return nil
    }

    /// One line: code, message and (shortened) SQL.
    public var description: String {
        var line: String
        if let code = resultCode {
            line = "\(code): \(message)"
        } else {
            line = message
        }
        if let sql {
            line += " in " + Self.shortened(sql)
        }
        return line
    }

    /// Collapses whitespace runs to one space and cuts after 160 characters.
    static func shortened(_ sql: String) -> String {
        var result = ""
        var lastWasSpace = false
        var count = 0
        for character in sql {
            if character.isWhitespace {
                if !lastWasSpace && !result.isEmpty {
                    result.append(" ")
                    count += 1
                }
                lastWasSpace = true
            } else {
                result.append(character)
                count += 1
                lastWasSpace = false
            }
            if count >= 160 {
                return result + " …"
            }
        }
        return lastWasSpace ? String(result.dropLast()) : result
    }
}

/// An SQLite result code, primary or extended (<https://sqlite.org/rescode.html>).
///
/// The connection runs with extended result codes on, so errors carry the extended code
/// (`SQLITE_CONSTRAINT_UNIQUE`, 2067); ``primary`` is its low byte (`SQLITE_CONSTRAINT`, 19).
/// Match a class of errors with `code.primary == .constraint`, an exact one with
/// `code == .constraintUnique`. Sendable: a plain value.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code as SQLite returns it.
    public var rawValue: Int32

    /// Wraps a numeric SQLite result code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low 8 bits of an extended code.
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// The C name, such as `SQLITE_CONSTRAINT_UNIQUE`; an extended code this table does not
    /// know is named after its primary code, e.g. `SQLITE_IOERR`.
    public var name: String {
        if let name = Self.extendedNames[rawValue] { return name }
        return Self.primaryNames[rawValue & 0xFF] ?? "SQLITE_UNKNOWN"
    }

    /// `SQLITE_CONSTRAINT_UNIQUE (2067)`.
    public var description: String { "\(name) (\(rawValue))" }

    /// `SQLITE_ERROR`: a generic error, such as an SQL syntax error.
    public static let error = ResultCode(rawValue: 1)
    /// `SQLITE_BUSY`: another connection holds the lock past the busy timeout.
    public static let busy = ResultCode(rawValue: 5)
    /// `SQLITE_READONLY`.
    public static let readOnly = ResultCode(rawValue: 8)
    /// `SQLITE_INTERRUPT`: `sqlite3_interrupt` ended the statement (``StoreOpeningStop``).
    public static let interrupt = ResultCode(rawValue: 9)
    /// `SQLITE_CORRUPT`.
    public static let corrupt = ResultCode(rawValue: 11)
    /// `SQLITE_CORRUPT_INDEX`: an index entry disagrees with its table (`REINDEX` mends it).
    public static let corruptIndex = ResultCode(rawValue: 779)
    /// `SQLITE_CANTOPEN`.
    public static let cantOpen = ResultCode(rawValue: 14)
    /// `SQLITE_CONSTRAINT`, the primary code of every constraint violation.
    public static let constraint = ResultCode(rawValue: 19)
    /// `SQLITE_MISUSE`.
    public static let misuse = ResultCode(rawValue: 21)
    /// `SQLITE_NOTADB`: the file is not an SQLite database.
    public static let notADatabase = ResultCode(rawValue: 26)
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`.
    public static let constraintForeignKey = ResultCode(rawValue: 787)
    /// `SQLITE_CONSTRAINT_NOTNULL`.
    public static let constraintNotNull = ResultCode(rawValue: 1299)
    /// `SQLITE_CONSTRAINT_UNIQUE`.
    public static let constraintUnique = ResultCode(rawValue: 2067)

    private static let primaryNames: [Int32: String] = [
        0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT",
        5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT",
        10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN",
        15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG",
        19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS",
        23: "SQLITE_AUTH", 24: "SQLITE_FORMAT", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB", 27: "SQLITE_NOTICE",
        28: "SQLITE_WARNING", 100: "SQLITE_ROW", 101: "SQLITE_DONE",
    ]

    private static let extendedNames: [Int32: String] = [
        261: "SQLITE_BUSY_RECOVERY", 517: "SQLITE_BUSY_SNAPSHOT", 773: "SQLITE_BUSY_TIMEOUT",
        262: "SQLITE_LOCKED_SHAREDCACHE", 518: "SQLITE_LOCKED_VTAB",
        264: "SQLITE_READONLY_RECOVERY", 520: "SQLITE_READONLY_CANTLOCK", 776: "SQLITE_READONLY_ROLLBACK",
        1032: "SQLITE_READONLY_DBMOVED", 1288: "SQLITE_READONLY_CANTINIT", 1544: "SQLITE_READONLY_DIRECTORY",
        266: "SQLITE_IOERR_READ", 522: "SQLITE_IOERR_SHORT_READ", 778: "SQLITE_IOERR_WRITE",
        1034: "SQLITE_IOERR_FSYNC", 1290: "SQLITE_IOERR_DIR_FSYNC", 1546: "SQLITE_IOERR_TRUNCATE",
        3082: "SQLITE_IOERR_NOMEM", 3338: "SQLITE_IOERR_ACCESS", 4874: "SQLITE_IOERR_SHMOPEN",
        5386: "SQLITE_IOERR_SHMMAP",
        267: "SQLITE_CORRUPT_VTAB", 523: "SQLITE_CORRUPT_SEQUENCE", 779: "SQLITE_CORRUPT_INDEX",
        270: "SQLITE_CANTOPEN_NOTEMPDIR", 526: "SQLITE_CANTOPEN_ISDIR", 782: "SQLITE_CANTOPEN_FULLPATH",
        275: "SQLITE_CONSTRAINT_CHECK", 531: "SQLITE_CONSTRAINT_COMMITHOOK", 787: "SQLITE_CONSTRAINT_FOREIGNKEY",
        1043: "SQLITE_CONSTRAINT_FUNCTION", 1299: "SQLITE_CONSTRAINT_NOTNULL", 1555: "SQLITE_CONSTRAINT_PRIMARYKEY",
        1811: "SQLITE_CONSTRAINT_TRIGGER", 2067: "SQLITE_CONSTRAINT_UNIQUE", 2323: "SQLITE_CONSTRAINT_VTAB",
        2579: "SQLITE_CONSTRAINT_ROWID", 3091: "SQLITE_CONSTRAINT_DATATYPE",
    ]
}

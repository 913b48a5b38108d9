internal import CSQLite
public import FoundationEssentials

/// A Swift value that can be bound to a statement parameter.
///
/// Conformances: `Int`, `Int64`, `Int32`, `Double`, `Bool` (0/1), `String` (UTF-8 text),
/// `[UInt8]` (blob) and `Date` (whole Unix seconds, see ``SQLDate``). `nil` binds NULL.
package protocol SQLBindable {
    /// Binds `self` to parameter `index` (1-based) and returns SQLite's result code.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

/// A Swift value that can be read from a result column that is not NULL.
package protocol SQLColumnDecodable {
    /// Reads column `index` (0-based) of the current row; called only when it is not NULL.
    static func decode(from statement: OpaquePointer, at index: Int32) -> Self
}

/// Both directions.
package typealias SQLValue = SQLBindable & SQLColumnDecodable

extension Int64: SQLBindable, SQLColumnDecodable {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self)
    }
    package static func decode(from statement: OpaquePointer, at index: Int32) -> Int64 {
        sqlite3_column_int64(statement, index)
    }
}

extension Int: SQLBindable, SQLColumnDecodable {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
    package static func decode(from statement: OpaquePointer, at index: Int32) -> Int {
        Int(sqlite3_column_int64(statement, index))
    }
}

extension Int32: SQLBindable, SQLColumnDecodable {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int(statement, index, self)
    }
    package static func decode(from statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_column_int(statement, index)
    }
}

extension Double: SQLBindable, SQLColumnDecodable {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, self)
    }
    package static func decode(from statement: OpaquePointer, at index: Int32) -> Double {
        sqlite3_column_double(statement, index)
    }
}

extension Bool: SQLBindable, SQLColumnDecodable {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int(statement, index, self ? 1 : 0)
    }
    package static func decode(from statement: OpaquePointer, at index: Int32) -> Bool {
        sqlite3_column_int64(statement, index) != 0
    }
}

extension String: SQLBindable, SQLColumnDecodable {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        var text = self
        return text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, utf8.count > 0 else {
                // A nil pointer would bind NULL; an empty string is not NULL.
                return csqlite_bind_text_transient(statement, index, "", 0)
            }
            guard utf8.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                csqlite_bind_text_transient(statement, index, $0, Int32(utf8.count))
            }
        }
    }
    package static func decode(from statement: OpaquePointer, at index: Int32) -> String {
        // column_text before column_bytes, as sqlite.org/c3ref/column_blob.html advises.
        guard let text = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

extension Array: SQLBindable, SQLColumnDecodable where Element == UInt8 {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                return sqlite3_bind_zeroblob(statement, index, 0)
            }
            guard bytes.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
            return csqlite_bind_blob_transient(statement, index, base, Int32(bytes.count))
        }
    }
    package static func decode(from statement: OpaquePointer, at index: Int32) -> [UInt8] {
        guard let blob = sqlite3_column_blob(statement, index) else { return [] }
        let count = Int(sqlite3_column_bytes(statement, index))
        return Array(UnsafeRawBufferPointer(start: blob, count: count))
    }
}

extension Date: SQLBindable, SQLColumnDecodable {
    package func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, SQLDate.seconds(self))
    }
    package static func decode(from statement: OpaquePointer, at index: Int32) -> Date {
        SQLDate.date(sqlite3_column_int64(statement, index))
    }
}

/// How `HomeStore` stores times: whole Unix seconds in an INTEGER column, so the `sqlite3`
/// CLI shows them with `datetime(column, 'unixepoch')`. Sub-second parts are dropped
/// (rounded down); dates beyond ±2^53 s, infinities and NaN are clamped rather than trapping.
package enum SQLDate {
    static let limit = Double(1 << 53)

    /// Whole seconds since 1970, rounded down, clamped to ±2^53.
    package static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970
        guard value.isFinite else { return value.isNaN ? 0 : (value > 0 ? 1 << 53 : -(1 << 53)) }
        return Int64(min(max(value, -limit), limit).rounded(.down))
    }

    /// The date of a stored value.
    package static func date(_ seconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(seconds))
    }

    /// `date` rounded down to a whole second, as it reads back after a round trip.
    package static func stored(_ date: Date) -> Date { self.date(seconds(date)) }
}

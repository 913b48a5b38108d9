extension String {
    /// Calls `body` with the String's UTF-8, read in place.
    ///
    /// `withUTF8` is `mutating`: called on a copy (`var copy = text`), it costs an atomic retain
    /// and release of the storage, and the parser reads several Strings so for every entry
    /// (hashing the id, the link policy; issue 17). A native String lends its bytes without
    /// either; anything else is copied as before.
    @inline(__always)
    func withBorrowedUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}

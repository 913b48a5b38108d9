extension String {
    /// Calls `body` with the String's UTF-8, read in place.
    ///
    /// `withUTF8` is `mutating`: called on a copy (`var copy = text`), it costs an atomic retain
    /// and release of the storage, and the parser reads several Strings that way for every
    /// entry (hashing the id, the link policy; issue 17). A native or small String lends its
    /// bytes without either; anything else (a bridged String, not on Linux) is copied.
    @inline(__always)
    func withBorrowedUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}

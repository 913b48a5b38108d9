import Glibc

/// The highest version number the daemon may have served, in a file of its own beside the store
/// (`versions-reserved`), so that versions keep increasing when the store loses its manifests: a
/// recovery that salvaged none, or a store file deleted while the daemon was stopped. A client
/// holding a version (`since`) never sees a smaller one for a newer manifest.
///
/// Versions are reserved in blocks of ``block``: before a version above the reservation is
/// stored and served, the reservation moves to that version + ``block`` − 1, written to a
/// temporary file, synced, and renamed over the old one (``DurableFile``). That is one small
/// write per thousand versions, and a version is never served above what the file says, even
/// after a power loss.
/// The daemon starts above both the store's highest version and the reservation: a power loss
/// can take back the store's last commits (`synchronous=NORMAL`), never the reservation, so
/// versions may jump by up to a block then, which clients never see as a step back. A clean
/// stop, once its checkpoint has synced the manifests into the store's file, brings the
/// reservation down to the last version (``settle(at:)``), so a clean restart continues from it.
///
/// Not Sendable: a value the service actor keeps.
struct VersionReservation {
    /// Versions reserved per write.
    static let block = 1_000
    static let fileName = "versions-reserved"
    /// The largest reservation read back: 2^53, the largest integer a JSON client's double
    /// holds exactly. Far above any version a daemon makes, and far enough below `Int.max`
    /// that `version + 1` and a new block can never overflow.
    static let maxReserved = 1 << 53

    let path: String
    /// Versions up to this one may have been served.
    private(set) var reserved: Int

    /// Reads the reservation in `directory`.
    ///
    /// - Returns: the reservation, and a warning when the file exists but does not hold a
    ///   version number (then 0 is reserved: versions start above the store's alone).
    static func read(in directory: String) -> (VersionReservation, warning: String?) {
        let path = directory + "/" + fileName
        guard let file = fopen(path, "re") else {
            return (VersionReservation(path: path, reserved: 0), nil)
        }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 32)
        let text = fgets(&buffer, Int32(buffer.count), file).map { String(cString: $0) } ?? ""
        let digits = text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard let reserved = Int(digits), (0...maxReserved).contains(reserved) else {
            let shown = digits.count > 20 ? String(digits.prefix(20)) + "…" : digits
            return (
                VersionReservation(path: path, reserved: 0),
                "\(path): expected a version number from 0 to \(maxReserved), got \"\(shown)\"; "
                    + "versions continue from the store's"
            )
        }
        return (VersionReservation(path: path, reserved: reserved), nil)
    }

    /// Makes sure `version` is reserved before it is served: writes a new block when it is above
    /// the reservation.
    ///
    /// - Throws: ``FileCallError`` naming the call and the file that failed; the reservation
    ///   is unchanged then.
    mutating func cover(_ version: Int) throws(FileCallError) {
        guard version > reserved else { return }
        let next = version + Self.block - 1
        try Self.write(next, to: path)
        reserved = next
    }

    /// Sets the reservation to exactly `version`, the highest one served, once the store holds
    /// it durably (a clean stop, after the final checkpoint): the next start continues from
    /// there instead of from the end of the block. Written as a block is.
    ///
    /// - Throws: ``FileCallError``; the reservation is unchanged then.
    mutating func settle(at version: Int) throws(FileCallError) {
        guard version != reserved else { return }
        try Self.write(version, to: path)
        reserved = version
    }

    private static func write(_ value: Int, to path: String) throws(FileCallError) {
        try DurableFile.replace(path, with: "\(value)\n")
    }
}

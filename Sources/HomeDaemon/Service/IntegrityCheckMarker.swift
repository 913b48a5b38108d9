import Glibc
import HomeStore

/// A file beside the store, `integrity-check-due`, that asks the next start for SQLite's full
/// `integrity_check` instead of its `quick_check` (``Store/init(path:configuration:now:recoverIfCorrupt:fullCheck:stop:)``).
///
/// `quick_check` does not compare indexes with their tables, so a store whose index disagrees
/// with its table (`SQLITE_CORRUPT_INDEX` at the next write that touches the entry) passes it:
/// the corruption error made the store failing until the restart (``StoreHealth``), the restart
/// found nothing to mend, and systemd restarted the daemon every `WatchdogSec=` until its start
/// limit. The daemon writes the file (``DurableFile``, one line: why) when the store first fails
/// with a corruption error and when `CheckStore` finds problems; the next start runs the full
/// check, mends index findings with `REINDEX` or moves a damaged file aside, and removes the file
/// once the store has opened.
///
/// Sendable: an immutable value.
struct IntegrityCheckMarker: Sendable {
    static let fileName = "integrity-check-due"

    let path: String

    /// The marker in the directory of the store file at `storePath`.
    init(besideStoreAt storePath: String) {
        let directory = storePath[..<(storePath.lastIndex(of: "/") ?? storePath.startIndex)]
        path = (directory.isEmpty ? "." : String(directory)) + "/" + Self.fileName
    }

    /// Whether the next open should run the full check.
    var isPresent: Bool { access(path, F_OK) == 0 }

    /// Asks the next start for the full check, saying why (a corruption error's summary, a
    /// finding of `integrity_check`).
    func write(reason: String) throws(FileCallError) {
        try DurableFile.replace(path, with: reason.split(whereSeparator: \.isNewline).joined(separator: " ") + "\n")
    }

    /// The full check has run: the store opened sound, mended or recovered.
    func remove() throws(FileCallError) {
        try DurableFile.remove(path)
    }
}

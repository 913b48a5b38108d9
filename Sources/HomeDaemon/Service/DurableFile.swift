import Glibc
import SystemCalls

/// The daemon's small files beside the store (`versions-reserved`, `integrity-check-due`),
/// replaced so that a crash or a power loss leaves the old contents or the new, never a mix or
/// nothing: written to a temporary file, synced, renamed over the old one, the directory synced.
enum DurableFile {
    /// Replaces the file at `path` with `text`.
    ///
    /// - Throws: ``FileCallError`` naming the call and the file that failed; the file is
    ///   unchanged then, and the temporary file removed.
    static func replace(_ path: String, with text: String) throws(FileCallError) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileCallError(call: "open", path: temporary, code: errno) }
        var isOpen = true
        var isRenamed = false
        // Whatever fails, the descriptor is closed and the temporary file goes.
        defer {
            if isOpen { close(fd) }
            if !isRenamed { unlink(temporary) }
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { buffer in
            retryingEINTR { Glibc.write(fd, buffer.baseAddress, buffer.count) }
        }
        guard written == bytes.count else {
            throw FileCallError(call: "write", path: temporary, code: written < 0 ? errno : ENOSPC)
        }
        guard fsync(fd) == 0 else { throw FileCallError(call: "fsync", path: temporary, code: errno) }
        close(fd)
        isOpen = false
        guard rename(temporary, path) == 0 else { throw FileCallError(call: "rename", path: path, code: errno) }
        isRenamed = true
        try syncDirectory(of: path)
    }

    /// Removes the file at `path`, if there is one, and syncs its directory.
    ///
    /// - Throws: ``FileCallError`` when it exists and cannot be removed.
    static func remove(_ path: String) throws(FileCallError) {
        guard unlink(path) == 0 else {
            if errno == ENOENT { return }
            throw FileCallError(call: "unlink", path: path, code: errno)
        }
        try syncDirectory(of: path)
    }

    /// A rename or an unlink is durable once the directory is synced too.
    private static func syncDirectory(of path: String) throws(FileCallError) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let directoryFD = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw FileCallError(call: "open", path: directory, code: errno) }
        defer { close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw FileCallError(call: "fsync", path: directory, code: errno) }
    }
}

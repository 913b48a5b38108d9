import Foundation
import SystemCalls

/// A file a command writes whole (`--svg FILE` of `preview` and `layout solve`), written so that
/// what is at the path keeps being what it is.
///
/// A regular file, or a path where nothing is yet, is replaced atomically (a temporary file
/// renamed over it): a reader never sees half an SVG. A symbolic link is followed: its target is
/// replaced so (or created, for a link that points nowhere yet), and the link stays. Anything else
/// (a device such as `/dev/stdout`'s terminal or `/dev/full`, a FIFO, a socket, a link to one) is
/// opened and written in place, never replaced: a rename over `/dev/full` as root made it a
/// regular file, and one over a FIFO left its reader waiting.
enum OutputFile {
    /// Why the file could not be written, in the C library's plain words ("No space left on
    /// device", "Is a directory").
    struct Failure: Error {
        var reason: String

        init(reason: String) {
            self.reason = reason
        }

        init(errno code: Int32) {
            reason = String(cString: strerror(code))
        }
    }

    /// How many links a chain may have before it is refused, as the kernel's `ELOOP` limit.
    static let maxLinks = 40

    /// Writes `text` to `path`, as the type says.
    static func write(_ text: String, to path: String) throws(Failure) {
        var status = stat()
        if stat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFREG {
                try replace(text, at: resolved(path))
            } else {
                try writeInPlace(text, to: path)
            }
        } else if errno == ENOENT {
            // Nothing there, or a link pointing to where nothing is yet.
            try replace(text, at: try danglingTarget(of: path) ?? path)
        } else {
            throw Failure(errno: errno)
        }
    }

    /// Replaces `target` with `text` atomically (a temporary file beside it, renamed over it).
    private static func replace(_ text: String, at target: String) throws(Failure) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: target), options: .atomic)
        } catch {
            throw Failure(reason: error.fileReason)
        }
    }

    /// Opens `path` for writing, without creating or replacing it, and writes `text` there.
    private static func writeInPlace(_ text: String, to path: String) throws(Failure) {
        let fd = retryingEINTR { open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) }
        guard fd >= 0 else { throw Failure(errno: errno) }
        let code = writingAll(fd, Array(text.utf8))
        close(fd)
        guard code == 0 else { throw Failure(errno: code) }
    }

    /// The file a path to a regular file names, its symbolic links followed (the path itself
    /// when it is none).
    private static func resolved(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Where the chain of symbolic links at `path` ends, when it ends where nothing is; nil
    /// when `path` is no link.
    private static func danglingTarget(of path: String) throws(Failure) -> String? {
        var current = path
        for _ in 0..<maxLinks {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else {
                // The end of the chain: not a link (EINVAL), or not there (ENOENT).
                guard errno == EINVAL || errno == ENOENT else { throw Failure(errno: errno) }
                return current == path ? nil : current
            }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A relative target is relative to the link's own directory.
            current =
                target.hasPrefix("/") || !current.contains("/")
                ? target : String(current[...(current.lastIndex(of: "/") ?? current.startIndex)]) + target
        }
        throw Failure(errno: ELOOP)
    }
}

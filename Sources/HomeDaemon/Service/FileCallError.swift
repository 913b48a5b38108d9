import Glibc

/// A system call on one of the daemon's own files failed (the store's neighbours through
/// ``DurableFile``, the image cache's directories and files): the call, the file and the
/// system's message, `rename(/var/lib/homefeed/versions-reserved): No space left on device`.
struct FileCallError: Error, CustomStringConvertible {
    var call: String
    var path: String
    var code: Int32

    var description: String { "\(call)(\(path)): \(String(cString: strerror(code)))" }
}

import Foundation

extension Error {
    /// What went wrong with a file, in the C library's plain words ("Is a directory", "No such
    /// file or directory"): the POSIX error a Foundation file error wraps, whose own description
    /// is a bare code ("The operation could not be completed. (NSCocoaErrorDomain error 256.)").
    /// Foundation's description only when it wraps none.
    var fileReason: String {
        let error = self as NSError
        // The wrapped error is a Swift error (POSIXError), not always an NSError instance.
        let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        for candidate in [error, underlying] {
            if let candidate, candidate.domain == NSPOSIXErrorDomain {
                return String(cString: strerror(Int32(truncatingIfNeeded: candidate.code)))
            }
        }
        return error.localizedDescription
    }
}

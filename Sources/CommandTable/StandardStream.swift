import Glibc
import SystemCalls

/// Standard output or error, written with `write(2)`: unbuffered, so nothing waits in a buffer
/// when the process exits, and no Foundation.
///
/// The one writer of what the tools print. A stream that takes no more (a full disk, a closed
/// descriptor) is an error the caller is told of, never a trap, as Foundation's
/// `FileHandle.write` is. A reader that went away (`| head`) is not: `SIGPIPE` ends the process
/// before `write` returns, as it ends any other program.
public enum StandardStream: Sendable {
    case output
    case error

    /// Why a stream took no more: the `errno` of the `write` that failed.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var errno: Int32

        public init(errno: Int32) {
            self.errno = errno
        }

        /// The C library's words for it: "No space left on device".
        public var description: String { String(cString: strerror(errno)) }

        /// Says on standard error that `tool`'s output is lost (`TOOL: cannot write the output:
        /// REASON`; a failure there is ignored) and returns ``ExitStatus/outputFailed``.
        public func report(tool: String) -> Int32 {
            StandardStream.error.write("\(tool): cannot write the output: \(description)\n")
            return ExitStatus.outputFailed
        }
    }

    /// Writes all of `text`, retrying after signals.
    ///
    /// - Throws: ``Failure`` when a `write` fails; some of `text` may have been written.
    public func writeAll(_ text: String) throws(Failure) {
        let code = writingAll(self == .output ? STDOUT_FILENO : STDERR_FILENO, Array(text.utf8))
        guard code == 0 else { throw Failure(errno: code) }
    }

    /// Writes what the stream takes of `text`, ignoring a failure: for standard error, where a
    /// failure has nowhere left to be reported.
    public func write(_ text: String) {
        try? writeAll(text)
    }

    /// Prints `text` on standard output for `tool`.
    ///
    /// - Returns: ``ExitStatus/ok``, or ``ExitStatus/outputFailed`` when the output cannot be
    ///   written (reported on standard error, ``Failure/report(tool:)``).
    public static func print(_ text: String, tool: String) -> Int32 {
        do throws(Failure) {
            try output.writeAll(text)
            return ExitStatus.ok
        } catch {
            return error.report(tool: tool)
        }
    }
}

/// The exit statuses of every homefeed executable, defined once.
///
/// `0` ok; `1` the work failed (invalid input, an error reply, a failed check, a daemon that
/// cannot start); `64` (`EX_USAGE` of sysexits.h, as swift-argument-parser exits) the command
/// line itself is wrong; `69` (`EX_UNAVAILABLE`) the daemon is not running; `74` (`EX_IOERR`)
/// the output cannot be written. README.md and the man pages list the same codes.
public enum ExitStatus {
    public static let ok: Int32 = 0
    /// The input (a spec, a document, a configuration, an option's value) is invalid, the daemon
    /// replied with an error, or a check found problems.
    public static let failure: Int32 = 1
    /// The command line is wrong: an unknown command or option, a missing or malformed value
    /// (`EX_USAGE`).
    public static let usage: Int32 = 64
    /// homefeedd is not running, or refuses the connection (`EX_UNAVAILABLE`).
    public static let unavailable: Int32 = 69
    /// Standard output cannot be written: a full disk, a closed descriptor (`EX_IOERR`). A
    /// reader that went away (`| head`) is not this: `SIGPIPE` ends the tool, as any program.
    public static let outputFailed: Int32 = 74
}

/// A mistake in the command line: unknown option, missing or malformed value, wrong number of
/// arguments. Reported with the command's usage, exit status ``ExitStatus/usage``.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    /// One line, without the command's name (the report adds it).
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

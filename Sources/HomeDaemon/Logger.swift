import Glibc
public import LogCore
import SystemCalls

/// A small logger in the shape of swift-log: a label, a minimum level, lazy messages.
///
/// Writes one line per event to stderr with `write(2)` (never `print`: stdout is block-buffered
/// on a pipe, swift-on-linux.md §10), prefixed with the sd-daemon priority `<N>` of its level
/// (``LogLevel/syslogPriority``) so journald keeps levels (varlink-and-systemd.md §10). On a terminal (no `$JOURNAL_STREAM`) the prefix
/// is dropped. Sendable: immutable.
public struct Logger: Sendable {
    public let label: String
    public let level: LogLevel
    /// Where lines go; tests install an in-memory sink.
    public let sink: @Sendable (String) -> Void

    public init(
        label: String,
        level: LogLevel = .info,
        sink: @escaping @Sendable (String) -> Void = Logger.standardError
    ) {
        self.label = label
        self.level = level
        self.sink = sink
    }

    /// A logger for a component, sharing level and sink.
    public func child(_ label: String) -> Logger { Logger(label: label, level: level, sink: sink) }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= self.level else { return }
        sink("<\(level.syslogPriority)>\(label): \(message())")
    }

    /// This logger as a library's ``LogHandler`` (the fetch scheduler, the Varlink server).
    public var handler: LogHandler {
        { level, message in log(level, message()) }
    }

    /// The levels `--log-level` takes, most severe first (`critical` is always shown, so it is
    /// no threshold one can choose; nothing logs at `trace`).
    public static let thresholds: [LogLevel] = [.error, .warning, .notice, .info, .debug]

    /// The threshold called `name` (`error`, `warning`, `notice`, `info`, `debug`).
    public static func threshold(named name: String) -> LogLevel? {
        thresholds.first { "\($0)" == name }
    }

    public func critical(_ message: @autoclosure () -> String) { log(.critical, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

    /// Writes to stderr; keeps the `<N>` prefix only when stderr is the journal.
    public static let standardError: @Sendable (String) -> Void = { line in
        var text = line
        if !stderrIsJournal, line.hasPrefix("<"), let close = line.firstIndex(of: ">") {
            text = String(line[line.index(after: close)...])
        }
        text += "\n"
        text.withCString { pointer in
            var remaining = strlen(pointer)
            var cursor = pointer
            while remaining > 0 {
                let written = retryingEINTR { write(STDERR_FILENO, cursor, remaining) }
                if written < 0 { return }
                remaining -= written
                cursor += written
            }
        }
    }

    /// `$JOURNAL_STREAM` is `DEVICE:INODE` of the journal stream; compare with stderr's.
    static let stderrIsJournal: Bool = {
        guard let value = getenv("JOURNAL_STREAM") else { return false }
        let parts = String(cString: value).split(separator: ":")
        var info = stat()
        guard parts.count == 2, fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(parts[0]) == UInt64(info.st_dev) && UInt64(parts[1]) == UInt64(info.st_ino)
    }()
}

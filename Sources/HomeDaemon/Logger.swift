import Glibc

/// A small logger in the shape of swift-log: a label, a minimum level, lazy messages.
///
/// Writes one line per event to stderr with `write(2)` (never `print`: stdout is block-buffered
/// on a pipe, swift-on-linux.md §10), prefixed with the sd-daemon priority `<N>` so journald
/// keeps levels (varlink-and-systemd.md §10). On a terminal (no `$JOURNAL_STREAM`) the prefix
/// is dropped. Sendable: immutable.
public struct Logger: Sendable {
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        /// The daemon lost data it cannot fetch again or had to rebuild its store.
        case critical = 2
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        /// `error`, `warning`, `notice`, `info`, `debug` (`critical` is always shown, so it is
        /// not a threshold one can choose).
        public init?(name: String) {
            guard let level = Self.allCases.first(where: { "\($0)" == name }), level != .critical else { return nil }
            self = level
        }
    }

    public let label: String
    public let level: Level
    /// Where lines go; tests install an in-memory sink.
    public let sink: @Sendable (String) -> Void

    public init(label: String, level: Level = .info, sink: @escaping @Sendable (String) -> Void = Logger.standardError)
    {
        self.label = label
        self.level = level
        self.sink = sink
    }

    /// A logger for a component, sharing level and sink.
    public func child(_ label: String) -> Logger { Logger(label: label, level: level, sink: sink) }

    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level <= self.level else { return }
        sink("<\(level.rawValue)>\(label): \(message())")
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
                let written = write(STDERR_FILENO, cursor, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
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

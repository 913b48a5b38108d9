/// How severe a log line is, ordered like swift-log's `Logger.Level`: `trace` is the least
/// severe and `critical` the most, so `level >= threshold` reads "at least as severe as".
///
/// The one level type of every target that logs: the daemon's `Logger`, the fetch scheduler
/// and the Varlink server. Libraries never write lines themselves; they hand them to a
/// ``LogHandler`` the application passes in (style.md §3.2).
public enum LogLevel: Sendable, Comparable, CaseIterable {
    case trace
    case debug
    case info
    case notice
    case warning
    case error
    /// The daemon lost data it cannot fetch again or had to rebuild its store.
    case critical

    /// The syslog priority journald reads from a line's `<N>` prefix (sd-daemon(3)): 2 for
    /// `critical` to 7 for `debug`. Syslog has nothing below debug, so `trace` is 7 too.
    public var syslogPriority: Int {
        switch self {
        case .critical: 2
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug, .trace: 7
        }
    }
}

/// Where a library's log lines go. The message is built only if the handler calls the closure,
/// so a handler that filters by level makes the levels it drops free (swift-log's lazy
/// messages).
public typealias LogHandler = @Sendable (_ level: LogLevel, _ message: () -> String) -> Void

/// Varlink: the wire protocol alone, reusable and knowing nothing of homefeed.
///
/// NUL-framed JSON messages (``VarlinkFrameSplitter``, ``VarlinkCall``, ``VarlinkReply``), a
/// server on an `AF_UNIX` stream socket (``VarlinkServer``) dispatching to a
/// ``VarlinkService`` of registered interfaces with `org.varlink.service` built in, and a
/// client (``VarlinkClient``). The protocol is summarised in
/// `../shared/design/varlink-and-systemd.md` §1; the event loop follows
/// `swift-on-linux.md` §5.1.
///
/// Depends on `CSystem` (accept4, SO_PEERCRED) and Glibc; never imports homefeed modules, never
/// constructs a logger (the application passes a ``VarlinkLogger``), never installs signal
/// handlers (ignoring SIGPIPE is the application's job; every send here uses `MSG_NOSIGNAL`).

/// Severity of a library log line, numbered like syslog / sd-daemon priorities.
public enum VarlinkLogLevel: Int, Sendable, Comparable, CaseIterable {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7

    public static func < (lhs: VarlinkLogLevel, rhs: VarlinkLogLevel) -> Bool {
        // Lower numbers are more severe; "less than" means "less severe" here.
        lhs.rawValue > rhs.rawValue
    }
}

/// Where the library's log lines go. The message is built only if the logger calls the
/// closure, so a logger that filters by level makes disabled levels free (swift-log style).
/// Libraries receive a logger, they never construct one (style.md §3.2).
public typealias VarlinkLogger = @Sendable (_ level: VarlinkLogLevel, _ message: () -> String) -> Void

/// A logger that discards everything.
public let varlinkSilentLogger: VarlinkLogger = { _, _ in }

public import LogCore

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
/// handlers (ignoring SIGPIPE is the application's job; every send here uses `MSG_NOSIGNAL`,
/// and the loop thread, which also splices, blocks SIGPIPE).

/// Where the library's log lines go (``LogHandler``): the message is built only if the logger
/// calls the closure. Libraries receive a logger, they never construct one (style.md §3.2).
public typealias VarlinkLogger = LogHandler

/// A logger that discards everything.
public let varlinkSilentLogger: VarlinkLogger = { _, _ in }

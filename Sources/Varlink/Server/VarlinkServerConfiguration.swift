/// Limits and timeouts of a ``VarlinkServer``. Defaults follow sd-varlink where it has an
/// equivalent (varlink-and-systemd.md §1.6).
///
/// Sendable: an immutable value.
public struct VarlinkServerConfiguration: Sendable, Equatable {
    /// The longest message accepted, without its NUL. A client that sends a longer one is
    /// dropped without a reply (sd-varlink's `VARLINK_BUFFER_MAX`, 16 MiB).
    public var maxMessageSize = 16 << 20
    /// Open connections beyond this are closed as soon as they are accepted (sd-varlink: 4096).
    public var maxConnections = 4096
    /// Open connections of one peer uid beyond this are closed as soon as they are accepted
    /// (sd-varlink: 1024).
    public var maxConnectionsPerUID = 1024
    /// Of ``maxConnections``, the last this many are kept for peers the server's
    /// `privilegedPeers` predicate accepts; others are closed as soon as they are accepted once
    /// `maxConnections − reservedConnections` are open. Default 0: no reservation.
    public var reservedConnections = 0
    /// Streaming calls (`more: true`, e.g. subscriptions) open at once; one beyond this is
    /// refused with ``streamingLimitError`` and its connection closed. Default: as many as
    /// there can be connections.
    public var maxStreamingCalls = 4096
    /// Streaming calls of one peer uid open at once; refused the same way beyond this.
    public var maxStreamingCallsPerUID = 1024
    /// The error a refused streaming call is answered with before its connection is closed;
    /// nil closes it without a reply. A service declares this error in its interface.
    public var streamingLimitError: VarlinkError?
    /// A connection with no call in progress (no subscription either) and no input for this
    /// long is closed.
    public var idleTimeout: Duration = .seconds(60)
    /// Unsent output beyond which a connection counts as backlogged: pushes sent with
    /// ``VarlinkBacklogPolicy/replacePending`` are coalesced, and the next pipelined call waits.
    public var outputBacklogLimit = 1 << 20
    /// Unsent output beyond which a connection is dropped (only ``VarlinkBacklogPolicy/queue``
    /// pushes can get there).
    public var maxOutputBytes = 64 << 20
    /// A connection whose pending output makes no progress for this long is dropped: the
    /// "subscriber stuck beyond a timeout".
    public var stalledWriteTimeout: Duration = .seconds(30)
    /// Permission bits of a socket file the server binds itself (0660: owner and group).
    public var socketMode: UInt32 = 0o660
    /// `listen` backlog for a socket the server binds itself.
    public var listenBacklog: Int32 = 128
    /// The time every timer and timeout above runs on; tests substitute a manual clock.
    var clock = ServerClock.monotonic

    public init() {}
}

/// Counters of a ``VarlinkServer``, for status reports and tests.
///
/// Sendable: an immutable value (a snapshot).
public struct VarlinkServerStatistics: Sendable, Equatable {
    /// Connections open now.
    public var openConnections = 0
    /// Connections accepted since start (including rejected ones).
    public var acceptedConnections = 0
    /// Streaming calls open now.
    public var openStreamingCalls = 0
    /// Closed at once by a connection limit: ``VarlinkServerConfiguration/maxConnections``,
    /// its per-uid limit or its reserved slots.
    public var rejectedConnections = 0
    /// Streaming calls refused by ``VarlinkServerConfiguration/maxStreamingCalls`` or its
    /// per-uid limit (their connections were closed).
    public var refusedStreamingCalls = 0
    /// Dropped for malformed JSON, a call without `method` or an oversized message.
    public var protocolErrors = 0
    /// Dropped because their output made no progress for the stall timeout, or grew past
    /// ``VarlinkServerConfiguration/maxOutputBytes``.
    public var droppedSlowClients = 0
    /// Closed after the idle timeout.
    public var idleTimeouts = 0
    /// Pushes replaced by a later one while the client was backlogged.
    public var coalescedReplies = 0
    /// Pushes spliced whole into a socket from their pipe rather than copied (a push of a page
    /// or more, from its second connection on).
    public var splicedReplies = 0
    /// Writes that found a client's socket full. The connection then waits until the socket
    /// has room; replies meanwhile only queue (or coalesce), without another write.
    public var fullSocketWrites = 0

    public init() {}
}

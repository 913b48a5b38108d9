internal import LogCore
internal import Synchronization

/// Whether a peer is privileged, i.e. may use ``VarlinkServerConfiguration/reservedConnections``.
/// Called on the server's event-loop thread, only when the unreserved slots are full; it must
/// not block (no user or group database look-ups: decide from the peer's credentials).
public typealias VarlinkPeerPredicate = @Sendable (VarlinkPeer) -> Bool

/// What every connection of one server shares.
///
/// Sendable: immutable, except the `Mutex`-protected tables.
final class ServerContext: Sendable {
    let service: VarlinkService
    let configuration: VarlinkServerConfiguration
    /// ``VarlinkServerConfiguration/idleTimeout`` and ``VarlinkServerConfiguration/stalledWriteTimeout``
    /// in nanoseconds, worked out once: every call re-arms a deadline from them.
    let idleTimeoutNanoseconds: UInt64
    let stalledWriteTimeoutNanoseconds: UInt64
    let privilegedPeers: VarlinkPeerPredicate
    private let logger: VarlinkLogger
    let statistics = Mutex(VarlinkServerStatistics())
    let admission: Mutex<ConnectionAdmission>
    /// Open connections, so that ``VarlinkServer/shutdown()`` can close them.
    let connections = Mutex<[ObjectIdentifier: Connection]>([:])
    /// Refusals and protocol errors come in crowds (a client in a loop): one line per
    /// ``reportInterval`` each, with a count of the others, instead of a line per client, which
    /// would use up journald's rate limit and hide the daemon's own messages.
    private let refusalReports = Mutex(ReportThrottle())
    private let protocolErrorReports = Mutex(ReportThrottle())
    static let reportInterval: UInt64 = 5_000_000_000

    init(
        service: VarlinkService,
        configuration: VarlinkServerConfiguration,
        privilegedPeers: @escaping VarlinkPeerPredicate,
        logger: @escaping VarlinkLogger
    ) {
        self.service = service
        self.configuration = configuration
        self.idleTimeoutNanoseconds = configuration.idleTimeout.nanoseconds
        self.stalledWriteTimeoutNanoseconds = configuration.stalledWriteTimeout.nanoseconds
        self.privilegedPeers = privilegedPeers
        self.logger = logger
        self.admission = Mutex(ConnectionAdmission(configuration: configuration))
    }

    func log(_ level: LogLevel, _ message: () -> String) {
        logger(level, message)
    }

    func count(_ update: (inout VarlinkServerStatistics) -> Void) {
        statistics.withLock { update(&$0) }
    }

    /// Takes a streaming-call slot for `peer`, or says why not.
    func admitStreamingCall(of peer: VarlinkPeer) -> ConnectionAdmission.Refusal? {
        admission.withLock { $0.admitStreamingCall(uid: peer.uid) }
    }

    func releaseStreamingCall(of peer: VarlinkPeer) {
        admission.withLock { $0.releaseStreamingCall(uid: peer.uid) }
    }

    /// Logs a refused client or streaming call, at most one line per report interval.
    func logRefusal(_ refusal: ConnectionAdmission.Refusal, peer: VarlinkPeer) {
        let now = configuration.clock.now()
        guard let others = refusalReports.withLock({ $0.report(at: now, every: Self.reportInterval) }) else { return }
        let what = refusal.isStreaming ? "a streaming call of" : "a client,"
        log(.warning) {
            "refusing \(what) \(peer): \(refusal)" + (others > 0 ? " (and \(others) more refused before)" : "")
        }
    }

    /// Logs a client dropped for a malformed message, at most one line per report interval.
    func logProtocolError(_ error: VarlinkProtocolError, peer: VarlinkPeer) {
        let now = configuration.clock.now()
        let report = protocolErrorReports.withLock { $0.report(at: now, every: Self.reportInterval) }
        guard let others = report else { return }
        log(.notice) {
            "dropping client \(peer): \(error)" + (others > 0 ? " (and \(others) more dropped before)" : "")
        }
    }

    func remove(_ connection: Connection) {
        connections.withLock { $0[ObjectIdentifier(connection)] = nil }
        admission.withLock { $0.releaseConnection(uid: connection.peer.uid) }
        log(.debug) { "client disconnected: \(connection.peer)" }
    }
}

/// When a crowd of like events was last reported, and how many came since.
struct ReportThrottle {
    private var lastReport: UInt64?
    private var unreported = 0

    /// The number of events not reported since the last report when this one is to be reported
    /// (none was within `interval` ns of `now`); nil when it is only counted.
    mutating func report(at now: UInt64, every interval: UInt64) -> Int? {
        if let lastReport, now &- lastReport < interval {
            unreported += 1
            return nil
        }
        defer { (lastReport, unreported) = (now, 0) }
        return unreported
    }
}

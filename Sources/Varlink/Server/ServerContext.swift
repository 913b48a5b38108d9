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
    /// Refusals come in crowds: one warning per ``refusalReportInterval``, with a count of the
    /// others, instead of a line per refused client.
    private let refusalReports = Mutex<(lastReport: UInt64?, unreported: Int)>((nil, 0))
    static let refusalReportInterval: UInt64 = 5_000_000_000

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
        let others = refusalReports.withLock { state -> Int? in
            if let last = state.lastReport, now &- last < Self.refusalReportInterval {
                state.unreported += 1
                return nil
            }
            defer { state = (now, 0) }
            return state.unreported
        }
        guard let others else { return }
        let what = refusal.isStreaming ? "a streaming call of" : "a client,"
        log(.warning) {
            "refusing \(what) \(peer): \(refusal)" + (others > 0 ? " (and \(others) more refused before)" : "")
        }
    }

    func remove(_ connection: Connection) {
        connections.withLock { $0[ObjectIdentifier(connection)] = nil }
        admission.withLock { $0.releaseConnection(uid: connection.peer.uid) }
        log(.debug) { "client disconnected: \(connection.peer)" }
    }
}

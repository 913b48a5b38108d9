/// Which clients a server lets in: the connection and streaming-call limits of
/// ``VarlinkServerConfiguration`` applied to what is open, counted per peer uid.
///
/// A connection is admitted when fewer than `maxConnections` are open, fewer than
/// `maxConnectionsPerUID` belong to its uid, and, for a peer that is not privileged, fewer
/// than `maxConnections − reservedConnections` are open: the last `reservedConnections` slots
/// are kept for privileged peers (in homefeed, those with the mutating right). A streaming call
/// (`more: true`, a subscription) is admitted when fewer than `maxStreamingCalls` are open and
/// fewer than `maxStreamingCallsPerUID` belong to the uid, so subscribers cannot take every
/// slot from plain calls.
///
/// A plain value with no I/O: the server keeps it behind a lock and asks it at accept time and
/// when a `more` call starts, so any event loop can use it as it is. Sendable: a value.
struct ConnectionAdmission: Sendable {
    /// Why a connection or a streaming call was refused.
    enum Refusal: Sendable, Equatable, CustomStringConvertible {
        case connections(limit: Int)
        case reservedConnections(limit: Int, reserved: Int)
        case connectionsPerUID(uid: UInt32, limit: Int)
        case streamingCalls(limit: Int)
        case streamingCallsPerUID(uid: UInt32, limit: Int)

        var description: String {
            switch self {
            case .connections(let limit):
                "\(limit) connections open (maxConnections)"
            case .reservedConnections(let limit, let reserved):
                "\(limit - reserved) connections open, the last \(reserved) are reserved for privileged peers"
            case .connectionsPerUID(let uid, let limit):
                "uid \(uid) has \(limit) connections open (maxConnectionsPerUID)"
            case .streamingCalls(let limit):
                "\(limit) streaming calls open (maxStreamingCalls)"
            case .streamingCallsPerUID(let uid, let limit):
                "uid \(uid) has \(limit) streaming calls open (maxStreamingCallsPerUID)"
            }
        }

        /// True for a refused streaming call (the connection itself was admitted).
        var isStreaming: Bool {
            switch self {
            case .streamingCalls, .streamingCallsPerUID: true
            default: false
            }
        }
    }

    let configuration: VarlinkServerConfiguration
    /// Connections open now.
    private(set) var connections = 0
    /// Streaming calls open now.
    private(set) var streamingCalls = 0
    private var connectionsByUID: [UInt32: Int] = [:]
    private var streamingCallsByUID: [UInt32: Int] = [:]

    init(configuration: VarlinkServerConfiguration) {
        self.configuration = configuration
    }

    /// Counts a new connection of `uid` in, or says why not.
    ///
    /// - Parameter isPrivileged: asked only when the unreserved slots are full.
    mutating func admitConnection(uid: UInt32, isPrivileged: () -> Bool) -> Refusal? {
        let limit = configuration.maxConnections
        if connections >= limit { return .connections(limit: limit) }
        let reserved = min(max(configuration.reservedConnections, 0), limit)
        if connections >= limit - reserved, !isPrivileged() {
            return .reservedConnections(limit: limit, reserved: reserved)
        }
        let perUID = configuration.maxConnectionsPerUID
        if connectionsByUID[uid, default: 0] >= perUID { return .connectionsPerUID(uid: uid, limit: perUID) }
        connections += 1
        connectionsByUID[uid, default: 0] += 1
        return nil
    }

    /// A connection of `uid` closed.
    mutating func releaseConnection(uid: UInt32) {
        connections -= 1
        Self.decrement(&connectionsByUID, uid)
    }

    /// Counts a new streaming call of `uid` in, or says why not.
    mutating func admitStreamingCall(uid: UInt32) -> Refusal? {
        let limit = configuration.maxStreamingCalls
        if streamingCalls >= limit { return .streamingCalls(limit: limit) }
        let perUID = configuration.maxStreamingCallsPerUID
        if streamingCallsByUID[uid, default: 0] >= perUID { return .streamingCallsPerUID(uid: uid, limit: perUID) }
        streamingCalls += 1
        streamingCallsByUID[uid, default: 0] += 1
        return nil
    }

    /// A streaming call of `uid` ended.
    mutating func releaseStreamingCall(uid: UInt32) {
        streamingCalls -= 1
        Self.decrement(&streamingCallsByUID, uid)
    }

    /// Connections open for `uid` now.
    func connections(of uid: UInt32) -> Int { connectionsByUID[uid, default: 0] }

    /// Streaming calls open for `uid` now.
    func streamingCalls(of uid: UInt32) -> Int { streamingCallsByUID[uid, default: 0] }

    private static func decrement(_ counts: inout [UInt32: Int], _ uid: UInt32) {
        let left = counts[uid, default: 0] - 1
        counts[uid] = left > 0 ? left : nil
    }
}

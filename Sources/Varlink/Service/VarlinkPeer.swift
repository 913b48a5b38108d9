/// The process at the other end of a connection, as the kernel recorded it when the process
/// connected: pid, uid and gid from `SO_PEERCRED`, supplementary groups from `SO_PEERGROUPS`.
/// Services use it to authorise calls (e.g. mutating methods only for root or a group); the
/// kernel vouches for the values, the client cannot forge them, and no user or group database
/// is consulted, so a process that dropped a group has dropped it here too.
///
/// Sendable: an immutable value.
public struct VarlinkPeer: Sendable, Hashable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// The supplementary groups; empty when the process has none or the kernel could not say
    /// (then only ``gid`` counts, so group checks fail closed).
    public var groups: [UInt32]

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// Used when the kernel gives no credentials (not a Unix socket): uid and gid `-1`, which
    /// matches no user or group, so authorisation checks fail closed.
    public static let unknown = VarlinkPeer(pid: 0, uid: UInt32.max, gid: UInt32.max)

    /// Whether `group` is the peer's primary group or one of its supplementary groups.
    public func isMember(of group: UInt32) -> Bool {
        gid == group || groups.contains(group)
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

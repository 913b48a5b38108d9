/// The process at the other end of a connection, from `SO_PEERCRED`: what it was when it
/// connected. Services use it to authorise calls (e.g. mutating methods only for root or a
/// group); the kernel vouches for the values, the client cannot forge them.
///
/// Sendable: an immutable value.
public struct VarlinkPeer: Sendable, Hashable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Used when the kernel gives no credentials (not a Unix socket): uid and gid `-1`, which
    /// matches no user or group, so authorisation checks fail closed.
    public static let unknown = VarlinkPeer(pid: 0, uid: UInt32.max, gid: UInt32.max)

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

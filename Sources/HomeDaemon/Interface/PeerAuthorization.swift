import Glibc
import Synchronization
import Varlink

/// Who may call the mutating methods (`Refresh`, `RecordHistory`, `Reload`, `CheckStore`,
/// `ReportSizes`, `ClearSizes`) and
/// take the connection slots reserved for them: root, the daemon's own user, and processes in
/// the configured client group, as primary or supplementary group. Reading methods are open to
/// any peer that can connect (the socket is 0660).
///
/// The peer is judged by its credentials as the kernel reported them at connect time
/// (`SO_PEERCRED` for uid and gid, `SO_PEERGROUPS` for the supplementary groups, in
/// ``VarlinkPeer``), never by `/etc/passwd` and `/etc/group`: a process that dropped the group
/// is refused, one given it by `SupplementaryGroups=` gets in. The group's name is resolved to
/// a gid once per configuration (at start and on reload), so no NSS look-up runs on the call
/// path or on the accept queue.
///
/// Sendable: the policy sits behind a `Mutex` and is replaced as a whole.
final class PeerAuthorization: Sendable {
    /// The resolved rule. Sendable: a value.
    struct Policy: Sendable, Equatable {
        var daemonUID: uid_t
        /// The configured group name, nil when none is configured.
        var clientGroup: String?
        /// Its gid; nil when the group does not exist (then only root and the daemon's user).
        var groupID: gid_t?

        func mayMutate(_ peer: VarlinkPeer) -> Bool {
            if peer.uid == 0 || peer.uid == daemonUID { return true }
            guard let groupID else { return false }
            return peer.isMember(of: groupID)
        }
    }

    private let policy: Mutex<Policy>

    /// Resolves `clientGroup` with `resolve` (the group database by default).
    init(
        clientGroup: String?,
        daemonUID: uid_t = getuid(),
        resolve: (String) -> gid_t? = PeerAuthorization.groupID(named:)
    ) {
        policy = Mutex(Policy(daemonUID: daemonUID, clientGroup: clientGroup, groupID: clientGroup.flatMap(resolve)))
    }

    /// The rule in force.
    var current: Policy { policy.withLock { $0 } }

    /// Resolves the group of a new configuration and puts it in force.
    ///
    /// - Returns: the new rule (its `groupID` is nil when the group does not exist).
    @discardableResult
    func update(clientGroup: String?, resolve: (String) -> gid_t? = PeerAuthorization.groupID(named:)) -> Policy {
        let groupID = clientGroup.flatMap(resolve)
        return policy.withLock { policy in
            policy.clientGroup = clientGroup
            policy.groupID = groupID
            return policy
        }
    }

    /// Decides from the peer's credentials alone.
    func mayMutate(_ peer: VarlinkPeer) -> Bool {
        policy.withLock { $0.mayMutate(peer) }
    }

    /// The gid of group `name` from the group database (`getgrnam_r`), or nil.
    static func groupID(named name: String) -> gid_t? {
        var group = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrnam_r(name, &group, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return group.gr_gid
    }
}

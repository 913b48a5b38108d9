import Glibc

/// Who may call the mutating methods (`Refresh`, `RecordHistory`, `Reload`): root, the
/// daemon's own user, and members of the configured client group (primary or supplementary).
/// Reading methods are open to any peer that can connect (the socket is 0660).
struct PeerAuthorization: Sendable {
    let daemonUID: uid_t
    let clientGroup: String?
    /// The client group's id, when the group exists.
    let groupID: gid_t?

    init(clientGroup: String?) {
        self.clientGroup = clientGroup
        daemonUID = getuid()
        groupID = clientGroup.flatMap(Self.groupID(named:))
    }

    func mayMutate(uid: UInt32, gid: UInt32) -> Bool {
        if uid == 0 || uid == daemonUID { return true }
        guard let groupID else { return false }
        if gid == groupID { return true }
        return Self.supplementaryGroups(of: uid).contains(groupID)
    }

    static func groupID(named name: String) -> gid_t? {
        var group = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrnam_r(name, &group, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return group.gr_gid
    }

    /// The groups of the user `uid` from the group database (`getgrouplist`).
    static func supplementaryGroups(of uid: UInt32) -> [gid_t] {
        var passwd = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &passwd, &buffer, buffer.count, &result) == 0, result != nil, let name = passwd.pw_name
        else {
            return []
        }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, passwd.pw_gid, &groups, &count) < 0 {
            guard count > 0, count <= 65_536 else { return [] }
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, passwd.pw_gid, &groups, &count) >= 0 else { return [] }
        }
        return Array(groups.prefix(Int(max(count, 0))))
    }
}

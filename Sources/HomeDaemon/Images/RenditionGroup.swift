import Glibc
import Synchronization

/// The group the image cache gives its shared files to (`client-group`, `docs/images.md`):
/// resolved at start and again on reload (``update(name:)``), so that files made after a reload
/// go to the new group.
///
/// A file that already has the group (the daemon's own group, as under the shipped unit, where
/// `Group=homefeed`) is left alone. Giving one to another group takes `chown`, which the shipped
/// unit's `SystemCallFilter=~@privileged` denies, and which fails anyway when the daemon is not a
/// member: the file keeps the daemon's group, and the first failure per group is logged at `<4>`
/// with the path, the group and the error.
///
/// Sendable: the group and whether its failure was logged sit behind a `Mutex`; the pipeline
/// and the service's reload use it from their own contexts.
final class RenditionGroup: Sendable {
    private struct State {
        var name: String?
        var id: gid_t?
        var failureLogged = false
    }

    private let state: Mutex<State>
    private let logger: Logger
    private let resolve: @Sendable (String) -> gid_t?
    /// Gives a path to a group: 0, or the errno of the failure.
    private let changeGroup: @Sendable (String, gid_t) -> Int32

    /// - Parameter resolve: finds a group's id (the group database by default).
    /// - Parameter changeGroup: `chown` by default; tests make it fail.
    init(
        name: String?,
        logger: Logger,
        resolve: @escaping @Sendable (String) -> gid_t? = { PeerAuthorization.groupID(named: $0) },
        changeGroup: @escaping @Sendable (String, gid_t) -> Int32 = { chown($0, uid_t.max, $1) == 0 ? 0 : errno }
    ) {
        self.logger = logger
        self.resolve = resolve
        self.changeGroup = changeGroup
        state = Mutex(State(name: name, id: name.flatMap(resolve)))
    }

    /// The group's name and id; the id is nil without a group, or when it does not exist.
    var current: (name: String?, id: gid_t?) { state.withLock { ($0.name, $0.id) } }

    /// Resolves the group again (a reload): files shared from now on go to it, and its first
    /// failure is logged again.
    func update(name: String?) {
        let id = name.flatMap(resolve)
        state.withLock { $0 = State(name: name, id: id) }
    }

    /// Gives `path` to the group, unless it has it already or there is none.
    func share(_ path: String) {
        guard let (name, id) = state.withLock({ state in state.id.map { (state.name ?? "", $0) } }) else { return }
        var info = stat()
        if stat(path, &info) == 0, info.st_gid == id { return }
        let code = changeGroup(path, id)
        guard code != 0 else { return }
        let first = state.withLock { state -> Bool in
            guard state.id == id, !state.failureLogged else { return false }
            state.failureLogged = true
            return true
        }
        guard first else { return }
        logger.warning(
            "cannot give \(path) to group \(name) (gid \(id)): chown: \(String(cString: strerror(code))) "
                + "(errno \(code)); image files keep the daemon's group, so clients must be in that group "
                + "(docs/images.md); logged once"
        )
    }

    /// Whether the daemon can give files to the group: it is the daemon's group or one of its
    /// supplementary groups (the shipped unit still denies `chown` for any but `Group=`).
    var canShare: Bool {
        guard let id = current.id else { return false }
        if getegid() == id { return true }
        let count = getgroups(0, nil)
        guard count > 0 else { return false }
        var groups = [gid_t](repeating: 0, count: Int(count))
        return getgroups(count, &groups) > 0 && groups.contains(id)
    }
}

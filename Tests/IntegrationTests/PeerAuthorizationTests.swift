import Foundation
import TestSupport
import Testing
import Varlink

/// Who may call the mutating methods, judged from the peer's credentials as the kernel reports
/// them (`SO_PEERCRED`, `SO_PEERGROUPS`), never from `/etc/passwd` and `/etc/group`. Clients run
/// as `nobody` through util-linux's `setpriv`, which needs root.
@Suite(.timeLimit(.minutes(2)), .enabled(if: Host.canSwitchUser))
struct PeerAuthorizationTests {
    static func groupID(_ name: String) -> gid_t? { getgrnam(name).map { $0.pointee.gr_gid } }

    /// A daemon whose socket everyone may reach (the check under test is the daemon's, not the
    /// file mode's), with `client-group` set to `group`.
    func daemon(clientGroup group: String) async throws -> FaultDaemon {
        let daemon = FaultDaemon(root: try ScratchRoot())
        try daemon.configure("client-group = \(group)\n")
        try await daemon.start()
        chmod(daemon.root.url.path, 0o711)
        chmod(daemon.socket, 0o666)
        return daemon
    }

    /// `homefeedctl` run through `setpriv` with these credentials.
    func homefeedctl(_ credentials: [String], _ arguments: [String]) async throws -> CommandRunner.Outcome {
        let ctl = BuiltProducts.path("homefeedctl")
        return try await offPool { try CommandRunner(executable: Host.setpriv).run(credentials + [ctl] + arguments) }
    }

    @Test("peers outside root, the daemon's user and the client group may read but not mutate")
    func outsiders() async throws {
        let daemon = try await daemon(clientGroup: "homefeed")
        let nobody = ["--reuid", "65534", "--regid", "65534", "--clear-groups"]
        let help = try await homefeedctl(nobody, ["--help"])
        try #require(help.status == 0, "nobody cannot run the built homefeedctl")
        let status = try await homefeedctl(nobody, ["status", "--json", "--socket", daemon.socket])
        #expect(status.status == 0, "\(status.stderr)")
        let denied = try await homefeedctl(nobody, ["history", "add", "not allowed", "--socket", daemon.socket])
        #expect(denied.status == 1)
        #expect(denied.stderr.contains("org.varlink.service.PermissionDenied"))
        let socket = daemon.socket
        let root = try await offPool {
            try CommandRunner(executable: "homefeedctl").run(["history", "add", "allowed", "--socket", socket])
        }
        #expect(root.status == 0)
        #expect(await daemon.stop() == 0)
    }

    @Test("sizes: outsiders may list but neither report (ReportSizes) nor clear (ClearSizes); root may")
    func sizes() async throws {
        let daemon = try await daemon(clientGroup: "homefeed")
        let nobody = ["--reuid", "65534", "--regid", "65534", "--clear-groups"]
        let socket = ["--socket", daemon.socket]
        let list = try await homefeedctl(nobody, ["sizes", "list"] + socket)
        #expect(list.status == 0, "\(list.stderr)")
        for mutation in [["sizes", "report", "--profile", "phone", "any-id=40"], ["sizes", "clear"]] {
            let denied = try await homefeedctl(nobody, mutation + socket)
            #expect(denied.status == 1, "\(mutation): \(denied.stdout)")
            #expect(denied.stderr.contains("org.varlink.service.PermissionDenied"), "\(mutation): \(denied.stderr)")
            let allowed = try await offPool { try CommandRunner(executable: "homefeedctl").run(mutation + socket) }
            #expect(allowed.status == 0, "\(mutation): \(allowed.stderr)")
        }
        #expect(await daemon.stop() == 0)
    }

    @Test(
        "a process that dropped the client group is refused, although /etc/passwd gives its user that group",
        .enabled(if: groupID("nogroup") == 65534)
    )
    func droppedGroups() async throws {
        // nobody's primary group in /etc/passwd is nogroup (65534); this process runs with gid 1
        // and no supplementary groups, so the kernel says it is not in nogroup.
        let daemon = try await daemon(clientGroup: "nogroup")
        let dropped = ["--reuid", "65534", "--regid", "1", "--clear-groups"]
        let denied = try await homefeedctl(dropped, ["history", "add", "dropped", "--socket", daemon.socket])
        #expect(denied.status == 1, "\(denied.stdout)")
        #expect(denied.stderr.contains("org.varlink.service.PermissionDenied"))
        let kept = ["--reuid", "65534", "--regid", "65534", "--clear-groups"]
        let allowed = try await homefeedctl(kept, ["history", "add", "primary", "--socket", daemon.socket])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(await daemon.stop() == 0)
    }

    @Test(
        "a process given the client group as a supplementary group (SupplementaryGroups=) may mutate",
        .enabled(if: groupID("users") != nil)
    )
    func supplementaryGroup() async throws {
        let users = try #require(Self.groupID("users"))
        let daemon = try await daemon(clientGroup: "users")
        // /etc/group does not list nobody in users; only the process's credentials carry it.
        let supplementary = ["--reuid", "65534", "--regid", "65534", "--groups", String(users)]
        let allowed = try await homefeedctl(
            supplementary,
            ["history", "add", "supplementary", "--socket", daemon.socket]
        )
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let without = ["--reuid", "65534", "--regid", "65534", "--clear-groups"]
        let denied = try await homefeedctl(without, ["reload", "--socket", daemon.socket])
        #expect(denied.stderr.contains("org.varlink.service.PermissionDenied"))
        #expect(await daemon.stop() == 0)
    }
}

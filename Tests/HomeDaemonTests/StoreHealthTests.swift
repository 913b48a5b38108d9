import HomeStore
import Synchronization
import Testing
import Varlink

@testable import HomeDaemon

/// The store's health states and the mutating right, decided without any I/O.
@Suite struct StoreHealthTests {
    static let busy = StoreError(kind: .sqlite(.busy), message: "database is locked", sql: "BEGIN IMMEDIATE")

    @Test("three failures in a row make the store failing; a successful write ends it")
    func failing() {
        let health = StoreHealth(recovery: nil)
        #expect(health.report == .init(state: .ok, reason: nil))
        health.failed(Self.busy)
        health.failed(Self.busy)
        #expect(health.report.state == .ok)
        health.failed(Self.busy)
        // The reason is code and message, never the SQL.
        #expect(health.report == .init(state: .failing, reason: "SQLITE_BUSY (5): database is locked"))
        #expect(health.totalFailures == 3)
        health.succeeded()
        #expect(health.report.state == .ok)
        #expect(health.totalFailures == 3)
    }

    @Test("a watchdog probe that misses its ping counts once; its late answer counts only as a success")
    func missedProbe() {
        let health = StoreHealth(recovery: nil)
        health.probeMissed(.milliseconds(250))
        health.probeMissed(.milliseconds(250))
        #expect(health.report.state == .ok)
        // The probe that missed two pings fails at last: not a third failure, but the reason.
        health.probeAnswered(Self.busy)
        #expect(health.report.state == .ok)
        health.probeMissed(.milliseconds(250))
        #expect(health.report == .init(state: .failing, reason: "the store probe did not answer within 0.25 seconds"))
        health.probeAnswered(Self.busy)
        #expect(health.report == .init(state: .failing, reason: "SQLITE_BUSY (5): database is locked"))
        // A late success ends the failing state, as any successful write does.
        health.probeMissed(.milliseconds(250))
        health.probeAnswered(nil)
        #expect(health.report.state == .ok)
        // A probe that answers in time counts as before.
        for _ in 1...3 { health.probeAnswered(Self.busy) }
        #expect(health.report.state == .failing)
    }

    @Test("a corruption error makes the store failing at once, and no later success ends it")
    func corruption() {
        let health = StoreHealth(recovery: nil)
        for _ in 1...3 { health.failed(Self.busy) }
        health.succeeded()
        #expect(health.report.state == .ok)
        let corrupt = StoreError(kind: .sqlite(.corrupt), message: "database disk image is malformed", sql: "SELECT 1")
        #expect(corrupt.isCorruption)
        health.failed(corrupt)
        let failing = StoreHealth.Report(
            state: .failing,
            reason: "SQLITE_CORRUPT (11): database disk image is malformed"
        )
        #expect(health.report == failing)
        // The watchdog's probe and a source's fetch state write no notices page: they still
        // work on a file whose notices pages are damaged, and a busy lock after says nothing.
        health.succeeded()
        health.failed(Self.busy)
        health.succeeded()
        #expect(health.report == failing)
    }

    @Test("the first corruption error, of a call or of the probe, is handed on once")
    func corruptionFound() {
        let found = Mutex<[String]>([])
        let health = StoreHealth(recovery: nil) { error in found.withLock { $0.append(error.summary) } }
        health.failed(Self.busy)
        health.probeAnswered(Self.busy)
        #expect(found.withLock { $0 } == [])
        let index = StoreError(kind: .sqlite(.corruptIndex), message: "database disk image is malformed")
        health.probeAnswered(index)
        health.failed(index)
        health.probeMissed(.milliseconds(250))
        health.probeAnswered(StoreError(kind: .sqlite(.corrupt), message: "database disk image is malformed"))
        #expect(found.withLock { $0 } == ["SQLITE_CORRUPT_INDEX (779): database disk image is malformed"])
    }

    @Test("a recovered store says so until it fails, and again once it works")
    func recovered() {
        let recovery = StoreRecovery(
            reason: "quick_check: Page 6: btreeInitPage() returns error code 11",
            movedTo: "/var/lib/homefeed/homefeed.sqlite.corrupt-20261201T100000Z",
            salvagedManifests: 4,
            salvagedHistory: 12
        )
        let health = StoreHealth(recovery: recovery)
        #expect(health.report.state == .recovered)
        // Only the file's name reaches clients, not the directory.
        #expect(
            health.report.reason
                == "the file was corrupt (quick_check: Page 6: btreeInitPage() returns error code 11); moved aside to "
                + "homefeed.sqlite.corrupt-20261201T100000Z; started afresh with 4 manifests and 12 history events salvaged"
        )
        for _ in 1...3 { health.failed(Self.busy) }
        #expect(health.report.state == .failing)
        health.succeeded()
        #expect(health.report.state == .recovered)
    }

    struct PeerCase: Sendable, CustomTestStringConvertible {
        var peer: VarlinkPeer
        var allowed: Bool
        var testDescription: String { "uid \(peer.uid) gid \(peer.gid) groups \(peer.groups) → \(allowed)" }
    }

    @Test(
        "the mutating right comes from the peer's own credentials",
        arguments: [
            PeerCase(peer: VarlinkPeer(pid: 1, uid: 0, gid: 0), allowed: true),  // root
            PeerCase(peer: VarlinkPeer(pid: 1, uid: 61_234, gid: 61_234), allowed: true),  // the daemon's user
            PeerCase(peer: VarlinkPeer(pid: 1, uid: 1000, gid: 990), allowed: true),  // primary group
            // Supplementary only.
            PeerCase(peer: VarlinkPeer(pid: 1, uid: 1000, gid: 1000, groups: [27, 990]), allowed: true),
            PeerCase(peer: VarlinkPeer(pid: 1, uid: 1000, gid: 1000, groups: [27]), allowed: false),
            PeerCase(peer: .unknown, allowed: false),
        ]
    )
    func mutatingRight(_ c: PeerCase) {
        let authorization = PeerAuthorization(clientGroup: "homefeed", daemonUID: 61_234) {
            $0 == "homefeed" ? 990 : nil
        }
        #expect(authorization.mayMutate(c.peer) == c.allowed)
    }

    @Test("a reload resolves the new group; a group that does not exist leaves root and the daemon's user")
    func reloadGroup() {
        let authorization = PeerAuthorization(clientGroup: "homefeed", daemonUID: 61_234) { _ in 990 }
        let member = VarlinkPeer(pid: 1, uid: 1000, gid: 1000, groups: [990])
        #expect(authorization.mayMutate(member))
        let policy = authorization.update(clientGroup: "gone") { _ in nil }
        #expect(policy.groupID == nil)
        #expect(!authorization.mayMutate(member))
        #expect(authorization.mayMutate(VarlinkPeer(pid: 1, uid: 61_234, gid: 61_234)))
    }
}

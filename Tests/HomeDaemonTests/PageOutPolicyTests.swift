import Synchronization
import Testing

@testable import HomeDaemon

@Suite("PageOutPolicy")
struct PageOutPolicyTests {
    /// A process whose resident file-backed bytes the test sets, and whose page-out drops them
    /// to what it keeps shared with others.
    final class SimulatedProcess: Sendable {
        let state = Mutex<(resident: Int, shared: Int, pageOuts: Int)>((0, 0, 0))

        func touch(_ bytes: Int) { state.withLock { $0.resident += bytes } }
        var pageOuts: Int { state.withLock { $0.pageOuts } }
        var resident: Int { state.withLock { $0.resident } }

        func policy(threshold: Int) -> PageOutPolicy {
            PageOutPolicy(
                threshold: threshold,
                residentFileBytes: { self.state.withLock { $0.resident } },
                pageOut: {
                    self.state.withLock {
                        $0.pageOuts += 1
                        $0.resident = $0.shared
                    }
                }
            )
        }
    }

    @Test("start-up leaves more than the threshold resident: paged out once, not again until as much returns")
    func growth() {
        let process = SimulatedProcess()
        process.state.withLock { $0.shared = 3 << 20 }
        let policy = process.policy(threshold: 4 << 20)
        process.touch(30 << 20)
        #expect(policy.relieve())
        #expect(process.resident == 3 << 20)
        // A health check and a few calls: 1 MiB back, then 2 more; 3 MiB < 4 MiB above the
        // 3 MiB left after the page-out.
        process.touch(1 << 20)
        #expect(!policy.relieve())
        process.touch(2 << 20)
        #expect(!policy.relieve())
        // An ingest: 6 MiB more, 9 MiB above the baseline.
        process.touch(6 << 20)
        #expect(policy.relieve())
        #expect(process.pageOuts == 2)
    }

    @Test("an unreadable /proc pages nothing out")
    func unreadable() {
        let pageOuts = Mutex(0)
        let policy = PageOutPolicy(threshold: 1, residentFileBytes: { nil }, pageOut: { pageOuts.withLock { $0 += 1 } })
        #expect(!policy.relieve())
        #expect(pageOuts.withLock { $0 } == 0)
    }
}

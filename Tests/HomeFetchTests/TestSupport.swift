import Foundation
import HomeFetch
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Process-wide objects the tests share.
///
/// Sessions live for the whole test process: deallocating a `URLSession` can crash
/// corelibs-foundation (`swift-on-linux.md` §2.2), which is also why every test uses the one
/// `FeedFetcher` and passes its own limits in each `FetchRequest`.
enum TestSupport {
    /// Tests run in parallel against one loopback server, so the per-host connection cap of
    /// the daemon (where the scheduler allows one fetch per host anyway) would queue them.
    static let fetcher = FeedFetcher(configuration: FeedFetcher.Configuration(maxConnectionsPerHost: 32))
    static let rawSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    /// A key no other test uses, for the fixture server's per-key request log.
    static func key() -> String { UUID().uuidString.lowercased() }

    /// Limits small enough that the failure cases end quickly.
    static func quickLimits(
        maxBodyBytes: Int = 1 << 20,
        totalTimeout: Double = 10,
        maxRedirects: Int = 5
    ) -> FetchLimits {
        FetchLimits(
            maxBodyBytes: maxBodyBytes,
            maxRedirects: maxRedirects,
            connectTimeout: 10,
            totalTimeout: totalTimeout
        )
    }

    /// A fresh directory under /tmp, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/hf-fetch-\(key())", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let start = Date(timeIntervalSince1970: 2_000_000_000)
}

/// A clock the test moves by hand (style.md §3.7: scheduler tests never sleep).
///
/// Sendable: the time and the sleepers are behind a `Mutex`; sleepers are resumed outside it.
final class ManualClock: FetchClock {
    private struct Sleeper {
        var id: Int
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state: Mutex<State>

    init(_ start: Date = TestSupport.start) {
        state = Mutex(State(now: start))
    }

    func now() -> Date { state.withLock { $0.now } }

    func sleep(until deadline: Date) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Decision { case now, wait, cancelled }
                let decision = state.withLock { state -> Decision in
                    if Task.isCancelled { return .cancelled }
                    if deadline <= state.now { return .now }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .wait
                }
                switch decision {
                case .now: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time to `date` and wakes every sleeper whose deadline has come.
    func advance(to date: Date) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, date)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    func advance(by seconds: Double) {
        advance(to: now().addingTimeInterval(seconds))
    }
}

/// Sink and persistence in one, recording what the scheduler hands over.
actor Recorder: FetchedDocumentSink, FetchStatePersisting {
    private(set) var documents: [(url: String, document: FetchedDocument)] = []
    private(set) var states: [SourceFetchState] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var failIngest: Set<String> = []

    func failIngest(of url: String) { failIngest.insert(url) }

    func ingest(_ document: FetchedDocument, from source: FeedSource) async throws -> Bool {
        if failIngest.contains(source.url) { throw FixtureError("disk full") }
        documents.append((source.url, document))
        return true
    }

    func persist(_ state: SourceFetchState, of source: FeedSource) async throws {
        states.append(state)
        let ready = waiters.filter { $0.count <= states.count }
        waiters.removeAll { $0.count <= states.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once at least `count` states were persisted in total.
    func waitForStates(_ count: Int) async {
        guard states.count < count else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    func states(of url: String) -> [SourceFetchState] { states.filter { $0.url == url } }
    func documentCount(of url: String) -> Int { documents.filter { $0.url == url }.count }
}

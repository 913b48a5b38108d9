import Foundation
import HomeFetch
import Synchronization
import TestSupport
import Testing

/// Process-wide objects the tests share.
enum FetchTesting {
    /// Tests run in parallel against one loopback server, so the per-host connection cap of
    /// the daemon (where the scheduler allows one fetch per host anyway) would queue them.
    static let fetcher = FeedFetcher(
        configuration: FeedFetcher.Configuration(maxConnectionsPerHost: 64, maxTotalConnections: 64)
    )

    /// Fetches `path` (or an absolute URL) of the shared fixture server with the shared fetcher.
    static func fetch(
        _ path: String,
        validators: HTTPValidators = HTTPValidators(),
        limits: FetchLimits = quickLimits(),
        fetcher: FeedFetcher = FetchTesting.fetcher
    ) async throws -> Result<FetchOutcome, FetchError> {
        let url = path.hasPrefix("/") ? try await FixtureServer.shared.value.url(path) : path
        do {
            return .success(try await fetcher.fetch(FetchRequest(url: url, validators: validators, limits: limits)))
        } catch {
            return .failure(error)
        }
    }

    /// The error a fetch of `path` must end with.
    static func fetchError(
        _ path: String,
        limits: FetchLimits = quickLimits(),
        fetcher: FeedFetcher = FetchTesting.fetcher
    ) async throws -> FetchError {
        switch try await fetch(path, limits: limits, fetcher: fetcher) {
        case .success(let outcome):
            Issue.record("expected an error, got \(outcome)")
            throw FixtureError("no error")
        case .failure(let error):
            return error
        }
    }

    /// A key no other test uses, for the fixture server's per-key request log.
    static func key() -> String { UUID().uuidString.lowercased() }

    /// Limits small enough that the failure cases end quickly.
    static func quickLimits(
        maxBodyBytes: Int = 1 << 20,
        totalTimeout: Double = 10,
        maxRedirects: Int = 5,
        lowSpeedTime: Double = 30
    ) -> FetchLimits {
        FetchLimits(
            maxBodyBytes: maxBodyBytes,
            maxRedirects: maxRedirects,
            connectTimeout: 10,
            totalTimeout: totalTimeout,
            lowSpeedTime: lowSpeedTime
        )
    }

    static let start = ManualClock.defaultStart
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

import Foundation
import HomeFeeds
import HomeFetch
import TestSupport
import Testing

/// Cancelling a fetch, shutting the fetcher down with transfers in flight (or before any, when
/// its loop never started), and a reload that drops a source whose fetch is running.
@Suite(.timeLimit(.minutes(1)))
struct CancellationTests {
    @Test("a fetch the fetcher cancels on its own (its loop is gone) is a failure with backoff, not a spin")
    func cancelledByTheFetcher() async throws {
        let fetcher = FeedFetcher()
        await fetcher.shutdown()
        let url = try await FixtureServer.shared.value.url("/feed/\(FetchTesting.key())")
        let recorder = Recorder()
        let scheduler = FetchScheduler(
            sources: [FeedSource(url: url, kind: .notices)],
            fetcher: fetcher,
            sink: recorder,
            persistence: recorder,
            clock: ManualClock(),
            configuration: FetchSchedulerConfiguration(jitter: 0, backoffBase: 60),
            jitterSeed: 1
        )
        #expect(try await scheduler.refresh(url: url) == RefreshSummary(attempted: 1, failed: 1))
        let state = try #require(await scheduler.state(for: url))
        #expect(state.consecutiveFailures == 1)
        #expect(state.nextAttempt == FetchTesting.start.addingTimeInterval(60))
        #expect(state.lastError == "\(url): cancelled by the fetcher without a stop: its fetch loop is not running")
        #expect(await recorder.states(of: url).count == 1)
    }

    @Test("cancelling the task of a stalled fetch ends it as cancelled, not timed out")
    func cancelTask() async throws {
        let server = try await FixtureServer.shared.value
        let request = FetchRequest(
            url: server.url("/stallhead/\(FetchTesting.key())"),
            limits: FetchTesting.quickLimits(totalTimeout: 30)
        )
        let task = Task { () -> FetchError? in
            do throws(FetchError) {
                _ = try await FetchTesting.fetcher.fetch(request)
                return nil
            } catch {
                return error
            }
        }
        // Cancel once the server has the request (the transfer is running in libcurl).
        try await server.waitForRequest(request.url)
        task.cancel()
        #expect(await task.value?.kind == .cancelled)
    }

    @Test("a task cancelled before its fetch starts never reaches the server")
    func cancelledBeforeStart() async throws {
        let server = try await FixtureServer.shared.value
        let key = FetchTesting.key()
        let task = Task { () -> FetchError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(FetchError) {
                _ = try await FetchTesting.fetcher.fetch(FetchRequest(url: server.url("/feed/\(key)")))
                return nil
            } catch {
                return error
            }
        }
        #expect(await task.value?.kind == .cancelled)
        #expect(try await server.requests(key).isEmpty)
    }

    @Test("shutdown with 20 transfers in flight cancels them all; later fetches are cancelled at once")
    func shutdownInFlight() async throws {
        let server = try await FixtureServer.shared.value
        let fetcher = FeedFetcher(
            configuration: FeedFetcher.Configuration(maxConnectionsPerHost: 32, maxTotalConnections: 32)
        )
        let key = FetchTesting.key()
        let urls = (0..<20).map { server.url("/redirect/\(key)?code=302&to=/stallhead/\(key)-\($0)") }
        let results = Task {
            await withTaskGroup(of: FetchError.Kind?.self, returning: [FetchError.Kind?].self) { group in
                for url in urls {
                    group.addTask {
                        do throws(FetchError) {
                            _ = try await fetcher.fetch(
                                FetchRequest(url: url, limits: FetchTesting.quickLimits(totalTimeout: 30))
                            )
                            return nil
                        } catch {
                            return error.kind
                        }
                    }
                }
                var kinds: [FetchError.Kind?] = []
                for await kind in group { kinds.append(kind) }
                return kinds
            }
        }
        try await server.waitForRequests(key: key, prefix: "/stallhead/", count: 20)
        await fetcher.shutdown()
        let kinds = await results.value
        #expect(kinds.count == 20)
        #expect(kinds.allSatisfy { $0 == .cancelled })
        let late = try await FetchTesting.fetchError("/feed/\(key)", fetcher: fetcher)
        #expect(late.kind == .cancelled)
    }

    @Test("libcurl's loop starts with the first HTTP fetch: never for file: sources, nor after a shutdown")
    func loopStartsWithFirstHTTPFetch() async throws {
        let scratch = try TemporaryDirectory(prefix: "hf-fetch")
        defer { withExtendedLifetime(scratch) {} }  // removed on release
        let rss = #"<rss version="2.0"><channel><title>t</title><item><title>A</title></item></channel></rss>"#
        let file = URL(fileURLWithPath: try scratch.write(rss, to: "feed.xml"))

        let fetcher = FeedFetcher()
        _ = try await FetchTesting.fetch(file.absoluteString, fetcher: fetcher).get()
        #expect(!fetcher._hasStartedLoop)
        _ = try await FetchTesting.fetch("/feed/\(FetchTesting.key())", fetcher: fetcher).get()
        #expect(fetcher._hasStartedLoop)
        await fetcher.shutdown()

        let early = FeedFetcher()
        await early.shutdown()
        let late = try await FetchTesting.fetchError("/feed/\(FetchTesting.key())", fetcher: early)
        #expect(late.kind == .cancelled)
        #expect(!early._hasStartedLoop)
    }
}

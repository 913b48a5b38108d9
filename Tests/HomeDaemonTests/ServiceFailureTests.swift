import Foundation
import LogCore
import TestSupport
import Testing

@testable import HomeDaemon
@testable import HomeStore

/// Store failures reach the caller as ``ServiceError/storeUnavailable(_:)``, never as success,
/// and `status()` still answers. The store is broken from a second connection on its file, the
/// way another process could.
@Suite(.timeLimit(.minutes(1)))
struct ServiceFailureTests {
    /// A copy of `feeds/` (so tests may edit it) and an empty state directory, removed after
    /// the test.
    let sample: SampleConfiguration
    var configDirectory: URL { sample.configDirectory }
    var stateDirectory: URL { sample.stateDirectory }

    init() throws {
        sample = try SampleConfiguration(prefix: "hf-fail")
    }

    func start() async throws -> HomeService {
        try await HomeService(
            configuration: try await LoadedConfiguration.load(directory: configDirectory),
            stateDirectory: stateDirectory,
            logger: Logger(label: "test", level: .error, sink: { _ in })
        )
    }

    /// Runs `sql` on the service's file from a connection of its own.
    func breakStore(_ sql: String) throws {
        let other = try Database(path: stateDirectory.appendingPathComponent("homefeed.sqlite").path)
        try other.executeScript(sql)
    }

    func isStoreUnavailable(_ error: ServiceError) -> Bool {
        if case .storeUnavailable = error { return true }
        return false
    }

    @Test("a history event whose version cannot be stored fails; the previous version keeps serving")
    func publishFailure() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let version = await service.version
        try breakStore("DROP TABLE manifests")
        do {
            _ = try await service.recordHistory(title: "저장 안 됨", link: nil, kind: nil, at: nil)
            Issue.record("reported success")
        } catch {
            #expect(isStoreUnavailable(error), "\(error)")
            #expect(error.description.contains("no such table: manifests"))
        }
        #expect(await service.version == version)
        #expect(await service.manifest(profile: "phone")?.version == version)
    }

    @Test("a version the locked store could not take is published once the lock is released, with no new change")
    func publishRetry() async throws {
        var configuration = try await LoadedConfiguration.load(directory: configDirectory)
        configuration.settings.storeBusyTimeout = 1
        let log = LogRecorder()
        let service = try await HomeService(
            configuration: configuration,
            stateDirectory: stateDirectory,
            logger: Logger(label: "test", level: .error, sink: log.sink)
        )
        defer { Task { await service.stop() } }
        let version = await service.version
        // Another process's write lock, held past the store's busy timeout.
        let other = try Database(path: stateDirectory.appendingPathComponent("homefeed.sqlite").path)
        try other.executeScript("BEGIN EXCLUSIVE")
        await service.requestPublish()
        let failure = await service.awaitPublished()
        #expect(failure.map(isStoreUnavailable) == true, "\(String(describing: failure))")
        #expect(await service.version == version)
        let logged = log.lines.filter { $0.contains("cannot publish a new version") }
        #expect(logged.first?.contains("trying again in 1 s") == true, "\(logged)")
        try other.executeScript("ROLLBACK")
        // Nothing else asks for a version: the retry makes it.
        var published = version
        for _ in 0..<200 where published == version {
            try await Task.sleep(for: .milliseconds(50))
            published = await service.version
        }
        #expect(published == version + 1)
        #expect(await service.awaitPublished() == nil)
    }

    @Test("a reload whose version cannot be stored is applied, answers the served version, and publishes later")
    func reloadPublishFailure() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let version = await service.version
        let settings = configDirectory.appendingPathComponent("homefeedd.conf")
        let text = try String(contentsOf: settings, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "user-name = 김홈피드", with: "user-name = 박새설정").utf8)
            .write(to: settings)
        try breakStore("DROP TABLE manifests")
        // The sources register (another table); the version is not stored.
        let served = try await service.reload()
        #expect(served == version)
        #expect(await service.configuration.settings.user.name == "박새설정")
        #expect(await service.manifest(profile: "phone")?.version == version)
        // Once the store takes versions again, the retry publishes the new configuration.
        try breakStore(
            """
            CREATE TABLE manifests (profile TEXT NOT NULL PRIMARY KEY, version INTEGER NOT NULL,
                etag TEXT NOT NULL, generated_at INTEGER NOT NULL, bytes BLOB NOT NULL) STRICT;
            """
        )
        var published = version
        for _ in 0..<200 where published == version {
            try await Task.sleep(for: .milliseconds(50))
            published = await service.version
        }
        #expect(published > version)
        let manifest = try #require(await service.manifest(profile: "phone"))
        #expect(String(decoding: manifest.bytes, as: UTF8.self).contains("박새설정"))
    }

    @Test("a refresh whose documents cannot be stored fails instead of reporting them changed")
    func ingestFailure() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        try breakStore("DROP TABLE notice_tombstones; DROP TABLE notices")
        do {
            let result = try await service.refresh(url: nil)
            Issue.record("reported \(result)")
        } catch {
            #expect(isStoreUnavailable(error), "\(error)")
        }
    }

    @Test("status answers while the store cannot be read, and turns failing after three failures")
    func statusWhileFailing() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let healthy = await service.status()
        #expect(healthy.store == "ok")
        #expect(healthy.sources.count == 3)
        try breakStore("DROP TABLE history")
        // Each status() reads the history count and fails: 3 failures in a row.
        _ = await service.status()
        _ = await service.status()
        let failing = await service.status()
        #expect(failing.store == "failing")
        #expect(failing.storeReason == "SQLITE_ERROR (1): no such table: history")
        // The last counts read are kept.
        #expect(failing.sources.count == 3)
        #expect(failing.version == healthy.version)
    }

    /// `STATUS=` follows every version: its summary reads the sources alone, not the counts
    /// `GetStatus` makes over every notice and history event.
    @Test("the STATUS= summary reads no counts, and keeps the last sources while the store cannot be read")
    func statusSummary() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let healthy = await service.status()
        #expect(
            await service.statusSummary()
                == StatusSummary(version: healthy.version, store: "ok", storeReason: nil, sources: 3, failingSources: 0)
        )
        // Counting fails from here on (three failures in a row turn the store failing); the
        // summary does not count.
        try breakStore("DROP TABLE history")
        for _ in 0..<3 { _ = await service.statusSummary() }
        #expect(await service.statusSummary().store == "ok")
        try breakStore("DROP TABLE notice_tombstones; DROP TABLE notices; DROP TABLE sources")
        _ = await service.statusSummary()
        _ = await service.statusSummary()
        let failing = await service.statusSummary()
        #expect(failing.store == "failing")
        #expect(failing.storeReason?.contains("no such table: sources") == true, "\(failing)")
        #expect(failing.sources == 3)
        #expect(failing.version == healthy.version)
    }
}

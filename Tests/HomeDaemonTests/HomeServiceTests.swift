import Foundation
import HomeLayout
import HomeStore
import LogCore
import TestSupport
import Testing
import Varlink

@testable import HomeDaemon

/// The daemon's service on the sample configuration of `feeds/`, offline, with a real store.
@Suite(.timeLimit(.minutes(1)))
struct HomeServiceTests {
    /// A copy of `feeds/` (so tests may edit it) and an empty state directory, removed after
    /// the test.
    let sample: SampleConfiguration
    var configDirectory: URL { sample.configDirectory }
    var stateDirectory: URL { sample.stateDirectory }

    init() throws {
        sample = try SampleConfiguration(prefix: "hf-svc")
    }

    func start() async throws -> HomeService {
        let configuration = try await LoadedConfiguration.load(directory: configDirectory)
        return try await HomeService(
            configuration: configuration,
            stateDirectory: stateDirectory,
            logger: Logger(label: "test", level: .error, sink: { _ in })
        )
    }

    func sections(_ manifest: EncodedManifest?) throws -> [[String: Any]] {
        let bytes = try #require(manifest?.bytes)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        return try #require(root["sections"] as? [[String: Any]])
    }

    func items(_ section: [String: Any]) -> [[String: Any]] { section["items"] as? [[String: Any]] ?? [] }

    func titles(_ section: [String: Any]) -> [String?] {
        items(section).map { ($0["content"] as? [String: Any])?["title"] as? String }
    }

    @Test("refresh pulls the sample feeds and service links into the four sections")
    func fourSections() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let before = await service.version
        let result = try await service.refresh(url: nil)
        #expect(result.attempted == 3)
        #expect(result.changed == 3)
        #expect(result.version > before)

        let manifest = await service.manifest(profile: "phone")
        let sections = try sections(manifest)
        #expect(
            sections.compactMap { $0["id"] as? String } == ["userHistory", "mainService", "otherService", "appService"]
        )
        // No history yet: the placeholder, under the profile header.
        #expect(titles(sections[0]) == ["아직 활동 기록이 없어요"])
        let header = try #require(sections[0]["header"] as? [String: Any])
        #expect((header["content"] as? [String: Any])?["title"] as? String == "김홈피드")
        // The newest notice heads the main section, then the three main services.
        #expect(items(sections[1]).map { $0["kind"] as? String } == ["notice", "service", "service", "service"])
        #expect(titles(sections[1]).dropFirst() == ["학사 안내", "도서관", "오늘의 식단"])
        #expect(items(sections[2]).count == 5)
        #expect(items(sections[3]).count == 6)
        #expect(
            (sections[3]["header"] as? [String: Any]).flatMap { ($0["content"] as? [String: Any])?["title"] as? String }
                == "앱 서비스"
        )

        let status = await service.status()
        #expect(status.sources.count == 3)
        #expect(status.sources.allSatisfy { $0.lastError == nil && $0.entries > 0 })
        #expect(status.notices == 5)
    }

    @Test("GetStatus counts the warnings of each source's last document")
    func parseWarnings() async throws {
        // Two bare '&' (one warning each) and an undefined entity in the English sample.
        let english = configDirectory.appendingPathComponent("samples/notices-en.xml")
        let text = try String(contentsOf: english, encoding: .utf8)
            .replacingOccurrences(of: "Q&amp;A", with: "Q&A & more &nosuch;")
        try text.write(to: english, atomically: true, encoding: .utf8)
        let service = try await start()
        defer { Task { await service.stop() } }
        _ = try await service.refresh(url: nil)
        let status = await service.status()
        let warnings = Dictionary(uniqueKeysWithValues: status.sources.map { ($0.url, $0.warnings) })
        #expect(warnings.count == 3)
        #expect(warnings.first { $0.key.hasSuffix("notices-en.xml") }?.value == 3)
        #expect(warnings.filter { !$0.key.hasSuffix("notices-en.xml") }.values.allSatisfy { $0 == 0 })
    }

    @Test("a history event makes a new version, pushed to subscribers, with the event on top")
    func historyEvent() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        var versions = await service.versions().makeAsyncIterator()
        let recorded = try await service.recordHistory(title: "도서관 좌석 예약", link: nil, kind: "open", at: nil)
        // The version is in the stream before the call returns.
        #expect(await versions.next() == recorded.version)
        #expect(titles(try sections(await service.manifest(profile: "tablet"))[0]) == ["도서관 좌석 예약"])
        let first = try #require(items(try sections(await service.manifest(profile: "phone"))[0]).first)
        #expect(first["id"] as? String == "history:\(recorded.id)")
        await #expect(throws: ServiceError.self) {
            _ = try await service.recordHistory(title: "  ", link: nil, kind: nil, at: nil)
        }
    }

    /// Replaces `text`, which the sample's `homefeedd.conf` must hold, with `replacement`.
    func editConfiguration(replacing text: String, with replacement: String) throws {
        let conf = configDirectory.appendingPathComponent("homefeedd.conf")
        let current = try String(contentsOf: conf, encoding: .utf8)
        try #require(current.contains(text))
        try current.replacingOccurrences(of: text, with: replacement).write(to: conf, atomically: true, encoding: .utf8)
    }

    /// Records `count` history events a minute apart, oldest first; their titles, newest first.
    func recordHistory(_ count: Int, on service: HomeService) async throws -> [String] {
        var titles: [String] = []
        for index in 0..<count {
            let title = "event \(index)"
            let at = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            _ = try await service.recordHistory(title: title, link: nil, kind: "open", at: at)
            titles.insert(title, at: 0)
        }
        return titles
    }

    @Test("an event older than every kept one while the history is full is the caller's error, not the store's")
    func historyEventTooOld() async throws {
        try editConfiguration(replacing: "history-limit = 200", with: "history-limit = 3")
        let service = try await start()
        defer { Task { await service.stop() } }
        let recorded = try await recordHistory(3, on: service)
        let version = await service.version
        do {
            _ = try await service.recordHistory(
                title: "too old",
                link: nil,
                kind: "open",
                at: Date(timeIntervalSince1970: 1_600_000_000)
            )
            Issue.record("recorded an event the trim removes at once")
        } catch {
            guard case .invalidArgument(let parameter, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(parameter == "at")
            #expect(reason.contains("would be trimmed at once"))
        }
        #expect(await service.status().store == "ok")
        #expect(await service.version == version)
        #expect(try await service.snapshot(of: service.configuration).history.map(\.title) == recorded)
    }

    @Test("the history section shows the newest events its binding takes")
    func historyRun() async throws {
        // `items = history:3` in the sample: three of five, and the snapshot reads no more.
        let service = try await start()
        defer { Task { await service.stop() } }
        let recorded = try await recordHistory(5, on: service)
        #expect(titles(try sections(await service.manifest(profile: "phone"))[0]) == Array(recorded.prefix(3)))
        #expect(try await service.snapshot(of: service.configuration).history.count == 3)
    }

    @Test("a history run without a limit shows every event, newest first")
    func unboundedHistoryRun() async throws {
        try editConfiguration(replacing: "items = history:3\n", with: "items = history\n")
        let service = try await start()
        defer { Task { await service.stop() } }
        let recorded = try await recordHistory(5, on: service)
        #expect(titles(try sections(await service.manifest(profile: "phone"))[0]) == recorded)
        #expect(try await service.snapshot(of: service.configuration).history.count == 5)
    }

    @Test("a version reads as many notices as its sections show: one headline, or all of them")
    func noticeRun() async throws {
        // `items = notices:1! …` in the sample: one row of the five.
        let service = try await start()
        _ = try await service.refresh(url: nil)
        #expect(try await service.snapshot(of: service.configuration).notices.count == 1)
        await service.stop()
        // Bound without a limit: every configured source's notices, newest first.
        try editConfiguration(replacing: "items = notices:1! ", with: "items = notices ")
        let unbounded = try await start()
        defer { Task { await unbounded.stop() } }
        let notices = try await unbounded.snapshot(of: unbounded.configuration).notices
        #expect(notices.count == 5)
        #expect(
            notices.map(\.published) == notices.map(\.published).sorted { ($0 ?? .distantPast) > ($1 ?? .distantPast) }
        )
    }

    /// Replaces the sample feed `samples/NAME` with an Atom feed of `count` entries titled `ID 0` …,
    /// the first `age` seconds old and each later one a minute older.
    func writeFeed(_ name: String, id: String, count: Int, age: TimeInterval) throws {
        let now = Date()
        var atom = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">"
        atom += "<title>\(id)</title><id>urn:\(id)</id><updated>\(now.ISO8601Format())</updated>\n"
        for index in 0..<count {
            let date = now.addingTimeInterval(-age - Double(index) * 60).ISO8601Format()
            atom +=
                "<entry><title>\(id) \(index)</title><id>urn:\(id):\(index)</id><updated>\(date)</updated></entry>\n"
        }
        atom += "</feed>\n"
        try atom.write(to: configDirectory.appendingPathComponent("samples/\(name)"), atomically: true, encoding: .utf8)
    }

    @Test("a notices@URL run shows its source's own notices, however many newer ones other sources hold")
    func noticesOfOneSourcePastOthers() async throws {
        // 150 Korean notices, every one newer than the two English ones.
        try writeFeed("notices-ko.xml", id: "ko", count: 150, age: 3_600)
        try writeFeed("notices-en.xml", id: "en", count: 2, age: 86_400)
        try editConfiguration(
            replacing: "items = notices:1! ",
            with: "items = notices@samples/notices-en.xml:3! notices:2 "
        )
        let service = try await start()
        defer { Task { await service.stop() } }
        _ = try await service.refresh(url: nil)
        let main = try sections(await service.manifest(profile: "phone"))[1]
        #expect(
            Array(titles(main).prefix(6)) == ["en 0", "en 1", "새 공지사항이 없어요", "ko 0", "ko 1", "학사 안내"]
        )
        let content = try await service.snapshot(of: service.configuration)
        #expect(content.notices.map(\.title) == ["ko 0", "ko 1"])
        #expect(content.sourceNotices.values.map { $0.map(\.title) } == [["en 0", "en 1"]])
    }

    @Test("a run of hundreds of notices shows as many as there are, not a hundred and placeholders")
    func longNoticeRun() async throws {
        try writeFeed("notices-ko.xml", id: "ko", count: 300, age: 3_600)
        try editConfiguration(replacing: "items = notices:1! services/main-service:3", with: "items = notices:300!")
        let service = try await start()
        defer { Task { await service.stop() } }
        _ = try await service.refresh(url: nil)
        let main = try sections(await service.manifest(profile: "phone"))[1]
        let kinds = items(main).map { $0["kind"] as? String }
        #expect(kinds.count == 300)
        #expect(kinds.allSatisfy { $0 == "notice" })
        #expect(titles(main).last == "ko 299")
    }

    @Test("a restarted daemon serves the persisted manifest, and item ids stay stable")
    func restart() async throws {
        var ids: [String] = []
        do {
            let service = try await start()
            _ = try await service.refresh(url: nil)
            ids = items(try sections(await service.manifest(profile: "phone"))[1]).compactMap { $0["id"] as? String }
            await service.stop()
        }
        let service = try await start()
        defer { Task { await service.stop() } }
        let again = items(try sections(await service.manifest(profile: "phone"))[1]).compactMap { $0["id"] as? String }
        #expect(!ids.isEmpty)
        #expect(again == ids)
    }

    @Test("versions keep increasing when the store loses its manifests: recovered with none, or deleted")
    func versionsAfterLostManifests() async throws {
        var before = 0
        do {
            let service = try await start()
            _ = try await service.recordHistory(title: "복구 전", link: nil, kind: nil, at: nil)
            before = await service.version
            await service.stop()
        }
        // Bytes over the whole file: SQLite cannot read it, nothing is salvaged.
        let store = stateDirectory.appendingPathComponent("homefeed.sqlite").path
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
            try FileManager.default.removeItem(atPath: store + suffix)
        }
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: store))
        do {
            let service = try await start()
            #expect(await service.status().store == "recovered")
            let recovered = await service.version
            #expect(recovered > before)
            before = recovered
            await service.stop()
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
            try FileManager.default.removeItem(atPath: store + suffix)
        }
        let service = try await start()
        defer { Task { await service.stop() } }
        #expect(await service.version > before)
    }

    @Test(
        "a clean stop brings the reservation down to the last version; a start continues above the reservation when the store is behind it"
    )
    func versionsAfterPowerLoss() async throws {
        let reserved = stateDirectory.appendingPathComponent("versions-reserved")
        var last = 0
        do {
            let service = try await start()
            _ = try await service.recordHistory(title: "정전 전", link: nil, kind: nil, at: nil)
            last = await service.version
            await service.stop()
        }
        // The checkpoint synced the manifests: the next start continues from the last version.
        #expect(try String(contentsOf: reserved, encoding: .utf8) == "\(last)\n")
        do {
            let service = try await start()
            #expect(await service.version == last + 1)
            last = await service.version
            _ = try await service.recordHistory(title: "정전 직전", link: nil, kind: nil, at: nil)
            // Served, then lost to a power loss (synchronous=NORMAL), which the reservation
            // written before it was served survives: the store's file still says `last`.
            #expect(try String(contentsOf: reserved, encoding: .utf8) == "\(last + VersionReservation.block - 1)\n")
        }
        let storePath = stateDirectory.appendingPathComponent("homefeed.sqlite").path
        let store = try await Store(path: storePath)
        #expect(try await store.loadManifests().map(\.version).max() == Int64(last + 1))
        for manifest in try await store.loadManifests() {
            try await store.saveManifest(
                StoredManifest(
                    profile: manifest.profile,
                    version: Int64(last),
                    etag: manifest.etag,
                    bytes: manifest.bytes,
                    generatedAt: manifest.generatedAt
                )
            )
        }
        let service = try await start()
        defer { Task { await service.stop() } }
        #expect(await service.version > last + VersionReservation.block - 1)
    }

    @Test("a damaged index that quick_check misses is rebuilt at the next start, instead of failing the store again")
    func damagedIndex() async throws {
        try editConfiguration(replacing: "history-limit = 200", with: "history-limit = 3")
        let titles = try await { () async throws -> [String] in
            let service = try await start()
            let titles = try await recordHistory(3, on: service)
            await service.stop()
            return titles
        }()
        let storePath = stateDirectory.appendingPathComponent("homefeed.sqlite").path
        let root = try Database(path: storePath).scalar(
            "SELECT rootpage FROM sqlite_schema WHERE name = 'history_by_time'"
        )
        try IndexDamage.shiftFirstKey(onLeafPage: Int(root), of: storePath)
        let marker = stateDirectory.appendingPathComponent(IntegrityCheckMarker.fileName).path

        // quick_check passes; the fourth event's trim meets the damaged entry: the store is
        // failing until the restart, which is asked for the full check.
        do {
            let service = try await start()
            #expect(await service.status().store == "ok")
            await #expect(throws: ServiceError.self) {
                _ = try await service.recordHistory(title: "event 3", link: nil, kind: "open", at: nil)
            }
            #expect(await service.status().store == "failing")
            #expect(try String(contentsOfFile: marker, encoding: .utf8).hasPrefix("SQLITE_CORRUPT_INDEX (779)"))
            await service.stop()
        }
        let service = try await start()
        defer { Task { await service.stop() } }
        #expect(await service.status().store == "ok")
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(try await service.snapshot(of: service.configuration).history.map(\.title) == titles)
        _ = try await service.recordHistory(title: "event 3", link: nil, kind: "open", at: nil)
        #expect(await service.status().history == 3)
    }

    @Test(
        "a start that fails on a corrupt store asks the next start for the full check; one that fails otherwise does not"
    )
    func startFailedOnCorruption() throws {
        let marker = stateDirectory.appendingPathComponent(IntegrityCheckMarker.fileName).path
        let logger = Logger(label: "test", level: .error, sink: { _ in })
        // SQLITE_CONSTRAINT (19): not damage.
        let constraint = StoreError(kind: .sqlite(ResultCode(rawValue: 19)), message: "UNIQUE constraint failed")
        HomeService.startFailed(constraint, stateDirectory: stateDirectory, logger: logger)
        #expect(!FileManager.default.fileExists(atPath: marker))
        // SQLITE_CORRUPT_INDEX (779), as a start-up write into a damaged index of the links meets it.
        let damage = StoreError(kind: .sqlite(ResultCode(rawValue: 779)), message: "database disk image is malformed")
        HomeService.startFailed(damage, stateDirectory: stateDirectory, logger: logger)
        #expect(try String(contentsOfFile: marker, encoding: .utf8).hasPrefix("SQLITE_CORRUPT_INDEX (779)"))
    }

    @Test("stop checkpoints the store: the write-ahead log is emptied into homefeed.sqlite")
    func stopCheckpoints() async throws {
        let service = try await start()
        _ = try await service.refresh(url: nil)
        let wal = stateDirectory.appendingPathComponent("homefeed.sqlite-wal").path
        // The refresh committed into the log; it holds at least one page until a checkpoint.
        #expect(try walBytes(wal) > 0)
        await service.stop()
        #expect(try walBytes(wal) == 0)
    }

    private func walBytes(_ path: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        return try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    @Test("a broken layout on reload is rejected and the old configuration keeps serving")
    func brokenReload() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let version = await service.version
        let layout = configDirectory.appendingPathComponent("layout.json")
        try Data(#"{"sections": [{"id": "x", "group": {"axis": "sideways"}}]}"#.utf8).write(to: layout)
        do {
            _ = try await service.reload()
            Issue.record("accepted a broken layout")
        } catch {
            #expect(error.description.contains("sections[0].group"))
        }
        #expect(await service.version == version)
        #expect(await service.manifest(profile: "phone") != nil)
        // A good edit is taken: fewer profiles.
        try FileManager.default.removeItem(at: layout)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("feeds/layout.json"),
            to: layout
        )
        let reloaded = try await service.reload()
        #expect(reloaded > version)
    }

    @Test(
        "a reload whose configuration names another layout file, missing or broken, fails with InvalidLayout",
        arguments: [nil, #"{"sections": [{"id": "x", "group": {"axis": "sideways"}}]}"#]
    )
    func renamedLayoutReload(_ layout: String?) async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let settings = configDirectory.appendingPathComponent("homefeedd.conf")
        let text = try String(contentsOf: settings, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "layout = layout.json", with: "layout = renamed.json").utf8)
            .write(to: settings)
        if let layout { try Data(layout.utf8).write(to: configDirectory.appendingPathComponent("renamed.json")) }
        do {
            _ = try await service.reload()
            Issue.record("accepted a layout file that is missing or broken")
        } catch {
            guard case .configuration(let problem) = error else { throw error }
            #expect(problem.file.hasSuffix("/renamed.json"))
            #expect(problem.isLayout)
            let reply = await HomefeedInterface(service: service).error(error, method: "io.homefeed.Reload")
            #expect(reply.name == "io.homefeed.InvalidLayout", "\(reply)")
            #expect(reply.parameters["path"] == .string(layout == nil ? "" : "sections[0].group.axis"), "\(reply)")
        }
    }

    @Test("a reload whose layout cannot lay out the stored content at a profile is rejected, and nothing is retried")
    func unsolvableReload() async throws {
        let log = LogRecorder()
        let service = try await HomeService(
            configuration: try await LoadedConfiguration.load(directory: configDirectory),
            stateDirectory: stateDirectory,
            logger: Logger(label: "test", level: .error, sink: log.sink)
        )
        defer { Task { await service.stop() } }
        _ = try await service.refresh(url: nil)
        let version = await service.version
        let served = try #require(await service.manifest(profile: "phone"))
        try OverBudgetLayout.write(in: configDirectory)
        do {
            _ = try await service.reload()
            Issue.record("accepted a layout the stored content cannot be laid out in")
        } catch {
            guard case .configuration(let problem) = error else { throw error }
            #expect(problem.file.hasSuffix("/layout.json"))
            #expect(problem.key == "sections[3]")
            #expect(
                problem.reason.hasPrefix("at profile phone, with the content stored now: solver work in one section"),
                "\(problem)"
            )
        }
        #expect(log.lines.contains { $0.hasPrefix("<3>test: reload rejected, keeping the running configuration:") })
        // The running configuration serves on as it was, and nothing of the rejected one waits.
        #expect(await service.version == version)
        #expect(await service.manifest(profile: "phone")?.bytes == served.bytes)
        #expect(await service.configuration.spec.sections[3].itemCount == 6)
        #expect(await service.awaitPublished() == nil)
        _ = try await service.recordHistory(title: "도서관", link: nil, kind: nil, at: nil)
        #expect(await service.version == version + 1)
        #expect(items(try sections(await service.manifest(profile: "phone"))[3]).count == 6)
    }

    @Test("a reload is tried with the links its sources list writes itself, and a rejected one stores none")
    func unsolvableListLinks() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        let version = await service.version
        try OverBudgetLayout.write(in: configDirectory)
        // Nothing fetched: the section is empty and hidden, and only these two links would fill it.
        let list = configDirectory.appendingPathComponent("sources.opml")
        let links = ["map", "bus"].map {
            #"<outline type="link" category="/app-service" text="\#($0)" url="https://example.test/\#($0)"/>"#
        }
        let text = try String(contentsOf: list, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "</body>", with: links.joined() + "</body>").utf8).write(to: list)
        do {
            _ = try await service.reload()
            Issue.record("accepted a layout its own links cannot be laid out in")
        } catch {
            guard case .configuration(let problem) = error else { throw error }
            #expect(problem.key == "sections[3]")
            #expect(problem.reason.contains("(2 items, 1 boundary supplementaries)"), "\(problem)")
        }
        #expect(await service.status().serviceLinks == 0)
        #expect(await service.version == version)
        #expect(await service.awaitPublished() == nil)
    }

    @Test("content the running layout cannot lay out is logged once, tried again at each change only, and shown stale")
    func unsolvableContent() async throws {
        // Validates: nothing is fetched yet, so the section is empty and the first version made.
        try OverBudgetLayout.write(in: configDirectory)
        let log = LogRecorder()
        let service = try await HomeService(
            configuration: try await LoadedConfiguration.load(directory: configDirectory),
            stateDirectory: stateDirectory,
            logger: Logger(label: "test", level: .notice, sink: log.sink)
        )
        defer { Task { await service.stop() } }
        // The services list brings six links into the section: its versions cannot be made (one
        // made between the feed's document and the list's may be).
        await #expect(throws: ServiceError.self) { _ = try await service.refresh(url: nil) }
        let version = await service.version
        // Changes that leave the section as it was fail the same way, and are not told again.
        await service.requestPublish()
        #expect(await service.awaitPublished() != nil)
        await #expect(throws: ServiceError.self) {
            _ = try await service.recordHistory(title: "도서관", link: nil, kind: nil, at: nil)
        }
        await service.requestPublish()
        #expect(await service.awaitPublished() != nil)
        let failures = log.lines.filter { $0.contains("cannot publish a new version") }
        #expect(failures.count == 1, "\(failures)")
        let failure = try #require(failures.first)
        #expect(failure.hasPrefix("<3>"))
        #expect(failure.contains("/layout.json: sections[3]: at profile phone, with the content stored now: solver"))
        #expect(failure.hasSuffix("trying again at the next change"), "\(failure)")
        #expect(await service.version == version)
        let stale = try #require(await service.statusSummary().stale)
        #expect(stale.contains("/layout.json: sections[3]: at profile phone"), "\(stale)")
        #expect(await service.status().stale == stale)
        // A layout that lays the content out publishes it, said once at <5>, and is current.
        let layout = configDirectory.appendingPathComponent("layout.json")
        try FileManager.default.removeItem(at: layout)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("feeds/layout.json"),
            to: layout
        )
        #expect(try await service.reload() > version)
        let recovered = log.lines.filter { $0.contains("the manifests are current again") }
        #expect(recovered.count == 1 && recovered.first?.hasPrefix("<5>") == true, "\(recovered)")
        #expect(await service.statusSummary().stale == nil)
        #expect(await service.status().stale == nil)
    }

    @Test("a reload applies client-group to the image files made from then on")
    func reloadClientGroup() async throws {
        let service = try await HomeService(
            configuration: try await LoadedConfiguration.load(directory: configDirectory),
            stateDirectory: stateDirectory,
            cacheDirectory: sample.cacheDirectory,
            logger: Logger(label: "test", level: .error, sink: { _ in })
        )
        defer { Task { await service.stop() } }
        let images = try #require(await service.images)
        #expect(images.cache.group.current.name == "homefeed")
        try editConfiguration(replacing: "[daemon]\n", with: "[daemon]\nclient-group = root\n")
        _ = try await service.reload()
        #expect(images.cache.group.current.name == "root")
        #expect(images.cache.group.current.id == 0)
    }

    @Test("ListNotices returns the newest notices, optionally of one source")
    func notices() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        _ = try await service.refresh(url: nil)
        let all = try await service.notices(limit: 10, sourceURL: nil)
        #expect(all.count == 5)
        let source = try #require(all.first { $0.sourceTitle == "공지사항" }?.source)
        #expect(try await service.notices(limit: 10, sourceURL: source).count == 3)
        await #expect(throws: ServiceError.self) { _ = try await service.notices(limit: 0, sourceURL: nil) }
        await #expect(throws: ServiceError.self) { _ = try await service.notices(limit: 5, sourceURL: "file:///nope") }
    }

    @Test("a source removed from the configuration leaves the screen and the listings on reload")
    func removedSource() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        _ = try await service.refresh(url: nil)
        #expect(try await service.notices(limit: 10, sourceURL: nil).count == 5)
        let list = configDirectory.appendingPathComponent("sources.opml")
        let text = try String(contentsOf: list, encoding: .utf8)
        try Data(text.split(separator: "\n").filter { !$0.contains("notices-ko.xml") }.joined(separator: "\n").utf8)
            .write(to: list)
        _ = try await service.reload()
        let notices = try await service.notices(limit: 10, sourceURL: nil)
        #expect(notices.count == 2)
        #expect(notices.allSatisfy { $0.sourceTitle == "Announcements" })
        let headline = items(try sections(await service.manifest(profile: "phone"))[1]).first
        #expect((headline?["content"] as? [String: Any])?["source"] as? String == "Announcements")
    }

    @Test("a source whose outline changes kind shows nothing it held as the other kind")
    func sourceChangesKind() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        _ = try await service.refresh(url: nil)
        #expect(items(try sections(await service.manifest(profile: "phone"))[2]).count == 5)
        // The services list named as a feed: its links are not a feed's, and it has no notices.
        let list = configDirectory.appendingPathComponent("sources.opml")
        let text = try String(contentsOf: list, encoding: .utf8).replacingOccurrences(
            of: #"<outline type="link" text="Services" url="samples/services.opml"/>"#,
            with: #"<outline type="rss" text="Services" xmlUrl="samples/services.opml"/>"#
        )
        try Data(text.utf8).write(to: list)
        _ = try await service.reload()
        _ = try? await service.refresh(url: nil)
        #expect(items(try sections(await service.manifest(profile: "phone"))[2]).isEmpty)
        let servicesURL = try #require(
            await service.status().sources.first { $0.url.hasSuffix("samples/services.opml") }?.url
        )
        #expect(try await service.notices(limit: 10, sourceURL: servicesURL).isEmpty)
    }

    @Test("the retention pass prunes notices of feeds that stopped changing, and a version leaves them out")
    func retentionPass() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        _ = try await service.refresh(url: nil)
        #expect(await service.status().notices == 5)
        // Nothing is over the limits today.
        #expect(await service.applyRetention() == RetentionReport())
        let before = await service.version
        // 200 days on, unchanged (no ingest since): every notice is past the 90-day limit.
        let report = try #require(await service.applyRetention(now: Date().addingTimeInterval(200 * 86_400)))
        #expect(report.prunedNotices == 5)
        #expect(await service.awaitPublished() == nil)
        #expect(await service.version > before)
        #expect(await service.status().notices == 0)
        let sections = try sections(await service.manifest(profile: "phone"))
        #expect(!items(sections[1]).contains { $0["kind"] as? String == "notice" })
    }

    @Test("history events dated in the future are refused")
    func futureHistory() async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        await #expect(throws: ServiceError.self) {
            _ = try await service.recordHistory(title: "t", link: nil, kind: nil, at: Date().addingTimeInterval(86_400))
        }
    }
}

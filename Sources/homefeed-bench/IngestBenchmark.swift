import CSQLite
import Dispatch
import Foundation
import HomeFeeds
import HomeFetch
import HomeStore

/// `homefeed-bench ingest`: the 20 000-item RSS feed of the parse benchmark, parsed with
/// HomeFeeds and stored with `HomeStore`.
///
/// Figures: `ingest.first.ms`, parse + the first ingest into a fresh WAL file;
/// `ingest.unchanged.ms`, the same document fetched again over loopback HTTP (no validators
/// from the server) through `FeedFetcher` with the digest of the last body: recognised before
/// parsing, nothing stored; beside `ingest.unchanged.transfer_floor_ms`, the curl CLI
/// transferring the same bytes to /dev/null; `ingest.reparsed_unchanged.ms`, parse + the same
/// entries again a minute later (a body that changed elsewhere: lookups and hashes, no
/// writes); `ingest.parse.ms`, the parse alone; median of 5 runs, each in a fresh file. `ingest.unchanged_hourly.ms`: the same document an hour on, when
/// every row's `last_seen_at` is rewritten (once an hour at most). Floor: `ingest.first.floor_ms`, raw sqlite3 inserts of the same
/// rows into the same table and indexes, one prepared statement in one transaction. With the
/// store's default retention (1 000 per source), `ingest.*_default_retention.ms` add the
/// pruning of 19 000 notices into tombstones and, on re-ingest, the tombstone checks.
/// Goals (issue 4): first ≤ 300 ms, unchanged ≤ 100 ms.
enum IngestBenchmark {
    static let count = 20_000
    static let runs = 5
    static let sourceURL = "https://example.org/notices-20k.xml"

    static func run() {
        FeedParser.prepare()
        var generator = FeedGenerator(seed: 0x00C0_FFEE)
        let body = generator.rss(items: count)
        let parseTimes = (0..<runs).map { _ in Measure.milliseconds(ContinuousClock().measure { _ = parse(body) }) }
        let entries = parse(body)
        let bytes = entries.reduce(0) { $0 + ($1.summary?.utf8.count ?? 0) + ($1.title?.utf8.count ?? 0) }
        let now = Date(timeIntervalSince1970: 1_790_000_000)

        let unlimited = measure(body, now: now, configuration: unlimitedConfiguration)
        let floor = Measure.median((0..<runs).map { _ in floorInsert(entries, now: now) })
        let retained = measure(body, now: now, configuration: StoreConfiguration())

        let fetched = measureUnchangedFetch(body)
        Measure.report("ingest.first.ms", unlimited.first, "ms")
        Measure.report("ingest.unchanged.ms", fetched.unchanged, "ms")
        if let floor = fetched.curlFloor { Measure.report("ingest.unchanged.transfer_floor_ms", floor, "ms") }
        Measure.report("ingest.reparsed_unchanged.ms", unlimited.unchanged, "ms")
        Measure.report("ingest.parse.ms", Measure.median(parseTimes), "ms")
        Measure.report("ingest.first.floor_ms", floor, "ms")
        Measure.report("ingest.unchanged_hourly.ms", unlimited.hourly, "ms")
        Measure.report("ingest.first_default_retention.ms", retained.first, "ms")
        Measure.report("ingest.unchanged_default_retention.ms", retained.unchanged, "ms")
        print(
            "# \(count) items (\(body.count / 1_000_000) MB RSS, \(bytes / count) bytes of title+summary each): "
                + "parse + first ingest \(format(unlimited.first)) ms (parse alone \(format(Measure.median(parseTimes))) ms; "
                + "raw sqlite3 insert floor \(format(floor)) ms), parse + unchanged \(format(unlimited.unchanged)) ms "
                + "(\(format(unlimited.hourly)) ms when last_seen moves on); "
                + "with default retention \(format(retained.first)) / \(format(retained.unchanged)) ms"
        )
        print(
            "# unchanged body fetched again: \(format(fetched.unchanged)) ms through the fetcher (no parse, no store); "
                + "curl CLI transfer of the same bytes \(fetched.curlFloor.map(format) ?? "n/a") ms"
        )
        print("# goals: first ingest ≤ 300 ms total, unchanged ≤ 20 ms (recognised before it is parsed)")
    }

    /// The feed's entries as the daemon stores them.
    static func parse(_ body: [UInt8]) -> [NoticeInput] {
        guard case .feed(let feed)? = try? FeedParser.parse(body, url: sourceURL, limits: ParseBenchmark.limits) else {
            fail("the generated feed did not parse")
        }
        return feed.entries.map {
            NoticeInput(
                entryID: $0.id,
                title: $0.title,
                link: $0.link,
                published: $0.published.map { Date(timeIntervalSince1970: Double($0.secondsSince1970)) },
                summary: $0.summary
            )
        }
    }

    static var unlimitedConfiguration: StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.maxEntriesPerSource = nil
        configuration.maxAge = nil
        return configuration
    }

    /// Medians over `runs` fresh files of the first and the unchanged ingest, in ms.
    static func measure(
        _ body: [UInt8],
        now: Date,
        configuration: StoreConfiguration
    ) -> (first: Double, unchanged: Double, hourly: Double) {
        var first: [Double] = []
        var unchanged: [Double] = []
        var hourly: [Double] = []
        for _ in 0..<runs {
            let directory = Measure.temporaryDirectory("/tmp/hf-bench-XXXXXX")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/store.sqlite"
            let times = Measure.blocking { () async throws -> [Double] in
                let store = try await Store(path: path, configuration: configuration, now: now)
                try await store.upsertSource(SourceInput(url: sourceURL, kind: .notices), now: now)
                let clock = ContinuousClock()
                let a = try await clock.measure {
                    let entries = parse(body)
                    let result = try await store.ingestNotices(sourceURL: sourceURL, entries: entries, now: now)
                    if result.inserted != entries.count { note("first ingest of \(entries.count) entries: \(result)") }
                }
                let b = try await clock.measure {
                    let result = try await store.ingestNotices(
                        sourceURL: sourceURL,
                        entries: parse(body),
                        now: now.addingTimeInterval(60)
                    )
                    if result.inserted != 0 || result.updated != 0 { note("unchanged re-ingest: \(result)") }
                }
                // An hour on, every unchanged row's last_seen_at is rewritten once.
                let c = try await clock.measure {
                    let result = try await store.ingestNotices(
                        sourceURL: sourceURL,
                        entries: parse(body),
                        now: now.addingTimeInterval(3_660)
                    )
                    if result.inserted != 0 || result.updated != 0 { note("unchanged re-ingest: \(result)") }
                }
                return [Measure.milliseconds(a), Measure.milliseconds(b), Measure.milliseconds(c)]
            }
            first.append(times[0])
            unchanged.append(times[1])
            hourly.append(times[2])
        }
        return (Measure.median(first), Measure.median(unchanged), Measure.median(hourly))
    }

    /// The body served over loopback without validators, fetched once to learn its digest, then
    /// again with it: the median of the second fetches, and the curl CLI's transfer of the same
    /// URL (nil without curl), in ms.
    static func measureUnchangedFetch(_ body: [UInt8]) -> (unchanged: Double, curlFloor: Double?) {
        let server: BenchHTTPServer
        do {
            server = try BenchHTTPServer(bodies: ["/notices-20k.xml": body])
        } catch {
            fail("\(error)")
        }
        let url = server.url("/notices-20k.xml")
        let fetcher = FeedFetcher()
        let limits = FetchLimits(maxBodyBytes: 64 << 20, parseLimits: ParseBenchmark.limits)
        let first = Measure.blocking { try await fetcher.fetch(FetchRequest(url: url, limits: limits)) }
        let request = FetchRequest(url: url, validators: first.response.validators, limits: limits)
        let times = (0..<runs).map { _ in
            Measure.milliseconds(
                ContinuousClock().measure {
                    let outcome = Measure.blocking { try await fetcher.fetch(request) }
                    guard case .notModified = outcome else { fail("unchanged body was not recognised: \(outcome)") }
                }
            )
        }
        Measure.blocking { await fetcher.shutdown() }
        let curl = ["/usr/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let floor = curl.map { curl in
            Measure.median(
                (0..<runs).map { _ in
                    Measure.milliseconds(
                        ContinuousClock().measure {
                            BenchChild(curl, ["--silent", "--fail", "--output", "/dev/null", url])
                                .waitForSuccess("curl")
                        }
                    )
                }
            )
        }
        return (Measure.median(times), floor)
    }

    /// Raw sqlite3: the same rows into the same schema, one statement, one transaction.
    static func floorInsert(_ entries: [NoticeInput], now: Date) -> Double {
        let directory = Measure.temporaryDirectory("/tmp/hf-bench-XXXXXX")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/floor.sqlite"
        // The schema and the source row come from Store; only the inserts are raw.
        Measure.blocking { () async throws in
            let store = try await Store(path: path, configuration: unlimitedConfiguration, now: now)
            try await store.upsertSource(SourceInput(url: sourceURL, kind: .notices), now: now)
        }
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { fail("floor: cannot open \(path)") }
        defer { sqlite3_close(db) }
        sqlite3_exec(
            db,
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON",
            nil,
            nil,
            nil
        )
        var statement: OpaquePointer?
        let sql = """
            INSERT INTO notices (source_id, entry_id, title, link, published_at, summary, first_seen_at, last_seen_at,
                content_hash)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { fail("floor: prepare failed") }
        defer { sqlite3_finalize(statement) }
        let seconds = Int64(now.timeIntervalSince1970)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
            for (index, entry) in entries.enumerated() {
                bindText(statement, 1, entry.entryID)
                bindText(statement, 2, entry.title)
                bindText(statement, 3, entry.link)
                sqlite3_bind_int64(statement, 4, Int64(entry.published?.timeIntervalSince1970 ?? 0))
                bindText(statement, 5, entry.summary)
                sqlite3_bind_int64(statement, 6, seconds)
                sqlite3_bind_int64(statement, 7, seconds)
                sqlite3_bind_int64(statement, 8, Int64(index))
                guard sqlite3_step(statement) == SQLITE_DONE else { fail("floor: insert failed") }
                sqlite3_reset(statement)
            }
            sqlite3_exec(db, "COMMIT", nil, nil, nil)
        }
        return Measure.milliseconds(elapsed)
    }

    static func bindText(_ statement: OpaquePointer?, _ index: Int32, _ text: String?) {
        guard var text else {
            sqlite3_bind_null(statement, index)
            return
        }
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) {
                _ = csqlite_bind_text_transient(statement, index, $0.baseAddress, Int32($0.count))
            }
        }
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    /// A remark about the data, on stderr (unbuffered, so it survives a later crash).
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("homefeed-bench ingest: \(message)\n".utf8))
    }

    static func fail(_ message: String) -> Never { Measure.fatal("ingest: \(message)") }
}

import CommandTable
import Foundation
import HomeStore
import HomefeedVersion

/// `homefeed-store-crashtest DB MODE`: the child process of HomeStoreTests' crash test.
///
/// Commits a small document A (100 entries), then ingests a large document B (30 000 entries
/// of about 1 KB) into the store at DB, printing progress lines on stdout for the parent:
/// `committed-a`, `start-b`, then `mid-b` inside B's transaction at entry 10 000 (MODE
/// `pause` stops there until killed; MODE `run` carries on) and `done-b` after the commit.
/// The parent kills it with SIGKILL and checks the file. Not for use outside the tests.
@main
enum CrashTest {
    static let command = Command(
        "homefeed-store-crashtest",
        abstract: "ingest a large document and wait to be killed (a test helper)",
        discussion: """
            The child process of HomeStoreTests' crash test, not a command for people. It commits \
            a small document, then ingests a large one into the store at DB, printing committed-a, \
            start-b, mid-b and done-b as it goes; MODE pause stops at mid-b until killed.
            """,
        version: homefeedVersion,
        arguments: [
            Argument("DB", .file, help: "the store's SQLite file"),
            Argument("MODE", .choice(["pause", "run"]), help: "pause inside the large ingest, or run to the end"),
        ],
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.ok, "both documents were ingested"),
            ExitStatusMeaning(ExitStatus.failure, "the store failed"),
            ExitStatusMeaning(ExitStatus.usage, "usage error"),
        ]
    )

    static func main() async {
        let arguments: ParsedArguments
        switch command.resolve(Array(CommandLine.arguments.dropFirst())) {
        case .exit(let status): exit(status)
        case .run(let parsed): arguments = parsed
        }
        let path = arguments.positionals[0]
        let pauses = arguments.positionals[1] == "pause"
        var configuration = StoreConfiguration()
        configuration.maxEntriesPerSource = nil
        configuration.maxAge = nil
        do {
            let store = try await Store(path: path, configuration: configuration)
            let url = "file:///crash/feed.xml"
            try await store.upsertSource(SourceInput(url: url, kind: .notices))
            try await store.ingestNotices(sourceURL: url, entries: document(prefix: "a", count: 100))
            say("committed-a")
            await store._setIngestProgressHook { index in
                guard index == 10_000 else { return }
                say("mid-b")
                while pauses { sleep(60) }
            }
            let big = document(prefix: "b", count: 30_000)
            say("start-b")
            try await store.ingestNotices(sourceURL: url, entries: big)
            say("done-b")
        } catch {
            say("error: \(error)")
            exit(1)
        }
    }

    static func document(prefix: String, count: Int) -> [NoticeInput] {
        let filler = String(repeating: "공지 본문 ", count: 80)
        return (0..<count).map { index in
            NoticeInput(
                entryID: "\(prefix)-\(index)",
                title: "\(prefix) 공지 \(index)",
                link: "https://example.org/\(prefix)/\(index)",
                published: Date(timeIntervalSince1970: 1_790_000_000 + Double(index)),
                summary: "\(index) \(filler)"
            )
        }
    }

    /// One line on stdout with write(2): unbuffered, so the parent sees it at once.
    static func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
}

import Foundation
import HomeStore

/// `homefeed-store-crashtest DB MODE`: the child process of HomeStoreTests' crash test.
///
/// Commits a small document A (100 entries), then ingests a large document B (30 000 entries
/// of about 1 KB) into the store at DB, printing progress lines on stdout for the parent:
/// `committed-a`, `start-b`, then `mid-b` inside B's transaction at entry 10 000 (MODE
/// `pause` stops there until killed; MODE `run` carries on) and `done-b` after the commit.
/// The parent kills it with SIGKILL and checks the file. Not for use outside the tests.
@main
enum CrashTest {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, ["pause", "run"].contains(arguments[2]) else {
            say("usage: homefeed-store-crashtest DB pause|run")
            exit(2)
        }
        let pauses = arguments[2] == "pause"
        var configuration = StoreConfiguration()
        configuration.maxEntriesPerSource = nil
        configuration.maxAge = nil
        do {
            let store = try await Store(path: arguments[1], configuration: configuration)
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

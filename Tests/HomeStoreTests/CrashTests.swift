import Foundation
import HomeStore
import SystemCalls
import TestSupport
import Testing

/// A child process (`homefeed-store-crashtest`) is killed with SIGKILL during or after a
/// large ingest; the reopened file must pass `PRAGMA integrity_check` and hold all or none
/// of that document's entries.
@Suite struct CrashTests {
    /// Entries of the committed document A and of the large document B (see the helper).
    static let committed = 100
    static let large = 30_000
    static let source = "file:///crash/feed.xml"

    struct Case: Sendable, CustomTestStringConvertible {
        var mode: String
        var marker: String
        var delay: Duration
        /// Whether B must be absent (`false`), present (`true`), or either (`nil`).
        var expectsLarge: Bool?
        var testDescription: String { "\(mode), killed \(delay) after \(marker)" }
    }

    static let cases: [Case] = [
        // Deterministic: the helper stops inside B's transaction, 10 000 rows written.
        Case(mode: "pause", marker: "mid-b", delay: .zero, expectsLarge: false),
        // Timed: wherever the kill lands, all or none.
        Case(mode: "run", marker: "start-b", delay: .milliseconds(30), expectsLarge: nil),
        Case(mode: "run", marker: "mid-b", delay: .zero, expectsLarge: nil),
        Case(mode: "run", marker: "mid-b", delay: .milliseconds(150), expectsLarge: nil),
        // After the commit: a committed document survives SIGKILL (synchronous=NORMAL in WAL).
        Case(mode: "run", marker: "done-b", delay: .zero, expectsLarge: true),
    ]

    @Test("SIGKILL during or after a large ingest: integrity ok, all or none of the document", arguments: cases)
    func killed(_ testCase: Case) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crash.sqlite")
        let outcome = try await CrashTestRun.runAndKill(
            arguments: [path, testCase.mode],
            after: testCase.marker,
            delay: testCase.delay
        )
        #expect(outcome.lines.contains("committed-a"), "child output: \(outcome.lines)")
        #expect(outcome.lines.contains(testCase.marker), "child output: \(outcome.lines)")
        #expect(outcome.killedBySignal == SIGKILL)
        if testCase.mode == "pause" {
            // The kill landed with uncommitted pages of B already spilled to the WAL, so the
            // recovery below really has something to discard.
            let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
            #expect(wal > 1_000_000)
        }

        let store = try await Store(path: path, configuration: .unlimited)
        #expect(try await store.integrityCheck() == ["ok"])
        let count = try await store.noticeCount(sourceURL: Self.source)
        switch testCase.expectsLarge {
        case false?: #expect(count == Self.committed)
        case true?: #expect(count == Self.committed + Self.large)
        case nil: #expect(count == Self.committed || count == Self.committed + Self.large)
        }
        // The store is usable after recovery: the document can be ingested again.
        if count == Self.committed {
            let redo = try await store.ingestNotices(
                sourceURL: Self.source,
                entries: (0..<3).map { NoticeInput(entryID: "b-\($0)") }
            )
            #expect(redo.inserted == 3)
        }
    }
}

/// Runs `homefeed-store-crashtest` and kills it with SIGKILL once it prints a marker line.
/// The blocking reads and waits run on a thread of their own (``offPool(_:)``), never on the
/// cooperative pool.
enum CrashTestRun {
    struct Outcome: Sendable {
        var lines: [String]
        /// The signal that ended the child, `nil` when it exited normally.
        var killedBySignal: Int32?
    }

    static let executable = BuiltProducts.path("homefeed-store-crashtest")

    static func runAndKill(arguments: [String], after marker: String, delay: Duration) async throws -> Outcome {
        try await offPool { try blockingRun(arguments: arguments, after: marker, delay: delay) }
    }

    private static func blockingRun(arguments: [String], after marker: String, delay: Duration) throws -> Outcome {
        let process = try ChildProcess(executable, arguments, stdout: .pipe)

        var lines: [String] = []
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        guard let descriptor = process.output else { throw FixtureError("no stdout pipe from \(executable)") }
        var sawMarker = false
        reading: while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }  // the child exited without printing the marker
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                lines.append(line)
                if line == marker {
                    sawMarker = true
                    break reading
                }
            }
        }
        if sawMarker {
            let microseconds = delay.components.seconds * 1_000_000 + delay.components.attoseconds / 1_000_000_000_000
            if microseconds > 0 { usleep(UInt32(microseconds)) }
            process.signal(SIGKILL)
        }
        _ = process.waitForExit()
        guard case .signalled(let signal)? = process.termination else { return Outcome(lines: lines) }
        return Outcome(lines: lines, killedBySignal: signal)
    }
}

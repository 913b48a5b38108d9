import Foundation
import TestSupport
import Testing

@testable import HomeFeeds

/// Runs every document of the public corpora in `../shared/corpora` (python feedparser's test
/// suite and our generated sweeps) through the parser: none may crash, and none may take more
/// than 50 ms of this thread's CPU time (CLOCK_THREAD_CPUTIME_ID, not wall time). The corpora measure; they
/// are not fixtures, so nothing here checks their expectations (`homefeed-bench corpus` does,
/// and reports the agreement). Skipped, visibly, where the corpora are not checked out.
@Suite struct CorpusTests {
    /// `<repository>/../shared/corpora`, or `$HOMEFEED_CORPORA`.
    static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["HOMEFEED_CORPORA"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/corpora")
    }()

    static var isPresent: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("feedparser-tests").path)
    }

    /// The documents under `root`, with the Content-Type their header comment asks for.
    static func documents() -> [(path: String, contentType: String?)] {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found: [(String, String?)] = []
        for case let relative as String in walker where [".xml", ".json", ".rdf"].contains(where: relative.hasSuffix) {
            let path = root.appendingPathComponent(relative).path
            let head = (FileManager.default.contents(atPath: path) ?? Data()).prefix(2048)
            found.append((path, contentType(in: String(decoding: head, as: UTF8.self))))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// `Header: Content-type: …` from a feedparser test's header comment.
    static func contentType(in head: String) -> String? {
        for line in head.split(separator: "\n") where line.hasPrefix("Header:") {
            let header = line.dropFirst("Header:".count).trimmingCharacters(in: .whitespaces)
            if header.lowercased().hasPrefix("content-type:") {
                return String(header.dropFirst("content-type:".count)).trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    @Test("every corpus document parses or fails cleanly within 50 ms of CPU", .enabled(if: isPresent))
    func everyDocument() throws {
        let documents = Self.documents()
        // 903 feedparser files + 283 sweep files when both corpora are there.
        #expect(documents.count > 900)
        var slowest = (path: "", milliseconds: 0.0)
        for (path, contentType) in documents {
            let body = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let url = "http://127.0.0.1:8097/" + path.dropFirst(Self.root.path.count + 1)
            let start = threadCPUSeconds()
            let output: String
            do {
                output = try FeedParser.parse(body, url: url, contentType: contentType).jsonString()
            } catch {
                output = error.jsonString()
            }
            let elapsed = (threadCPUSeconds() - start) * 1000
            #expect(!output.isEmpty)
            if elapsed > slowest.milliseconds { slowest = (path, elapsed) }
        }
        #expect(slowest.milliseconds <= 50, "slowest: \(slowest.path), \(slowest.milliseconds) ms of CPU")
    }
}

import Foundation
import Glibc
import HomeFeeds

/// `homefeed-bench corpus [--corpora DIR] [--verbose]`: every document of the public corpora
/// (`../shared/corpora`: python feedparser's test suite and our date/encoding/link sweeps)
/// through `FeedParser.parse`, timed per document (thread CPU, the slowest against the 50 ms
/// budget) beside the libxml2 SAX2 floor over the same bytes; then the agreement:
///
/// - `Expect:` lines of feedparser's tests that speak only of fields homefeed exposes (feed
///   title/link; entry id, title, link, summary, dates), read by `ExpectExpression` and
///   decided by `ExpectEvaluator` — once without the `bozo` clauses, once with them read as
///   `!wellFormed`;
/// - the sweeps' `manifest.json` expectations: dates (`published`), encodings (the feed
///   title), links (the entry link, null for refused schemes).
///
/// `--verbose` lists every line and sweep case that does not hold.
enum CorpusBenchmark {
    static func run(corpora: String, verbose: Bool) {
        FeedParser.prepare()
        let root = URL(fileURLWithPath: corpora)
        let tests = root.appendingPathComponent("feedparser-tests")
        guard FileManager.default.fileExists(atPath: tests.path) else {
            Measure.fatal("no corpus at \(tests.path) (use --corpora DIR)")
        }
        var timing = Timing()
        var lines = 0
        var satisfied = 0
        var satisfiedWithBozo = 0
        var bozoLines = 0
        var bozoAgreements = 0
        var failures: [String] = []
        for relative in files(under: tests) {
            let path = tests.appendingPathComponent(relative).path
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let body = [UInt8](data)
            let head = header(body)
            let url = head.contentLocation ?? "http://127.0.0.1:8097/tests/" + relative
            let document = timing.parse(body, url: url, contentType: head.contentType, name: relative)
            guard let expect = head.expect else { continue }
            let expression = ExpectExpression.parse(expect)
            let bozoOnly = ExpectEvaluator(document: document, withBozo: true)
            if case .and(let parts) = expression, let first = parts.first, isBozoClause(first) {
                bozoLines += 1
                if bozoOnly.holds(first) == true { bozoAgreements += 1 }
            } else if isBozoClause(expression) {
                bozoLines += 1
                if bozoOnly.holds(expression) == true { bozoAgreements += 1 }
            }
            guard expression.isOnExposedFields else { continue }
            lines += 1
            if ExpectEvaluator(document: document, withBozo: false).holds(expression) == true {
                satisfied += 1
            } else {
                failures.append("\(relative): \(expect)\n    got \(summary(document))")
            }
            if bozoOnly.holds(expression) == true { satisfiedWithBozo += 1 }
        }
        let sweeps = Sweeps.run(root: root.appendingPathComponent("homefeed-sweeps"), timing: &timing)
        timing.report()
        Measure.report("corpus.expect.exposed_lines", Double(lines), "lines")
        Measure.report("corpus.expect.satisfied", Double(satisfied), "lines")
        Measure.report("corpus.expect.satisfied_with_bozo", Double(satisfiedWithBozo), "lines")
        Measure.report("corpus.bozo.lines", Double(bozoLines), "lines")
        Measure.report("corpus.bozo.agree_with_wellFormed", Double(bozoAgreements), "lines")
        for (name, passed, total) in sweeps.results {
            Measure.report("sweeps.\(name).agree", Double(passed), "of \(total)")
        }
        print("")
        print(
            "Expect lines on exposed fields: \(satisfied) of \(lines) hold (\(satisfiedWithBozo) with bozo read as !wellFormed); "
                + "bozo clauses agree with wellFormed on \(bozoAgreements) of \(bozoLines)"
        )
        if verbose {
            for failure in failures + sweeps.failures { print("✗ " + failure) }
        }
    }

    static func isBozoClause(_ expression: ExpectExpression) -> Bool {
        switch expression {
        case .bozo: return true
        case .not(.bozo): return true
        default: return false
        }
    }

    /// Document files under `directory`, sorted, as relative paths.
    static func files(under directory: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var names: [String] = []
        for case let name as String in walker
        where name.hasSuffix(".xml") || name.hasSuffix(".json") || name.hasSuffix(".rdf") {
            names.append(name)
        }
        return names.sorted()
    }

    struct Header {
        var expect: String?
        var contentType: String?
        var contentLocation: String?
    }

    /// The `Expect:` and `Header:` lines of a test's leading comment.
    static func header(_ body: [UInt8]) -> Header {
        var result = Header()
        let head = String(decoding: body.prefix(4096), as: UTF8.self)
        for line in head.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var text = line.trimmingCharacters(in: .whitespaces)
            if let range = text.range(of: "Expect:") {
                text = String(text[range.upperBound...]).trimmingCharacters(in: .whitespaces)
                if let end = text.range(of: "-->") { text = String(text[..<end.lowerBound]) }
                result.expect = text.trimmingCharacters(in: CharacterSet(charactersIn: " \","))
            } else if text.hasPrefix("Header:") {
                let value = text.dropFirst("Header:".count).trimmingCharacters(in: .whitespaces)
                if value.lowercased().hasPrefix("content-type:") {
                    result.contentType = value.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
                } else if value.lowercased().hasPrefix("content-location:") {
                    result.contentLocation = value.dropFirst("content-location:".count).trimmingCharacters(
                        in: .whitespaces
                    )
                }
            }
        }
        return result
    }

    static func summary(_ document: FeedDocument?) -> String {
        guard case .feed(let feed)? = document else { return document == nil ? "an error" : "OPML" }
        let first = feed.entries.first
        return "title=\(feed.title ?? "nil") link=\(feed.link ?? "nil") entry0: id=\(first?.id ?? "nil") "
            + "title=\(first?.title ?? "nil") link=\(first?.link ?? "nil") summary=\(first?.summary ?? "nil") "
            + "published=\(first?.published?.rfc3339 ?? "nil") wellFormed=\(feed.isWellFormed)"
    }
}

/// Per-document parse times (thread CPU) beside the raw libxml2 floor.
struct Timing {
    private(set) var documents = 0
    private(set) var errors = 0
    private var total = 0.0
    private var floorTotal = 0.0
    private var slowest = (name: "", milliseconds: 0.0)
    private var overBudget = 0

    /// Parses one document; nil when homefeed reports an error.
    mutating func parse(_ body: [UInt8], url: String, contentType: String?, name: String) -> FeedDocument? {
        documents += 1
        var document: FeedDocument?
        let start = Measure.threadCPUSeconds()
        do {
            document = try FeedParser.parse(body, url: url, contentType: contentType)
        } catch {
            errors += 1
        }
        let elapsed = (Measure.threadCPUSeconds() - start) * 1000
        total += elapsed
        if elapsed > slowest.milliseconds { slowest = (name, elapsed) }
        if elapsed > 50 { overBudget += 1 }
        let floorStart = Measure.threadCPUSeconds()
        if body.count >= 4 { RawSAXParse.parse(body) }
        floorTotal += (Measure.threadCPUSeconds() - floorStart) * 1000
        return document
    }

    func report() {
        Measure.report("corpus.documents", Double(documents), "files")
        Measure.report("corpus.errors", Double(errors), "files")
        Measure.report("corpus.total_cpu_ms", total, "ms")
        Measure.report("corpus.floor_total_cpu_ms", floorTotal, "ms")
        Measure.report("corpus.slowest_cpu_ms", slowest.milliseconds, "ms")
        Measure.report("corpus.over_50ms", Double(overBudget), "files")
        print("slowest document: \(slowest.name)")
    }
}

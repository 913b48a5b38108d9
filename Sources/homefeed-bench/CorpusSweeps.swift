import Foundation
import HomeFeeds

/// The homefeed sweeps (`homefeed-sweeps/manifest.json`): one generated document per date
/// string, declared encoding and link case, each with its expected value.
struct Sweeps {
    var results: [(name: String, passed: Int, total: Int)] = []
    var failures: [String] = []

    static func run(root: URL, timing: inout Timing) -> Sweeps {
        var sweeps = Sweeps()
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent("manifest.json").path),
            let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return sweeps }
        let url = manifest["url"] as? String ?? "http://example.com/feed.xml"
        for (name, key) in [("dates", "published"), ("encodings", "title"), ("links", "link")] {
            var passed = 0
            var total = 0
            for case let item as [String: Any] in manifest[name] as? [Any] ?? [] {
                guard let file = item["file"] as? String,
                    let body = FileManager.default.contents(atPath: root.appendingPathComponent(file).path)
                else { continue }
                total += 1
                let contentType = item["content_type"] as? String
                let document = timing.parse([UInt8](body), url: url, contentType: contentType, name: file)
                let expected = item["expected"] as? String
                let actual = value(of: key, in: document)
                if actual == expected {
                    passed += 1
                } else {
                    sweeps.failures.append("\(file): expected \(expected ?? "null"), got \(actual ?? "null")")
                }
            }
            sweeps.results.append((name, passed, total))
        }
        return sweeps
    }

    /// The compared value: the first entry's `published` or link, or the feed title.
    static func value(of key: String, in document: FeedDocument?) -> String? {
        guard case .feed(let feed)? = document else { return nil }
        switch key {
        case "published": return feed.entries.first?.published?.rfc3339
        case "link": return feed.entries.first?.link
        default: return feed.title
        }
    }
}

import HomeFeeds
import TestSupport
import Testing

@testable import HomeFetch

/// A `200` whose body is byte-identical to the last one ingested is recognised by its digest
/// and never parsed (nor stored) again.
@Suite(.timeLimit(.minutes(1)))
struct ContentDigestTests {
    @Test("the same body again is notModified with status 200; the digest travels with the validators")
    func unchangedBody() async throws {
        let key = FetchTesting.key()
        // noval=1: the server sends no ETag or Last-Modified, so only the digest can tell.
        let first = try await FetchTesting.fetch("/feed/\(key)?noval=1").get()
        guard case .fetched(let document) = first else {
            Issue.record("expected a document, got \(first)")
            return
        }
        let digest = try #require(document.response.validators.contentDigest)
        #expect(digest.hasPrefix("h64-"))
        #expect(digest.hasSuffix("-\(document.response.bodyBytes)"))
        #expect(document.response.validators.etag == nil)

        let second = try await FetchTesting.fetch("/feed/\(key)?noval=1", validators: document.response.validators)
            .get()
        guard case .notModified(let info) = second else {
            Issue.record("expected notModified, got \(second)")
            return
        }
        #expect(info.status == 200)
        #expect(info.validators.contentDigest == digest)
        #expect(info.bodyBytes == document.response.bodyBytes)
    }

    @Test("a changed body of the same length, a longer one and a shorter one are parsed", arguments: [0, 1, 2])
    func changedBody(_ variant: Int) async throws {
        let key = FetchTesting.key()
        let first = try await FetchTesting.fetch("/feed/\(key)?noval=1&ttl=10").get()
        var validators = first.response.validators
        // ttl=20 has the same length as ttl=10; ttl=100 is one byte longer; no ttl is shorter.
        let changed = ["/feed/\(key)?noval=1&ttl=20", "/feed/\(key)?noval=1&ttl=100", "/feed/\(key)?noval=1"][variant]
        let second = try await FetchTesting.fetch(changed, validators: validators).get()
        guard case .fetched(let document) = second, case .feed(let feed) = document.document else {
            Issue.record("expected a parsed feed, got \(second)")
            return
        }
        #expect(feed.entries.map(\.id) == ["first", "second"])
        #expect(document.response.validators.contentDigest != validators.contentDigest)
        validators = document.response.validators
        #expect(validators.contentDigest?.hasSuffix("-\(document.response.bodyBytes)") == true)
    }

    @Test("a 304 keeps the digest of the stored body")
    func notModifiedKeepsDigest() async throws {
        let key = FetchTesting.key()
        let first = try await FetchTesting.fetch("/feed/\(key)").get()
        let second = try await FetchTesting.fetch("/feed/\(key)", validators: first.response.validators).get()
        #expect(second.response.status == 304)
        #expect(second.response.validators.contentDigest == first.response.validators.contentDigest)
        #expect(second.response.validators.contentDigest != nil)
    }
}

/// The digest itself: independent of how the bytes were split into chunks, different for
/// different bytes or lengths.
@Suite
struct ContentDigestValueTests {
    static let body = Array("<rss version=\"2.0\"><channel><title>같은 내용</title></channel></rss>".utf8)

    static func digest(_ bytes: [UInt8], splitAt cuts: [Int]) -> String {
        var digest = ContentDigest()
        var start = 0
        for cut in cuts + [bytes.count] {
            bytes[start..<cut].withUnsafeBytes { digest.append($0) }
            start = cut
        }
        return digest.value
    }

    @Test("every split of the body gives the same digest")
    func chunkingDoesNotMatter() {
        let whole = Self.digest(Self.body, splitAt: [])
        for first in 0...Self.body.count {
            #expect(Self.digest(Self.body, splitAt: [first]) == whole)
        }
        #expect(Self.digest(Self.body, splitAt: Array(stride(from: 1, to: Self.body.count, by: 3))) == whole)
        #expect(whole.hasSuffix("-\(Self.body.count)"))
        #expect(ContentDigest.length(of: whole) == Self.body.count)
    }

    @Test("one changed byte, one more byte or one fewer changes the digest")
    func changesShow() {
        let whole = Self.digest(Self.body, splitAt: [])
        var changed = Self.body
        changed[10] ^= 1
        #expect(Self.digest(changed, splitAt: []) != whole)
        #expect(Self.digest(Self.body + [0], splitAt: []) != whole)
        #expect(Self.digest(Array(Self.body.dropLast()), splitAt: []) != whole)
        // Trailing zero bytes are not lost in the unfinished last word.
        #expect(Self.digest([1, 0], splitAt: []) != Self.digest([1], splitAt: []))
    }
}

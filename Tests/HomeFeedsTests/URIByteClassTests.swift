import TestSupport
import Testing

@testable import HomeFeeds

/// `URIByteClass.isCleanPathAndQuery` against the rules written out plainly, on every pair of
/// bytes (every transition the branch-free scan folds together: into the query, `/` then `.`).
@Suite struct URIByteClassTests {
    /// The rules: printable ASCII except space and `"<>\^`{|}`; up to the first `?` or `#` no
    /// `/.` and, in a relative path, no `:`.
    static func expected(_ bytes: [UInt8], colonInPath: Bool) -> Bool {
        var inQuery = false
        for (index, byte) in bytes.enumerated() {
            guard byte > 0x20, byte < 0x7F, !Array(#""<>\^`{|}"#.utf8).contains(byte) else { return false }
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { inQuery = true }
            if inQuery { continue }
            if byte == UInt8(ascii: ":") && !colonInPath { return false }
            if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ".") {
                return false
            }
        }
        return true
    }

    static func scanned(_ bytes: [UInt8], from start: Int = 0, pathClass: UInt8) -> Bool {
        bytes.withUnsafeBufferPointer { URIByteClass.isCleanPathAndQuery($0, from: start, pathClass: pathClass) }
    }

    @Test(arguments: [(URIByteClass.absolutePath, true), (URIByteClass.relativePath, false)])
    func everyPairOfBytesFollowsTheRules(pathClass: UInt8, colonInPath: Bool) {
        var mismatches: [[UInt8]] = []
        for first in 0...255 {
            for second in 0...255 {
                for prefix in [[], Array("a/".utf8), Array("a?".utf8)] {
                    let bytes = prefix + [UInt8(first), UInt8(second)]
                    if Self.scanned(bytes, pathClass: pathClass) != Self.expected(bytes, colonInPath: colonInPath) {
                        mismatches.append(bytes)
                    }
                }
            }
        }
        let firstMismatches = Array(mismatches.prefix(3))
        #expect(firstMismatches.isEmpty, "\(mismatches.count) byte strings scanned against the rules")
    }

    /// The same pairs inside links long enough for the sixteen-byte blocks (`PathBlock`): at the
    /// start, inside and at the end of a block and across two, in a path and in a query.
    @Test(arguments: [(URIByteClass.absolutePath, true), (URIByteClass.relativePath, false)])
    func everyPairOfBytesInBlocksFollowsTheRules(pathClass: UInt8, colonInPath: Bool) {
        var mismatches = 0
        for context in [
            Array("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".utf8), Array("a?aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".utf8),
        ] {
            for position in [0, 2, 14, 15, 16] {
                for first in 0...255 {
                    for second in 0...255 {
                        var bytes = context
                        bytes[position] = UInt8(first)
                        bytes[position + 1] = UInt8(second)
                        if Self.scanned(bytes, pathClass: pathClass) != Self.expected(bytes, colonInPath: colonInPath) {
                            mismatches += 1
                        }
                    }
                }
            }
        }
        #expect(mismatches == 0, "byte strings scanned against the rules")
    }

    /// Random links of 0 to 80 bytes over the bytes the rules turn on, against the rules.
    @Test func randomLinksFollowTheRules() {
        var random = SeededRandom(seed: 0x0517_0017)
        let alphabet = Array("a/.?#:%Z9-~".utf8) + [0x20, 0x22, 0x3C, 0x7C, 0x7F, 0x80, 0xEA, 0x00]
        var mismatches: [[UInt8]] = []
        for _ in 0..<20_000 {
            let bytes = (0..<random.next(below: 81)).map { _ in
                random.next(below: 4) == 0 ? alphabet[random.next(below: alphabet.count)] : UInt8(ascii: "a")
            }
            for (pathClass, colonInPath) in [(URIByteClass.absolutePath, true), (URIByteClass.relativePath, false)]
            where Self.scanned(bytes, pathClass: pathClass) != Self.expected(bytes, colonInPath: colonInPath) {
                mismatches.append(bytes)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    @Test func theScanStartsWhereItIsTold() {
        // The scheme's `//` before `start` is no dot segment, the `?` before it no query.
        #expect(Self.scanned(Array("x//.a".utf8), from: 2, pathClass: URIByteClass.absolutePath) == false)
        #expect(Self.scanned(Array("x//.a".utf8), from: 3, pathClass: URIByteClass.absolutePath))
        #expect(Self.scanned(Array("?a/.b".utf8), from: 1, pathClass: URIByteClass.absolutePath) == false)
        #expect(Self.scanned(Array("a".utf8), from: 1, pathClass: URIByteClass.absolutePath))
        // The same with a whole block after `start`.
        let long = Array("x//.aaaaaaaaaaaaaaaaaaaa".utf8)
        #expect(Self.scanned(long, from: 2, pathClass: URIByteClass.absolutePath) == false)
        #expect(Self.scanned(long, from: 3, pathClass: URIByteClass.absolutePath))
    }

    @Test func linksKeepTheirFastPathAnswers() {
        #expect(
            URIReference.resolve("https://example.test/posts/1?ref=rss&lang=ko", against: nil)
                == "https://example.test/posts/1?ref=rss&lang=ko"
        )
        #expect(URIReference.resolve("https://example.test/a/./b", against: nil) == "https://example.test/a/b")
        #expect(URIReference.resolve("https://example.test/a?x=/./y", against: nil) == "https://example.test/a?x=/./y")
        #expect(
            URIReference.resolve("media/1.mp3", against: "https://example.test/feed/")
                == "https://example.test/feed/media/1.mp3"
        )
        #expect(URIReference.resolve("a:b/c", against: "https://example.test/feed/") == "a:b/c")
    }
}

import Testing

@testable import HomeFeeds

/// `String.withBorrowedUTF8` hands over exactly the String's UTF-8, whatever its storage.
@Suite struct BorrowedUTF8Tests {
    static let strings: [String] = [
        "",
        "abc",  // small: stored inline
        "https://example.test/posts/1?ref=rss&lang=ko",  // native, ASCII
        "벤치마크 피드 & Benchmark 한글 제목",  // native, multi-byte
        String("--https://example.test/a--".dropFirst(2).dropLast(2)),  // made from a Substring
        String(repeating: "가", count: 1000),
    ]

    @Test(arguments: strings)
    func theBytesAreTheStringsUTF8(_ text: String) {
        let borrowed = text.withBorrowedUTF8 { Array($0) }
        #expect(borrowed == Array(text.utf8))
    }

    @Test func aSubstringsUTF8IsReadThroughItsString() {
        let whole = "prefix-https://example.test/x"
        let link = String(whole[whole.index(whole.startIndex, offsetBy: 7)...])
        #expect(link.withBorrowedUTF8 { String(decoding: $0, as: UTF8.self) } == "https://example.test/x")
        #expect(HashedKey.hashCode(of: link) == HashedKey.hashCode(of: "https://example.test/x"))
    }
}

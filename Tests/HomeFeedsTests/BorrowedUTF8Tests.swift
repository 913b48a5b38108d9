import Testing

@testable import HomeFeeds

/// `String.withBorrowedUTF8` hands over exactly the String's UTF-8, small (inline) or native.
@Suite struct BorrowedUTF8Tests {
    static let strings: [String] = [
        "",
        "abc",  // small: stored inline
        "https://example.test/posts/1?ref=rss&lang=ko",  // native, ASCII
        "벤치마크 피드 & Benchmark 한글 제목",  // native, multi-byte
        String(repeating: "가", count: 1000),
    ]

    @Test(arguments: strings)
    func theBytesAreTheStringsUTF8(_ text: String) {
        let borrowed = text.withBorrowedUTF8 { Array($0) }
        #expect(borrowed == Array(text.utf8))
    }

    @Test(arguments: strings)
    func anIdHashesItsUTF8(_ text: String) {
        var hasher = Hasher()
        Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        #expect(HashedKey.hashCode(of: text) == hasher.finalize())
    }
}

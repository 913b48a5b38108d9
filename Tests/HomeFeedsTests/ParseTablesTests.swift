import Testing

@testable import HomeFeeds

/// The two small tables on the parse's hot path: `FirstIndexTable` (identity) and
/// `InternedNameCache` (element names). Both are caches of an answer computed another way, so
/// each test checks that answer is unchanged however the table is filled.
@Suite struct ParseTablesTests {
    private static func entry(_ id: String) -> FeedEntry {
        FeedEntry(id: id, idSource: .guid, title: nil, link: nil, published: nil, summary: nil, enclosures: [])
    }

    @Test("FirstIndexTable finds each of 5 000 ids at its index across every growth, and no unknown id")
    func firstIndexTableThroughGrowth() {
        var table = FirstIndexTable()
        var entries: [FeedEntry] = []
        for index in 0..<5_000 {
            let key = HashedKey("post-\(index)")
            // Not there before it is inserted (the table grew 64 → 16 384 slots on the way).
            #expect(table.find(key.text, hashCode: key.hashCode, in: entries) == nil)
            table.insert(hashCode: key.hashCode, index: entries.count)
            entries.append(Self.entry(key.text))
        }
        var misplaced = 0
        func find(_ id: String) -> Int? { table.find(id, hashCode: HashedKey.hashCode(of: id), in: entries) }
        for index in 0..<5_000 where find("post-\(index)") != index { misplaced += 1 }
        #expect(misplaced == 0)
        #expect(find("post-5000") == nil)
        #expect(find("") == nil)
    }

    @Test("InternedNameCache classifies by address: the same answer as XMLName/XMLNamespace, repeated and colliding")
    func internedNameCache() {
        var cache = InternedNameCache()
        // 200 names at distinct addresses (more than the cache's 64 slots: some share a slot).
        let words = ["title", "link", "item", "guid", "enclosure", "pubDate", "description", "x-other"]
        let names = (0..<200).map { index -> UnsafeMutablePointer<UInt8> in
            let bytes = Array(words[index % words.count].utf8) + [0]
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            pointer.initialize(from: bytes, count: bytes.count)
            return pointer
        }
        defer { for name in names { name.deallocate() } }
        var wrong = 0
        for _ in 0..<3 {
            for name in names where cache.name(UnsafePointer(name)) != XMLName.classify(UnsafePointer(name)) {
                wrong += 1
            }
        }
        #expect(wrong == 0)
        #expect(cache.name(UnsafePointer(names[0])) == .title)
        #expect(cache.name(UnsafePointer(names[7])) == .other)

        let atom = Array("http://www.w3.org/2005/Atom\0".utf8)
        let media = Array("http://search.yahoo.com/mrss/\0".utf8)
        atom.withUnsafeBufferPointer { atom in
            media.withUnsafeBufferPointer { media in
                for _ in 0..<2 {
                    #expect(cache.namespace(atom.baseAddress) == .atom)
                    #expect(cache.namespace(media.baseAddress) == .media)
                }
            }
        }
        #expect(cache.namespace(nil) == .rssCore)
    }
}

/// `URIReference.Resolver` keeps the last base split; it must answer exactly as
/// `URIReference.resolve(_:against:)` for every kind of base and reference, in any order.
@Suite struct LinkResolverTests {
    @Test("the resolver agrees with resolve(_:against:) across bases, references and base changes")
    func agreesWithResolve() {
        let bases: [String?] = [
            "https://example.test/", "https://example.test", "https://example.test/a/b/c?q#f",
            "https://example.test/dir/", "http://h.test:8080/x?y", "https://example.test/a/./b",
            "https://example.test/%7Euser/é", "relative/base", nil,
        ]
        let references = [
            "posts/1?ref=atom&lang=ko", "/media/1.mp3", "a", "?q", "#f", "./x", "../up", "//other.test/p",
            "https://abs.test/x", "mailto:a@b.test", " spaced ", "é/ü", "a:b", "", "x/./y", "x?/.y",
        ]
        var resolver = URIReference.Resolver()
        var disagreements: [String] = []
        // Every base twice in a row, then back to the first: the kept split is reused and replaced.
        for base in bases + bases.reversed() + bases {
            for reference in references {
                var bytes = reference
                let viaResolver = bytes.withUTF8 { resolver.resolve($0, against: base) }
                let direct = URIReference.resolve(reference, against: base)
                if viaResolver != direct { disagreements.append("\(reference) against \(base ?? "nil")") }
            }
        }
        #expect(disagreements == [])
        var bytes = "posts/1"
        #expect(
            bytes.withUTF8 { resolver.resolve($0, against: "https://example.test/a/b") }
                == "https://example.test/a/posts/1"
        )
    }
}

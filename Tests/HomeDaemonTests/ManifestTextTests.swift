import Foundation
import Testing

@testable import HomeDaemon

@Suite struct ManifestTextTests {
    /// The cut the cap promises: the longest prefix of whole Characters within 4 096 bytes.
    static func expectWholeCharacters(
        _ capped: String,
        of text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let kept = capped.count
        #expect(capped.utf8.count <= 4_096, sourceLocation: sourceLocation)
        #expect(capped.utf8.count > 4_000, sourceLocation: sourceLocation)
        #expect(String(text.prefix(kept)) == capped, "not a prefix of whole characters", sourceLocation: sourceLocation)
        #expect(
            String(text.prefix(kept + 1)).utf8.count > 4_096,
            "one more character fits",
            sourceLocation: sourceLocation
        )
    }

    @Test("text within the cap is kept as it is")
    func short() {
        let text = String(repeating: "가", count: 1_365) + "a"  // 4 096 bytes
        #expect(ManifestText.capped(text) == text)
        #expect(ManifestText.capped("") == "")
    }

    @Test(
        "a longer text is cut at the last whole character within 4 096 bytes, never inside one",
        arguments: [
            // Hangul syllables: 3 bytes each.
            String(repeating: "가", count: 400_000),
            // Decomposed Hangul (L V T jamo, 9 bytes a syllable): a cut between scalars would
            // leave "하" without its final ᆫ.
            "ab" + String(repeating: "\u{1112}\u{1161}\u{11AB}", count: 1_000),
            // Flags (two regional indicators each) after one byte: an odd cut splits a flag.
            "a" + String(repeating: "🇰🇷", count: 1_000),
            // A family (7 scalars joined by ZWJ, 25 bytes) and skin-toned thumbs: byte 4 096
            // falls after the family's third person.
            "0123456789" + String(repeating: "👨‍👩‍👧‍👦한👍🏽", count: 1_000),
            // A million bytes: the work is bounded by the cap, not by this.
            String(repeating: "공지 👍🏽 ", count: 100_000),
        ]
    )
    func cutsWholeCharacters(_ text: String) {
        Self.expectWholeCharacters(ManifestText.capped(text), of: text)
    }

    @Test("a first character longer than the cap alone is cut between its scalars, never to nothing")
    func oneHugeCharacter() {
        let text = "e" + String(repeating: "\u{0301}", count: 3_000) + " rest"
        let capped = ManifestText.capped(text)
        #expect(capped.utf8.count == 4_095)
        #expect(capped.unicodeScalars.first == "e")
        #expect(text.unicodeScalars.starts(with: capped.unicodeScalars))
    }

    @Test("an item's texts are cut, its id before the repeat suffix; a URL longer than the cap is left out")
    func itemContent() {
        let long = String(repeating: "한", count: 2_000)
        let url = "https://example.test/" + String(repeating: "a", count: 5_000)
        let sections = HomeAssembler.assemble(
            sectionIDs: ["s"],
            content: HomeContent(
                user: UserProfile(name: long, subtitle: long),
                notices: ["1", "2"].map {
                    Notice(
                        sourceURL: "file:///n.xml",
                        sourceTitle: long,
                        entryID: long + $0,
                        title: long,
                        link: url,
                        summary: long
                    )
                }
            ),
            bindings: [
                SectionBinding(
                    sectionID: "s",
                    sources: [SectionBinding.Source(.notices(sourceURL: nil))],
                    header: .profile
                )
            ]
        )
        let items = sections[0].items
        #expect(items.count == 2)
        for item in items {
            for text in [item.title, item.subtitle, item.source] {
                #expect(text?.utf8.count == 4_095)
            }
            #expect(item.link == nil)
        }
        // Both entry ids are cut, each told apart by the hash of the whole: no repeat.
        #expect(items.allSatisfy { $0.id.utf8.count <= 1_000 })
        #expect(items[0].id != items[1].id)
        #expect(!items[1].id.hasSuffix("#2"))
        #expect(sections[0].header?.title?.utf8.count == 4_095)
        #expect(sections[0].header?.subtitle?.utf8.count == 4_095)
        // The fingerprint is the served text's.
        #expect(sections[0].fingerprint(ofItem: 0) == ContentFingerprint.of(items[0]))
    }

    @Test("an id over 1 000 bytes is its first whole characters, ~ and the SHA-256 of the whole id")
    func longID() {
        let id = String(repeating: "한", count: 400)
        let capped = ManifestText.cappedID(id)
        #expect(capped.utf8.count <= 1_000)
        let parts = capped.split(separator: "~")
        #expect(parts.count == 2)
        #expect(parts[1].utf8.count == 64)
        #expect(id.hasPrefix(parts[0]))
        #expect(parts[0].utf8.count % 3 == 0)
        // Stable (sizes are stored by id) and different for ids that differ past the cut.
        #expect(ManifestText.cappedID(id) == capped)
        #expect(ManifestText.cappedID(id + "x") != capped)
        #expect(ManifestText.cappedID("short") == "short")
    }

    @Test("a NUL becomes U+FFFD before the cap, as the text measurer reads it")
    func nul() {
        #expect(ManifestText.capped("a\u{0}b") == "a\u{FFFD}b")
        let text = String(repeating: "a", count: 4_094) + "\u{0}"
        #expect(ManifestText.capped(text).utf8.count == 4_094)
        #expect(
            ManifestText.capped(String(repeating: "a", count: 4_090) + "\u{0}") == String(repeating: "a", count: 4_090)
                + "\u{FFFD}"
        )
    }
}

import Foundation
import Testing

@testable import HomeDaemon

@Suite struct HomeAssemblerTests {
    static let ids = ["userHistory", "mainService", "otherService", "appService"]

    static let content = HomeContent(
        user: UserProfile(name: "김홈피드", subtitle: "컴퓨터공학과"),
        history: [
            HistoryEntry(id: 9, title: "도서관 좌석 예약", kind: "open", at: Date(timeIntervalSince1970: 1_800_000_000)),
            HistoryEntry(id: 8, title: "셔틀버스", at: Date(timeIntervalSince1970: 1_799_990_000)),
        ],
        notices: [
            Notice(sourceURL: "file:///feeds/ko.xml", sourceTitle: "공지사항", entryID: "notice-1042", title: "수강신청 안내"),
            Notice(sourceURL: "file:///feeds/ko.xml", entryID: "notice-1041", title: "도서관 개방"),
        ],
        services: [
            "main-service": (1...4).map { ServiceLink(title: "main \($0)", url: "https://example.test/m\($0)") },
            "app-service": [ServiceLink(title: "지도", url: "https://example.test/map")],
        ]
    )

    @Test("the default bindings fill the four sections: history, headline + cards, paging row, grid")
    func defaults() {
        let sections = HomeAssembler.assemble(
            sectionIDs: Self.ids,
            content: Self.content,
            bindings: SectionBinding.defaults
        )
        #expect(sections.map(\.id) == Self.ids)
        #expect(sections[0].items.map(\.id) == ["history:9", "history:8"])
        #expect(sections[0].header?.title == "김홈피드")
        #expect(sections[0].header?.subtitle == "컴퓨터공학과")
        // One headline notice, then at most three main-service links.
        #expect(sections[1].items.map(\.kind) == ["notice", "service", "service", "service"])
        #expect(sections[1].items[0].title == "수강신청 안내")
        #expect(sections[1].items[0].source == "공지사항")
        // No other-service links: hidden.
        #expect(sections[2].items.isEmpty && sections[2].isHidden)
        #expect(sections[3].items.map(\.title) == ["지도"])
        #expect(sections[3].header?.title == "App services")
    }

    @Test("the history read is the longest history run of the laid-out sections, the cap when one takes all")
    func historyRead() {
        let history = { (id: String, limit: Int?) in
            SectionBinding(sectionID: id, sources: [SectionBinding.Source(.history, limit: limit)])
        }
        let read = { (ids: [String], bindings: [SectionBinding]) in
            ContentReads(sectionIDs: ids, bindings: bindings).history
        }
        // The default userHistory binding takes three.
        #expect(read(Self.ids, SectionBinding.defaults) == 3)
        #expect(read(Self.ids, []) == 3)
        // Configured bindings replace the defaults; the longest run counts.
        #expect(read(Self.ids, [history("userHistory", 5), history("appService", 2)]) == 5)
        #expect(read(Self.ids, [history("userHistory", 2), history("appService", 5)]) == 5)
        let twoRuns = SectionBinding(
            sectionID: "userHistory",
            sources: [SectionBinding.Source(.history, limit: 2), SectionBinding.Source(.history, limit: 4)]
        )
        #expect(read(Self.ids, [twoRuns]) == 4)
        // Without a limit, or past the cap: the cap.
        #expect(read(Self.ids, [history("userHistory", nil)]) == SectionBinding.Source.maxLimit)
        #expect(read(Self.ids, [history("userHistory", 5_000)]) == SectionBinding.Source.maxLimit)
        // Only the sections laid out count: no history section, no history read.
        #expect(read(["mainService"], [history("userHistory", nil)]) == 0)
        let services = SectionBinding(
            sectionID: "userHistory",
            sources: [SectionBinding.Source(.services(category: "x"))]
        )
        #expect(read(Self.ids, [services]) == 0)
    }

    @Test("notices are read for every source's longest run, and apart for each source a run is bound to")
    func noticesRead() {
        let notices = { (id: String, source: String?, limit: Int?) in
            SectionBinding(sectionID: id, sources: [SectionBinding.Source(.notices(sourceURL: source), limit: limit)])
        }
        // The default mainService binding takes one notice, the headline.
        #expect(ContentReads(sectionIDs: Self.ids, bindings: []) == ContentReads(history: 3, notices: 1))
        #expect(
            ContentReads(
                sectionIDs: Self.ids,
                bindings: [notices("mainService", nil, 2), notices("otherService", nil, 7)]
            )
            .notices == 7
        )
        #expect(
            ContentReads(sectionIDs: Self.ids, bindings: [notices("mainService", nil, nil)]).notices
                == SectionBinding.Source.maxLimit
        )
        // One source's run reads that source's own newest, its longest run's worth.
        let bound = ContentReads(
            sectionIDs: Self.ids,
            bindings: [
                notices("mainService", "https://a.test/f", 3), notices("otherService", "https://a.test/f", 5),
                notices("appService", "https://b.test/f", nil),
            ]
        )
        #expect(bound.notices == 0)
        #expect(bound.sourceNotices == ["https://a.test/f": 5, "https://b.test/f": SectionBinding.Source.maxLimit])
        #expect(ContentReads(sectionIDs: ["userHistory"], bindings: []) == ContentReads(history: 3))
    }

    @Test("item ids are stable: the same entries give the same ids whatever else changed")
    func stableIDs() {
        var changed = Self.content
        changed.notices.insert(Notice(sourceURL: "https://other.test/feed", entryID: "x", title: "new"), at: 1)
        changed.history.append(HistoryEntry(id: 1, title: "old", at: Date(timeIntervalSince1970: 0)))
        let before = HomeAssembler.assemble(
            sectionIDs: Self.ids,
            content: Self.content,
            bindings: SectionBinding.defaults
        )
        let after = HomeAssembler.assemble(sectionIDs: Self.ids, content: changed, bindings: SectionBinding.defaults)
        #expect(before[1].items[0].id == after[1].items[0].id)
        #expect(before[0].items.map(\.id) == Array(after[0].items.map(\.id).prefix(2)))
        #expect(before[1].items[0].id.hasPrefix("notice:"))
    }

    @Test("empty states: placeholder, exact runs padded, header-only, hide")
    func emptyStates() {
        let empty = HomeContent(user: UserProfile(name: "me"))
        let sections = HomeAssembler.assemble(sectionIDs: Self.ids, content: empty, bindings: SectionBinding.defaults)
        #expect(sections[0].items.map(\.kind) == ["placeholder"])
        #expect(sections[0].items[0].title == "No recent activity yet")
        #expect(sections[1].isHidden && sections[1].items.isEmpty)

        // Services but no notices: the headline slot is padded so the cards keep their slots.
        var servicesOnly = empty
        servicesOnly.services["main-service"] = Self.content.services["main-service"]
        let main = HomeAssembler.assemble(
            sectionIDs: ["mainService"],
            content: servicesOnly,
            bindings: SectionBinding.defaults
        )[0]
        #expect(main.items.map(\.kind) == ["placeholder", "service", "service", "service"])
        #expect(main.items[0].title == "No notices yet")

        let headerOnly = SectionBinding(
            sectionID: "x",
            sources: [.init(.history)],
            header: .title("T"),
            empty: .headerOnly
        )
        let x = HomeAssembler.assemble(sectionIDs: ["x"], content: empty, bindings: [headerOnly])[0]
        #expect(x.items.isEmpty && !x.isHidden && x.header?.title == "T")
    }

    @Test("notices can be bound to one source")
    func noticesOfOneSource() {
        let binding = SectionBinding(sectionID: "n", sources: [.init(.notices(sourceURL: "https://other.test/feed"))])
        var content = Self.content
        content.sourceNotices["https://other.test/feed"] = [
            Notice(sourceURL: "https://other.test/feed", entryID: "o1", title: "other")
        ]
        let section = HomeAssembler.assemble(sectionIDs: ["n"], content: content, bindings: [binding])[0]
        #expect(section.items.map(\.title) == ["other"])
        // Its own notices only: every source's newest are for `notices` runs.
        content.sourceNotices = [:]
        let empty = HomeAssembler.assemble(sectionIDs: ["n"], content: content, bindings: [binding])[0]
        #expect(empty.items.isEmpty)
    }

    @Test("ids stay unique in the whole manifest when a link appears twice")
    func uniqueIDs() {
        var content = Self.content
        let library = ServiceLink(title: "도서관", url: "https://example.test/library")
        content.services["main-service"] = [library, library]
        content.services["app-service"] = [library]
        let sections = HomeAssembler.assemble(sectionIDs: Self.ids, content: content, bindings: SectionBinding.defaults)
        let ids = sections.flatMap { $0.items.map(\.id) }
        #expect(Set(ids).count == ids.count)
        #expect(
            sections[1].items.dropFirst().map(\.id) == [
                "service:https://example.test/library", "service:https://example.test/library#2",
            ]
        )
        #expect(sections[3].items.map(\.id) == ["service:https://example.test/library#3"])
    }

    @Test("a repeated id skips the numbers other items' ids already have, wherever they are")
    func uniqueIDsPastRealOnes() {
        var content = Self.content
        let x = ServiceLink(title: "x", url: "https://x/")
        // Links whose own URLs end in `#2` and `#3`, one before the repeats and one after them.
        content.services["main-service"] = [ServiceLink(title: "x2", url: "https://x/#2"), x, x]
        content.services["app-service"] = [x, ServiceLink(title: "x3", url: "https://x/#3")]
        let sections = HomeAssembler.assemble(sectionIDs: Self.ids, content: content, bindings: SectionBinding.defaults)
        let ids = sections.flatMap { $0.items.map(\.id) }
        #expect(Set(ids).count == ids.count, "\(ids)")
        #expect(
            sections[1].items.dropFirst().map(\.id) == [
                "service:https://x/#2", "service:https://x/", "service:https://x/#4",
            ]
        )
        #expect(sections[3].items.map(\.id) == ["service:https://x/#5", "service:https://x/#3"])
        // The same content gives the same ids.
        let again = HomeAssembler.assemble(sectionIDs: Self.ids, content: content, bindings: SectionBinding.defaults)
        #expect(again.flatMap { $0.items.map(\.id) } == ids)
    }

    @Test("each item's fingerprint is its content's, computed once: a renamed repeat keeps it")
    func fingerprints() {
        var content = Self.content
        let library = ServiceLink(title: "도서관", url: "https://example.test/library")
        content.services["main-service"] = [library, library]
        let sections = HomeAssembler.assemble(sectionIDs: Self.ids, content: content, bindings: SectionBinding.defaults)
        for section in sections {
            #expect(section.itemFingerprints == section.items.map { ContentFingerprint.of($0) })
            #expect(section.headerFingerprint == ContentFingerprint.of(section.header))
            #expect(section.fingerprint(ofItem: section.items.count) == ContentFingerprint.empty)
        }
        // The id is not part of what is shown: the repeat (`#2`) has the first one's fingerprint.
        let repeated = sections[1].items.indices.filter {
            sections[1].items[$0].id.hasPrefix("service:https://example.test/library")
        }
        #expect(repeated.count == 2)
        #expect(sections[1].fingerprint(ofItem: repeated[0]) == sections[1].fingerprint(ofItem: repeated[1]))
    }
}

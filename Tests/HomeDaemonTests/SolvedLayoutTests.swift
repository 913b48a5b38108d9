import Foundation
import HomeLayout
import Testing

@testable import HomeDaemon

/// A solve is skipped when a layout kept from an earlier one (the version's text measuring, or
/// the last version's) was solved from the same input, and only then.
@Suite struct SolvedLayoutTests {
    let phone = LayoutEnvironment(width: 375, height: 812, scale: 2)
    let tablet = LayoutEnvironment(width: 820, height: 1180, scale: 2)
    let sections = HomeAssembler.assemble(
        sectionIDs: ManifestElementsTests.spec.sections.map(\.id),
        content: HomeAssemblerTests.content,
        bindings: SectionBinding.defaults
    )

    func built(
        _ sizes: TargetSizes = .none,
        sections: [AssembledSection]? = nil,
        reusing solved: SolvedLayout? = nil
    ) throws -> EncodedManifest {
        try ManifestBuilder.built(
            spec: ManifestElementsTests.spec,
            sections: sections ?? self.sections,
            environment: phone,
            version: 1,
            profile: "phone",
            generatedAt: Date(timeIntervalSince1970: 0),
            measurements: sizes,
            reusing: solved
        ).manifest
    }

    /// The layout `sizes` give on `environment`, as the text measuring keeps it.
    func solved(_ sizes: TargetSizes = .none, on environment: LayoutEnvironment) throws -> SolvedLayout {
        try ManifestBuilder.solve(
            spec: ManifestElementsTests.spec,
            sections: sections,
            environment: environment,
            measurements: sizes
        ).layout
    }

    /// The frames solved on `source`, labelled as solved from `label`'s input (its own, or as
    /// `change` makes it): only a layout that was reused rather than solved again can put them
    /// into `label`'s manifest.
    func mislabelled(
        _ source: LayoutEnvironment,
        as label: LayoutEnvironment,
        changing change: (inout SolvedLayout.Input) -> Void = { _ in }
    ) throws -> SolvedLayout {
        var input = try solved(on: label).input
        change(&input)
        return SolvedLayout(input: input, result: try solved(on: source).result)
    }

    /// A measured height for the first history row, with the fingerprint of its content.
    func rowMeasured(_ height: Double) throws -> TargetSizes {
        let fingerprint = try #require(try built().elements?["history:9"]?.fingerprint)
        return TargetSizes(entries: [
            "history:9": [
                SizeEntry(source: .computed, width: nil, height: height, fingerprint: fingerprint, reportedAt: Date())
            ]
        ])
    }

    @Test("a layout solved with the measurements that apply is the manifest's, byte for byte")
    func reusedWhenSame() throws {
        let sizes = try rowMeasured(50)
        #expect(try built(sizes, reusing: solved(sizes, on: phone)).bytes == built(sizes).bytes)
        #expect(try built(reusing: solved(on: phone)).bytes == built().bytes)
    }

    @Test("the kept layout is used, not solved again, when environment and measurements match")
    func reuseSkipsTheSolve() throws {
        let fresh = try built()
        let reused = try built(reusing: mislabelled(tablet, as: phone))
        #expect(reused.elements?.geometry != fresh.elements?.geometry)
        #expect(reused.elements?["history:9"]?.frame.width == 820)
    }

    @Test("a layout solved with other measurements or for another container is solved again")
    func solvedAgainWhenDifferent() throws {
        let measured = try rowMeasured(50)
        // Measuring changed the row: the layout solved before it is not used.
        #expect(try built(measured, reusing: solved(on: phone)).bytes == built(measured).bytes)
        #expect(try built(reusing: solved(measured, on: phone)).bytes == built().bytes)
        #expect(try built(rowMeasured(70), reusing: solved(measured, on: phone)).bytes == built(rowMeasured(70)).bytes)
        // Solved for the tablet, with the same (no) measurements.
        #expect(try built(reusing: solved(on: tablet)).bytes == built().bytes)
    }

    @Test("a layout kept for other item counts or from another spec is solved again")
    func solvedAgainForOtherInput() throws {
        let fresh = try built()
        let moreItems = try built(reusing: mislabelled(tablet, as: phone) { $0.itemCounts[0] += 1 })
        #expect(moreItems.etag == fresh.etag)
        let otherSpec = try built(reusing: mislabelled(tablet, as: phone) { $0.spec.sections.removeLast() })
        #expect(otherSpec.etag == fresh.etag)
        // The first section hidden: the same items, but the spec as solved loses its footer.
        let hidden = sections.enumerated().map { index, section in
            index > 0
                ? section
                : AssembledSection(id: section.id, items: section.items, header: section.header, isHidden: true)
        }
        let nowHidden = try built(sections: hidden, reusing: mislabelled(tablet, as: phone))
        #expect(try nowHidden.etag == built(sections: hidden).etag)
        #expect(nowHidden.etag != fresh.etag)
        // The control: the same trick with the input unchanged is reused.
        let sameInput = try built(reusing: mislabelled(tablet, as: phone))
        #expect(sameInput.elements?["history:9"]?.frame.width == 820)
    }

    @Test("the next version measures its text in the last one's layout while nothing the solver reads changes")
    func keptAcrossVersions() async throws {
        let home = try SampleHome()
        let service = try await home.start()
        defer { home.stop(service) }
        // A version after the sample's: its headline measured in the one before (the fetches
        // may have brought the headline in the last version, measured only after its solve).
        try await service.publishNow()
        let first = try await Self.keptPhoneLayout(service)
        try await service.publishNow()
        let second = try await Self.keptPhoneLayout(service)
        #expect(Self.sameStorage(first.result.sections, second.result.sections))
        // Two history events: the userHistory section shows two rows instead of its placeholder.
        for title in ["도서관", "학사 안내"] {
            _ = try await service.recordHistory(title: title, link: nil, kind: nil, at: nil)
        }
        let third = try await Self.keptPhoneLayout(service)
        #expect(third.input.itemCounts != second.input.itemCounts)
        #expect(!Self.sameStorage(second.result.sections, third.result.sections))
        let manifest = try await SampleHome.manifest(service)
        let history = try #require(SampleHome.sections(manifest).first { $0["id"] as? String == "userHistory" })
        #expect((history["items"] as? [[String: Any]])?.count == 2)
    }

    @Test("a reload solves again, whatever its spec compares equal to")
    func droppedOnReload() async throws {
        let home = try SampleHome()
        let service = try await home.start()
        defer { home.stop(service) }
        try await service.publishNow()
        let before = try await Self.keptPhoneLayout(service)
        _ = try await service.reload()
        let after = try await Self.keptPhoneLayout(service)
        #expect(after.input == before.input)
        #expect(!Self.sameStorage(before.result.sections, after.result.sections))
    }

    /// The layout the phone's text was last measured in.
    static func keptPhoneLayout(_ service: HomeService) async throws -> SolvedLayout {
        try #require(await service.textState.layouts["phone"])
    }

    /// Whether two arrays are one storage: a layout kept, not solved again.
    static func sameStorage(_ a: [SectionLayout], _ b: [SectionLayout]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    @Test("ManifestCache.prepare hands each profile its own kept layout, by profile name")
    func preparedVersionsReuseByProfile() async throws {
        let profiles = [Profile(name: "phone", environment: phone), Profile(name: "tablet", environment: tablet)]
        let cache = ManifestCache(spec: ManifestElementsTests.spec, profiles: profiles)
        let at = Date(timeIntervalSince1970: 0)
        let fresh = try await cache.prepare(sections: sections, at: at)
        let prepared = try await cache.prepare(
            sections: sections,
            solved: ["phone": mislabelled(tablet, as: phone)],
            at: at
        )
        let phoneFrames = try #require(prepared.manifests["phone"]?.elements)
        #expect(phoneFrames["history:9"]?.frame.width == 820)
        #expect(prepared.manifests["tablet"]?.etag == fresh.manifests["tablet"]?.etag)
        // The phone's frames labelled as the tablet's, under the phone's name: the phone's
        // environment does not match, and the tablet has no layout kept under its name.
        let misfiled = try await cache.prepare(
            sections: sections,
            solved: ["phone": mislabelled(phone, as: tablet)],
            at: at
        )
        #expect(misfiled.manifests["phone"]?.etag == fresh.manifests["phone"]?.etag)
        #expect(misfiled.manifests["tablet"]?.etag == fresh.manifests["tablet"]?.etag)
    }
}

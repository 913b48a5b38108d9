import Foundation
import HomeDaemon
import HomeLayout
import Testing

@Suite struct ManifestCacheTests {
    static let row = LayoutGroup.horizontal(
        LayoutSize(width: .fractionalWidth(1), height: .absolute(50)),
        [.item(LayoutItem(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(1))))]
    )
    static let spec = LayoutSpec(sections: [LayoutSection(id: "userHistory", group: row)])
    static let profiles = [
        Profile(name: "a", environment: LayoutEnvironment(width: 375, height: 812, scale: 3)),
        Profile(name: "b", environment: LayoutEnvironment(width: 820, height: 1180, scale: 2)),
    ]

    @Test("each publish makes a version laid out and encoded for every profile")
    func publish() async throws {
        let cache = ManifestCache(spec: Self.spec, profiles: Self.profiles)
        let built = try await cache.publish(
            content: HomeAssemblerTests.content,
            bindings: SectionBinding.defaults,
            at: Date()
        )
        #expect(built.keys.sorted() == ["a", "b"])
        #expect(await cache.version == 1)
        #expect(await cache.manifest(profile: "a") == built["a"])
        #expect(await cache.manifest(profile: "zzz") == nil)
        try await cache.publish(content: HomeAssemblerTests.content, bindings: SectionBinding.defaults, at: Date())
        #expect(await cache.manifest(profile: "b")?.version == 2)
    }

    @Test("a prepared version is served only once committed; one prepared before it is stale")
    func prepareAndCommit() async throws {
        let cache = ManifestCache(spec: Self.spec, profiles: Self.profiles)
        let content = HomeAssemblerTests.content
        let first = try await cache.prepare(content: content, bindings: SectionBinding.defaults, at: Date())
        let second = try await cache.prepare(content: content, bindings: SectionBinding.defaults, at: Date())
        #expect(first.version == 1)
        #expect(await cache.version == 0)
        #expect(await cache.manifest(profile: "a") == nil)
        #expect(await cache.commit(first))
        #expect(await cache.manifest(profile: "a") == first.manifests["a"])
        // Both were prepared as version 1; the second comes after version 1 is served.
        #expect(await cache.commit(second) == false)
        #expect(await cache.version == 1)
    }

    @Test("the served manifests are readable without the actor, and follow commits and restores")
    func servedWithoutActor() async throws {
        let cache = ManifestCache(spec: Self.spec, profiles: Self.profiles)
        // Before any version: the first profile's name, no manifest.
        #expect(cache.servedManifest(profile: nil).profile == "a")
        #expect(cache.servedManifest(profile: nil).manifest == nil)
        let prepared = try await cache.prepare(
            content: HomeAssemblerTests.content,
            bindings: SectionBinding.defaults,
            at: Date()
        )
        // Prepared is not served.
        #expect(cache.servedManifest(profile: "b").manifest == nil)
        #expect(await cache.commit(prepared))
        #expect(cache.servedManifest(profile: nil).manifest == prepared.manifests["a"])
        #expect(cache.servedManifest(profile: "b").manifest == prepared.manifests["b"])
        #expect(cache.servedManifest(profile: "zzz").profile == "zzz")
        #expect(cache.servedManifest(profile: "zzz").manifest == nil)
        // A restarted daemon serves what it restored, before its first version.
        let restarted = ManifestCache(spec: Self.spec, profiles: Self.profiles)
        await restarted.restore(["b": try #require(prepared.manifests["b"])])
        #expect(restarted.servedManifest(profile: "b").manifest == prepared.manifests["b"])
        #expect(restarted.servedManifest(profile: "a").manifest == nil)
    }

    @Test("other containers are computed once per version and kept in a bounded LRU")
    func lru() async throws {
        let cache = ManifestCache(spec: Self.spec, profiles: Self.profiles, lruCapacity: 2)
        try await cache.publish(content: HomeAssemblerTests.content, bindings: SectionBinding.defaults, at: Date())
        let small = LayoutEnvironment(width: 320, height: 568, scale: 2)
        let first = try await cache.manifest(for: small)
        #expect(first.environment == small)
        #expect(try await cache.manifest(for: small) == first)
        // A profile's own container is served from the profile.
        #expect(try await cache.manifest(for: Self.profiles[0].environment) == cache.manifest(profile: "a"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(first.bytes)) as? [String: Any])
        #expect(json["profile"] is NSNull)
    }

    @Test("a layout that cannot be solved for a profile changes nothing")
    func atomic() async throws {
        let cache = ManifestCache(spec: Self.spec, profiles: Self.profiles)
        try await cache.publish(content: HomeAssemblerTests.content, bindings: SectionBinding.defaults, at: Date())
        let broken = LayoutSpec(sections: [
            LayoutSection(
                id: "userHistory",
                group: .horizontal(
                    LayoutSize(width: .fractionalWidth(1), height: .absolute(50)),
                    [.item(LayoutItem(size: LayoutSize(width: .absolute(500), height: .absolute(50))))]
                )
            )
        ])
        // 500 fits in 820 (profile b) but not in 375 (profile a).
        await #expect(throws: LayoutSolveError.self) {
            try await cache.publish(
                content: HomeAssemblerTests.content,
                bindings: SectionBinding.defaults,
                spec: broken,
                at: Date()
            )
        }
        #expect(await cache.version == 1)
    }

    @Test("profiles are built concurrently, yet the error is the first failing profile's, in configuration order")
    func firstFailureInOrder() async throws {
        let tooWide = LayoutSpec(sections: [
            LayoutSection(
                id: "userHistory",
                group: .horizontal(
                    LayoutSize(width: .fractionalWidth(1), height: .absolute(50)),
                    [.item(LayoutItem(size: LayoutSize(width: .absolute(900), height: .absolute(50))))]
                )
            )
        ])
        // 900 fits in neither 375 (a) nor 820 (b): each order of the profiles names its first one.
        for profiles in [Self.profiles, Self.profiles.reversed()] {
            let cache = ManifestCache(spec: Self.spec, profiles: profiles)
            do {
                try await cache.publish(
                    content: HomeAssemblerTests.content,
                    bindings: SectionBinding.defaults,
                    spec: tooWide,
                    at: Date()
                )
                Issue.record("a layout that fits no profile was published")
            } catch {
                let first = profiles[0].environment.width
                #expect(error.kind == .cannotFitSingleItem(required: 900, available: first, axis: .horizontal))
            }
        }
    }

    @Test("persisted manifests are served before the first publish")
    func restore() async throws {
        let cache = ManifestCache(spec: Self.spec, profiles: Self.profiles)
        let old = EncodedManifest(
            version: 41,
            etag: "\"x\"",
            environment: Self.profiles[0].environment,
            bytes: Array("{}".utf8)
        )
        await cache.restore(["a": old, "gone": old])
        #expect(await cache.manifest(profile: "a") == old)
        #expect(await cache.version == 41)
        try await cache.publish(content: HomeAssemblerTests.content, bindings: SectionBinding.defaults, at: Date())
        #expect(await cache.version == 42)
    }
}

import Foundation
import HomeStore
import Testing

/// Measured sizes: replaced per target and element, bounded per target and in total (oldest
/// first), deleted by target, by key or all.
@Suite struct MeasurementTests {
    func size(
        _ target: String,
        _ id: String,
        height: Double,
        fingerprint: UInt64 = 7,
        container: UInt64? = 3
    ) -> StoredMeasurement {
        StoredMeasurement(
            target: target,
            elementID: id,
            fingerprint: fingerprint,
            containerFingerprint: container,
            width: nil,
            height: height,
            reportedAt: Clock.t0
        )
    }

    @Test("a measurement of the same element replaces the old one and becomes the newest")
    func replaces() async throws {
        let test = try await TestStore()
        try await test.store.saveMeasurements([
            size("profile:phone", "a", height: 10), size("profile:phone", "b", height: 20),
        ])
        try await test.store.saveMeasurements([
            size("profile:phone", "a", height: 30, fingerprint: UInt64.max, container: UInt64.max - 1)
        ])
        let stored = try await test.store.measurements(target: "profile:phone")
        #expect(stored.map(\.elementID) == ["b", "a"])
        // The 64-bit fingerprints survive the signed INTEGER columns.
        #expect(
            stored.last == size("profile:phone", "a", height: 30, fingerprint: UInt64.max, container: UInt64.max - 1)
        )
        // A measurement without its container (as stored before 6-measurement-container) reads back without one.
        try await test.store.saveMeasurements([size("profile:phone", "c", height: 5, container: nil)])
        #expect(try await test.store.measurements(target: "profile:phone").last?.containerFingerprint == nil)
    }

    @Test("bounded per target and in total: the oldest are dropped and reported")
    func bounded() async throws {
        var configuration = StoreConfiguration.unlimited
        configuration.maxMeasurementsPerTarget = 3
        configuration.maxMeasurements = 5
        let test = try await TestStore(configuration)
        // Four for phone: "p0" is beyond 3 per target.
        let dropped = try await test.store.saveMeasurements(
            (0..<4).map { size("profile:phone", "p\($0)", height: 10) }
        )
        #expect(dropped == [MeasurementKey(target: "profile:phone", elementID: "p0")])
        // Three for tablet: 3 + 3 = 6 > 5, so the oldest of all ("p1") goes.
        let more = try await test.store.saveMeasurements((0..<3).map { size("profile:tablet", "t\($0)", height: 10) })
        #expect(more == [MeasurementKey(target: "profile:phone", elementID: "p1")])
        #expect(try await test.store.measurements().map(\.elementID) == ["p2", "p3", "t0", "t1", "t2"])
    }

    @Test("deleted by key, by target, or all")
    func deletes() async throws {
        let test = try await TestStore()
        try await test.store.saveMeasurements([
            size("profile:phone", "a", height: 10), size("profile:phone", "b", height: 10),
            size("container:320x568@2", "a", height: 10),
        ])
        let stale = StaleMeasurementKey(
            key: MeasurementKey(target: "profile:phone", elementID: "a"),
            fingerprint: 7,
            containerFingerprint: 3
        )
        #expect(try await test.store.deleteMeasurements([stale]) == 1)
        #expect(try await test.store.deleteMeasurements(target: "profile:phone") == 1)
        #expect(try await test.store.measurements().map(\.target) == ["container:320x568@2"])
        #expect(try await test.store.deleteMeasurements(target: nil) == 1)
        #expect(try await test.store.measurements().isEmpty)
    }

    @Test("a stale measurement is deleted only while its row still holds the stale content")
    func staleDeleteKeepsNewerReport() async throws {
        // Review finding: deleting by key alone removed a report stored for the new content
        // between the stale one being found and being deleted.
        let test = try await TestStore()
        try await test.store.saveMeasurements([size("profile:phone", "a", height: 10, fingerprint: 7)])
        try await test.store.saveMeasurements([size("profile:phone", "a", height: 12, fingerprint: 8)])
        let stale = StaleMeasurementKey(
            key: MeasurementKey(target: "profile:phone", elementID: "a"),
            fingerprint: 7,
            containerFingerprint: 3
        )
        #expect(try await test.store.deleteMeasurements([stale]) == 0)
        #expect(try await test.store.measurements().map(\.height) == [12])
        // Without a container (stored before 6-measurement-container) it still matches.
        try await test.store.saveMeasurements([size("profile:phone", "b", height: 5, container: nil)])
        let old = StaleMeasurementKey(
            key: MeasurementKey(target: "profile:phone", elementID: "b"),
            fingerprint: 7,
            containerFingerprint: nil
        )
        #expect(try await test.store.deleteMeasurements([old]) == 1)
    }
}

import FoundationEssentials

extension Store {
    /// Stores measurements, replacing any of the same target and element, then drops the oldest
    /// beyond ``StoreConfiguration/maxMeasurementsPerTarget`` (per target written) and
    /// ``StoreConfiguration/maxMeasurements`` (in all), in one transaction.
    ///
    /// - Returns: the measurements dropped to stay within the limits (never one just written,
    ///   unless a single call writes more than a limit).
    @discardableResult
    public func saveMeasurements(_ measurements: [StoredMeasurement]) throws(StoreError) -> [MeasurementKey] {
        guard !measurements.isEmpty else { return [] }
        return try database.transaction { () throws(StoreError) -> [MeasurementKey] in
            for m in measurements {
                // REPLACE deletes the old row and inserts a new one with a larger id: the newest.
                try database.execute(
                    """
                    INSERT OR REPLACE INTO measurements
                        (target, element_id, fingerprint, width, height, reported_at, container_fingerprint)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        m.target, m.elementID, Int64(bitPattern: m.fingerprint), m.width, m.height, m.reportedAt,
                        m.containerFingerprint.map { Int64(bitPattern: $0) },
                    ]
                )
            }
            var dropped: [MeasurementKey] = []
            for target in Set(measurements.map(\.target)).sorted() {
                dropped += try database.fetchAll(
                    """
                    DELETE FROM measurements WHERE id IN (
                        SELECT id FROM measurements WHERE target = ? ORDER BY id DESC LIMIT -1 OFFSET ?
                    ) RETURNING target, element_id
                    """,
                    [target, max(configuration.maxMeasurementsPerTarget, 0)],
                    Self.measurementKey
                )
            }
            dropped += try database.fetchAll(
                """
                DELETE FROM measurements WHERE id IN (
                    SELECT id FROM measurements ORDER BY id DESC LIMIT -1 OFFSET ?
                ) RETURNING target, element_id
                """,
                [max(configuration.maxMeasurements, 0)],
                Self.measurementKey
            )
            return dropped
        }
    }

    /// The stored measurements, of one target or all, oldest first.
    public func measurements(target: String? = nil) throws(StoreError) -> [StoredMeasurement] {
        let columns = "target, element_id, fingerprint, width, height, reported_at, container_fingerprint"
        if let target {
            return try database.fetchAll(
                "SELECT \(columns) FROM measurements WHERE target = ? ORDER BY id",
                [target],
                Self.measurement
            )
        }
        return try database.fetchAll("SELECT \(columns) FROM measurements ORDER BY id", [], Self.measurement)
    }

    /// Deletes the measurements of one target, or all of them.
    ///
    /// - Returns: how many were deleted.
    @discardableResult
    public func deleteMeasurements(target: String?) throws(StoreError) -> Int {
        try database.transaction { () throws(StoreError) -> Int in
            if let target {
                try database.execute("DELETE FROM measurements WHERE target = ?", [target])
            } else {
                try database.execute("DELETE FROM measurements")
            }
            return database.changes
        }
    }

    /// Deletes the given stale measurements (their element's content or container changed),
    /// each only while its row still holds what was found stale.
    ///
    /// - Returns: how many were deleted.
    @discardableResult
    public func deleteMeasurements(_ stale: [StaleMeasurementKey]) throws(StoreError) -> Int {
        guard !stale.isEmpty else { return 0 }
        return try database.transaction { () throws(StoreError) -> Int in
            var deleted = 0
            for measurement in stale {
                try database.execute(
                    """
                    DELETE FROM measurements WHERE target = ? AND element_id = ? AND fingerprint = ?
                        AND container_fingerprint IS ?
                    """,
                    [
                        measurement.key.target, measurement.key.elementID,
                        Int64(bitPattern: measurement.fingerprint),
                        measurement.containerFingerprint.map { Int64(bitPattern: $0) },
                    ]
                )
                deleted += database.changes
            }
            return deleted
        }
    }

    static func measurement(_ row: Statement) -> StoredMeasurement {
        StoredMeasurement(
            target: row.column(0, or: ""),
            elementID: row.column(1, or: ""),
            fingerprint: UInt64(bitPattern: row.column(2, or: Int64(0))),
            containerFingerprint: row.column(6, as: Int64.self).map { UInt64(bitPattern: $0) },
            width: row.column(3, as: Double.self),
            height: row.column(4, as: Double.self),
            reportedAt: row.column(5, or: Date(timeIntervalSince1970: 0))
        )
    }

    static func measurementKey(_ row: Statement) -> MeasurementKey {
        MeasurementKey(target: row.column(0, or: ""), elementID: row.column(1, or: ""))
    }
}

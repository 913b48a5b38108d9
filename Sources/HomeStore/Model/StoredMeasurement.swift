public import FoundationEssentials

/// A size a client measured for one element of its home screen, kept so later versions are
/// laid out with it (`io.homefeed.ReportSizes`).
public struct StoredMeasurement: Sendable, Hashable {
    /// Whose layout it belongs to: `profile:NAME` or `container:W×H@S` (the daemon's keys).
    public var target: String
    /// The manifest element id it measures.
    public var elementID: String
    /// The fingerprint of the element's content when it was measured; a different fingerprint
    /// now means the measurement is stale.
    public var fingerprint: UInt64
    /// The fingerprint of the container it was measured in (the daemon's); measured in another
    /// one, it is stale too. Nil for a measurement stored before it was recorded.
    public var containerFingerprint: UInt64?
    /// At least one of the two is set; both are > 0.
    public var width: Double?
    public var height: Double?
    /// Read back in whole seconds.
    public var reportedAt: Date

    /// Creates a measurement record.
    public init(
        target: String,
        elementID: String,
        fingerprint: UInt64,
        containerFingerprint: UInt64?,
        width: Double?,
        height: Double?,
        reportedAt: Date
    ) {
        self.target = target
        self.elementID = elementID
        self.fingerprint = fingerprint
        self.containerFingerprint = containerFingerprint
        self.width = width
        self.height = height
        self.reportedAt = reportedAt
    }

    /// The target and element a measurement is for.
    public var key: MeasurementKey { MeasurementKey(target: target, elementID: elementID) }
}

/// A measurement found stale: its key, and the content and container it was measured for. It
/// is deleted only while the stored row still says so, so a report of the same element stored
/// meanwhile (for the new content) stays. Sendable: a plain value.
public struct StaleMeasurementKey: Sendable, Hashable {
    public var key: MeasurementKey
    public var fingerprint: UInt64
    public var containerFingerprint: UInt64?

    public init(key: MeasurementKey, fingerprint: UInt64, containerFingerprint: UInt64?) {
        self.key = key
        self.fingerprint = fingerprint
        self.containerFingerprint = containerFingerprint
    }
}

/// Which measurement: a target and an element id. Sendable: a plain value.
public struct MeasurementKey: Sendable, Hashable {
    public var target: String
    public var elementID: String

    public init(target: String, elementID: String) {
        self.target = target
        self.elementID = elementID
    }
}

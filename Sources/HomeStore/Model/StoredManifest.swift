public import FoundationEssentials

/// The last manifest published for one profile, kept so a restarted daemon can serve at once.
public struct StoredManifest: Sendable, Hashable {
    /// The client profile the manifest was laid out for.
    public var profile: String
    /// The manifest version; it increases with every change.
    public var version: Int64
    /// The entity tag clients use to tell versions apart.
    public var etag: String
    /// The encoded manifest, exactly as sent to clients.
    public var bytes: [UInt8]
    /// Read back in whole seconds.
    public var generatedAt: Date

    /// Creates a manifest record.
    public init(profile: String, version: Int64, etag: String, bytes: [UInt8], generatedAt: Date) {
        self.profile = profile
        self.version = version
        self.etag = etag
        self.bytes = bytes
        self.generatedAt = generatedAt
    }
}

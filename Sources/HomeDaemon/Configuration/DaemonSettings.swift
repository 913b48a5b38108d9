/// The daemon's settings file (`homefeedd.conf` in the configuration directory), typed.
///
/// Every field has its default next to it; `docs/configuration.md` documents each key.
public struct DaemonSettings: Sendable, Equatable {
    /// Seconds between fetches of a source unless its feed asks otherwise (`refresh-interval`).
    public var refreshInterval: Double = 900
    /// The history header's name and subtitle (`user-name`, `user-subtitle`).
    public var user = UserProfile(name: "homefeed")
    /// Layout spec and sources list, relative to the configuration directory.
    public var layoutFile = "layout.json"
    public var sourcesFile = "sources.opml"
    /// Group whose members may call mutating methods (`client-group`), besides root and the
    /// daemon's own user.
    public var clientGroup: String? = "homefeed"
    /// Connection limits (`max-connections`, `max-message-bytes`, `idle-timeout`).
    public var maxConnections = 256
    public var maxMessageBytes = 1 << 20
    public var idleTimeout: Double = 60
    /// History entries kept (`history-limit`).
    public var historyLimit = 200
    /// How feeds are fetched (`[fetch]`).
    public var fetch = FetchSettings()
    /// How images are fetched, checked, sized and kept (`[images]`).
    public var images = ImageSettings()
    public var profiles: [Profile] = Profile.defaults
    public var bindings: [SectionBinding] = SectionBinding.defaults

    public init() {}

    /// Reads settings from a parsed file; unknown blocks and keys are errors, so typos surface.
    public init(_ file: ConfigFile) throws(ConfigError) {
        var profiles: [Profile] = []
        var bindings: [SectionBinding] = []
        for block in file.blocks {
            var reader = BlockReader(file: file.path, block: block)
            switch block.kind {
            case "daemon":
                guard block.name == nil else { throw reader.error(reason: "[daemon] takes no name") }
                if let v = try reader.duration("refresh-interval") { refreshInterval = v }
                if let v = reader.string("user-name") { user.name = v }
                if let v = reader.string("user-subtitle") { user.subtitle = v }
                if let v = reader.string("layout") { layoutFile = v }
                if let v = reader.string("sources") { sourcesFile = v }
                if let v = reader.string("client-group") { clientGroup = v.isEmpty ? nil : v }
                if let v = try reader.integer("max-connections", in: 1...65_536) { maxConnections = v }
                if let v = try reader.integer("max-message-bytes", in: 1024...(64 << 20)) { maxMessageBytes = v }
                if let v = try reader.duration("idle-timeout") { idleTimeout = v }
                if let v = try reader.integer("history-limit", in: 1...100_000) { historyLimit = v }
            case "fetch":
                guard block.name == nil else { throw reader.error(reason: "[fetch] takes no name") }
                fetch = try FetchSettings(&reader)
            case "images":
                guard block.name == nil else { throw reader.error(reason: "[images] takes no name") }
                images = try ImageSettings(&reader)
            case "profile":
                guard let name = block.name else { throw reader.error(reason: "expected [profile NAME]") }
                guard !profiles.contains(where: { $0.name == name }) else {
                    throw reader.error(reason: "profile \(name) declared twice")
                }
                profiles.append(try reader.profile(name))
            case "section":
                guard let name = block.name else { throw reader.error(reason: "expected [section ID]") }
                guard !bindings.contains(where: { $0.sectionID == name }) else {
                    throw reader.error(reason: "section \(name) declared twice")
                }
                bindings.append(try reader.binding(name))
            default:
                throw reader.error(
                    reason:
                        "unknown block [\(block.kind)]; expected [daemon], [fetch], [images], [profile NAME] or [section ID]"
                )
            }
            try reader.rejectUnread()
        }
        if !profiles.isEmpty { self.profiles = profiles }
        // Declared sections replace the defaults of the same id; others keep theirs.
        self.bindings =
            bindings + SectionBinding.defaults.filter { d in !bindings.contains { $0.sectionID == d.sectionID } }
    }
}

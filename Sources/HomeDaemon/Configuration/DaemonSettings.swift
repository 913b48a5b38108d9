import FoundationEssentials
import HomeFetch

/// The daemon's settings file (`homefeedd.conf` in the configuration directory), typed.
///
/// Every field has its default next to it; `docs/configuration.md` documents each key.
public struct DaemonSettings: Sendable, Equatable {
    /// Seconds between fetches of a source unless its feed asks otherwise (`refresh-interval`),
    /// within the scheduler's bounds (`FetchSchedulerConfiguration`'s minimum and maximum
    /// interval, 5 minutes to 1 day): a value outside is an error, not clamped in silence.
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
    /// Connections one peer uid may hold (`max-connections-per-uid`); default a quarter of
    /// `max-connections`, at least 2.
    public var maxConnectionsPerUID = 64
    /// Of `max-connections`, the slots only peers with the mutating right may take
    /// (`reserved-connections`); default a sixteenth.
    public var reservedConnections = 16
    /// `GetManifest` subscriptions open at once (`max-subscriptions`); default half of
    /// `max-connections`. Must leave unreserved slots for calls.
    public var maxSubscriptions = 128
    /// Subscriptions of one peer uid (`max-subscriptions-per-uid`); default half of
    /// `max-connections-per-uid`, at least 1. Must leave the uid a connection for calls.
    public var maxSubscriptionsPerUID = 32
    /// How long a store operation waits for another process's lock before it fails with
    /// `StoreUnavailable` (`store-busy-timeout`, 1 s to 60 s).
    public var storeBusyTimeout: Double = 5
    /// History entries kept (`history-limit`).
    public var historyLimit = 200
    /// How feeds are fetched (`[fetch]`).
    public var fetch = FetchSettings()
    /// How images are fetched, checked, sized and kept (`[images]`).
    public var images = ImageSettings()
    public var profiles: [Profile] = Profile.defaults
    public var bindings: [SectionBinding] = SectionBinding.defaults
    /// Text styles the daemon measures section slots in (`[text NAME]`), and which slots of
    /// which section (`text` in `[section ID]`); none by default.
    public var textStyles: [TextSlotStyle] = []
    public var textSlots: [String: SectionTextSlots] = [:]
    /// The line of each declared section's `items`, for errors found once the sources are read.
    var itemsLines: [String: Int] = [:]

    public init() {}

    /// Reads settings from a parsed file; unknown blocks and keys are errors, so typos surface.
    public init(_ file: ConfigFile) throws(ConfigError) {
        var profiles: [Profile] = []
        var bindings: [SectionBinding] = []
        // [daemon], [fetch] and [images] come once: a second one would reset what the first set.
        var singles: Set<String> = []
        for block in file.blocks {
            var reader = BlockReader(file: file.path, block: block)
            if ["daemon", "fetch", "images"].contains(block.kind), !singles.insert(block.kind).inserted {
                throw reader.error(reason: "[\(block.kind)] declared twice")
            }
            switch block.kind {
            case "daemon":
                guard block.name == nil else { throw reader.error(reason: "[daemon] takes no name") }
                if let entry = reader.entry("refresh-interval") {
                    let bounds = FetchSchedulerConfiguration()
                    guard let v = try? reader.duration("refresh-interval"),
                        v >= bounds.minimumInterval, v <= bounds.maximumInterval
                    else {
                        throw reader.error(
                            entry,
                            reason: "expected a duration from \(BlockReader.durationText(bounds.minimumInterval)) to "
                                + "\(BlockReader.durationText(bounds.maximumInterval)), got \"\(entry.value)\""
                        )
                    }
                    refreshInterval = v
                }
                if let v = reader.string("user-name") { user.name = v }
                if let v = reader.string("user-subtitle") { user.subtitle = v }
                if let v = reader.string("layout") { layoutFile = v }
                if let v = reader.string("sources") { sourcesFile = v }
                if let v = reader.string("client-group") { clientGroup = v.isEmpty ? nil : v }
                try readConnectionLimits(&reader)
                if let v = try reader.integer("max-message-bytes", in: 1024...(64 << 20)) { maxMessageBytes = v }
                if let v = try reader.duration("idle-timeout") { idleTimeout = v }
                if let v = try reader.integer("history-limit", in: 1...100_000) { historyLimit = v }
                if let entry = reader.entry("store-busy-timeout") {
                    // Its own range in the message, not the 1 s to 30 days of other durations.
                    guard let v = try? reader.duration("store-busy-timeout"), v <= 60 else {
                        throw reader.error(entry, reason: "expected a duration from 1s to 60s, got \"\(entry.value)\"")
                    }
                    storeBusyTimeout = v
                }
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
                if let entry = block.value("items") { itemsLines[name] = entry.line }
                if let slots = try reader.textSlots() { textSlots[name] = slots }
            case "text":
                guard let name = block.name else { throw reader.error(reason: "expected [text NAME]") }
                guard !textStyles.contains(where: { $0.name == name }) else {
                    throw reader.error(reason: "text style \(name) declared twice")
                }
                textStyles.append(try reader.textStyle(name))
            default:
                throw reader.error(
                    reason:
                        "unknown block [\(block.kind)]; expected [daemon], [fetch], [images], [profile NAME], [section ID] or [text NAME]"
                )
            }
            try reader.rejectUnread()
        }
        try checkTextSlots(file: file.path)
        try checkHistoryRuns(bindings, file: file.path)
        if !profiles.isEmpty { self.profiles = profiles }
        // Declared sections replace the defaults of the same id; others keep theirs.
        self.bindings =
            bindings + SectionBinding.defaults.filter { d in !bindings.contains { $0.sectionID == d.sectionID } }
    }
}

extension DaemonSettings {
    /// The five connection limits of `[daemon]`. Those not given follow `max-connections`
    /// (defaults above), and together they must keep room for calls: reserved slots fewer than
    /// all slots, subscriptions fewer than the unreserved slots, a uid's subscriptions fewer
    /// than its connections.
    fileprivate mutating func readConnectionLimits(_ reader: inout BlockReader) throws(ConfigError) {
        if let v = try reader.integer("max-connections", in: 4...65_536) { maxConnections = v }
        let perUID = reader.entry("max-connections-per-uid")
        maxConnectionsPerUID =
            try reader.integer("max-connections-per-uid", in: 2...65_536) ?? max(2, maxConnections / 4)
        let reserved = reader.entry("reserved-connections")
        reservedConnections = try reader.integer("reserved-connections", in: 0...65_536) ?? maxConnections / 16
        let subscriptions = reader.entry("max-subscriptions")
        maxSubscriptions = try reader.integer("max-subscriptions", in: 1...65_536) ?? maxConnections / 2
        let subscriptionsPerUID = reader.entry("max-subscriptions-per-uid")
        maxSubscriptionsPerUID =
            try reader.integer("max-subscriptions-per-uid", in: 1...65_536) ?? max(1, maxConnectionsPerUID / 2)
        let total = reader.entry("max-connections")
        if reservedConnections >= maxConnections {
            throw reader.error(
                reserved ?? total,
                reason: "\(reservedConnections) reserved of \(maxConnections) connections leaves none for other peers"
            )
        }
        if maxSubscriptions >= maxConnections - reservedConnections {
            throw reader.error(
                subscriptions ?? reserved ?? total,
                reason: "max-subscriptions (\(maxSubscriptions)) must be below max-connections − reserved-connections "
                    + "(\(maxConnections - reservedConnections)), so that calls keep a slot"
            )
        }
        if maxSubscriptionsPerUID >= maxConnectionsPerUID {
            throw reader.error(
                subscriptionsPerUID ?? perUID,
                reason: "max-subscriptions-per-uid (\(maxSubscriptionsPerUID)) must be below max-connections-per-uid "
                    + "(\(maxConnectionsPerUID)), so that a peer's subscriptions leave it a connection for calls"
            )
        }
    }
}

extension DaemonSettings {
    /// Refuses a history run that asks for more events than `history-limit` keeps: its `!`
    /// would pad with placeholders what the store deleted, and without one it would never fill.
    fileprivate func checkHistoryRuns(_ declared: [SectionBinding], file: String) throws(ConfigError) {
        for binding in declared {
            for source in binding.sources {
                guard source.content == .history, let limit = source.limit, limit > historyLimit else { continue }
                throw ConfigError(
                    file: file,
                    line: itemsLines[binding.sectionID],
                    key: "items",
                    reason: "history:\(limit): more than the \(historyLimit) events history-limit keeps"
                )
            }
        }
    }

    /// Checks every `notices@URL` run against the feeds of the sources list, and gives it the
    /// feed's URL as the list resolved it: a URL no `rss` outline has would leave its run empty
    /// for good, unseen. The URL may be written as in the list (`samples/notices-en.xml`,
    /// relative to it) or as resolved (as `GetStatus` lists it). A port read as the run's limit
    /// (`notices@http://intra.example:8080` is the URL `http://intra.example` with a limit of
    /// 8080 to the parser) is read back as the URL when that is a feed and the other is not.
    ///
    /// - Parameters:
    ///   - feeds: the URLs of the list's `rss` outlines, resolved against the list.
    ///   - list: the list's own URL, which relative URLs resolve against.
    mutating func resolveNoticeRuns(feeds: Set<String>, list: String, file: String) throws(ConfigError) {
        func feed(_ written: String) -> String? {
            if feeds.contains(written) { return written }
            let resolved = URL(string: written, relativeTo: URL(string: list))?.absoluteString
            return resolved.flatMap { feeds.contains($0) ? $0 : nil }
        }
        for (index, binding) in bindings.enumerated() {
            for (run, source) in binding.sources.enumerated() {
                guard case .notices(let url?) = source.content else { continue }
                if let found = feed(url) {
                    bindings[index].sources[run].content = .notices(sourceURL: found)
                } else if let limit = source.limit, !source.isExact, let found = feed("\(url):\(limit)") {
                    bindings[index].sources[run] = .init(.notices(sourceURL: found))
                } else {
                    throw ConfigError(
                        file: file,
                        line: itemsLines[binding.sectionID],
                        key: "items",
                        reason: "notices@\(url): no rss outline of the sources list has this URL"
                    )
                }
            }
        }
    }
}

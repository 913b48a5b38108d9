public import HomeFetch

/// The `[fetch]` block of `homefeedd.conf`: how hard homefeedd may pull on feed servers and how
/// much a server may make it wait or hold. Every default is written next to its field and in
/// `docs/configuration.md`.
public struct FetchSettings: Sendable, Equatable {
    /// Fetches at once over all hosts (`concurrency`); per host it is always one.
    public var concurrency = 4
    /// Seconds for a whole fetch, redirects and parsing included (`timeout`).
    public var totalTimeout: Double = 30
    /// Seconds to resolve and connect, TLS included, per hop (`connect-timeout`).
    public var connectTimeout: Double = 10
    /// A transfer below `lowSpeedLimit` bytes/s for `lowSpeedTime` seconds is dropped as
    /// stalled (`low-speed-limit`, `low-speed-time`).
    public var lowSpeedLimit = 256
    public var lowSpeedTime: Double = 15
    /// The body cap after decompression (`max-body-size`).
    public var maxBodyBytes = 15 << 20
    /// Redirects followed per fetch (`max-redirects`).
    public var maxRedirects = 5
    /// Connections open at once to one host, and over all hosts (`max-connections-per-host`,
    /// `max-total-connections`).
    public var maxConnectionsPerHost = 2
    public var maxTotalConnections = 16

    public init() {}

    init(_ reader: inout BlockReader) throws(ConfigError) {
        if let v = try reader.integer("concurrency", in: 1...256) { concurrency = v }
        if let v = try reader.duration("timeout") { totalTimeout = v }
        if let v = try reader.duration("connect-timeout") { connectTimeout = v }
        if let v = try reader.integer("low-speed-limit", in: 1...(1 << 30)) { lowSpeedLimit = v }
        if let v = try reader.duration("low-speed-time") { lowSpeedTime = v }
        if let v = try reader.size("max-body-size", in: (64 << 10)...(1 << 30)) { maxBodyBytes = v }
        if let v = try reader.integer("max-redirects", in: 0...20) { maxRedirects = v }
        if let v = try reader.integer("max-connections-per-host", in: 1...64) { maxConnectionsPerHost = v }
        if let v = try reader.integer("max-total-connections", in: 1...1024) { maxTotalConnections = v }
    }

    /// The limits of every fetch.
    public var limits: FetchLimits {
        FetchLimits(
            maxBodyBytes: maxBodyBytes,
            maxRedirects: maxRedirects,
            connectTimeout: connectTimeout,
            totalTimeout: totalTimeout,
            lowSpeedLimit: lowSpeedLimit,
            lowSpeedTime: lowSpeedTime
        )
    }

    /// The fetcher's connection settings.
    public var fetcherConfiguration: FeedFetcher.Configuration {
        FeedFetcher.Configuration(
            maxConnectionsPerHost: maxConnectionsPerHost,
            maxTotalConnections: maxTotalConnections
        )
    }
}

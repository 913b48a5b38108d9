import CCurl

/// libcurl's process-wide state.
enum CurlRuntime {
    /// `curl_global_init`, once per process, before the first handle (Swift runs a static
    /// `let`'s initializer exactly once, thread-safely).
    static let isInitialized: Bool = ccurl_global_init() == CURLE_OK

    /// The libcurl version and the features homefeed relies on, for logs and `--version`.
    static var summary: String {
        guard let info = ccurl_version_info()?.pointee else { return "libcurl (unknown)" }
        let version = info.version.map { String(cString: $0) } ?? "?"
        var features: [String] = []
        if info.features & CURL_VERSION_HTTP2 != 0 { features.append("HTTP/2") }
        if info.features & CURL_VERSION_LIBZ != 0 { features.append("gzip") }
        if info.features & CURL_VERSION_BROTLI != 0 { features.append("br") }
        if info.features & CURL_VERSION_ZSTD != 0 { features.append("zstd") }
        if let ssl = info.ssl_version { features.append(String(cString: ssl)) }
        return "libcurl \(version) (\(features.joined(separator: ", ")))"
    }
}

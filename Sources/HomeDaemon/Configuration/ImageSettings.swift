import FoundationEssentials
public import ThumbnailProtocol

/// The `[images]` block of `homefeedd.conf`: how service icons and notice thumbnails are
/// fetched, checked, sized and kept (`docs/images.md`). Every default is written next to its
/// field and in `docs/configuration.md`.
public struct ImageSettings: Sendable, Equatable {
    /// `enabled = no` leaves every item without an image.
    public var isEnabled = true
    /// The decoding helper (`helper`); nil: `homefeed-thumbnail` beside `homefeedd`.
    public var helperPath: String?
    /// Rendition files (`format`): `auto` (PNG with transparency, WebP otherwise), `png`, `webp`.
    public var format = RenditionFormat.auto
    /// Bytes of one image after decompression (`max-image-size`).
    public var maxImageBytes = 4 << 20
    /// Width × height a header may claim; more is refused before decoding (`max-megapixels`).
    public var maxPixels = 40_000_000
    /// Originals and renditions kept, in bytes; least recently used go first (`max-cache-size`).
    public var maxCacheBytes = 256 << 20
    /// Images fetched for one source's items, and in all, per pass of the pipeline
    /// (`max-images-per-source`, `max-images`).
    public var maxImagesPerSource = 32
    public var maxImages = 256
    /// Image fetches at once (`concurrency`); one host is always fetched one image at a time.
    public var concurrency = 2
    /// A fetched image is revalidated (conditional GET) after this many seconds
    /// (`revalidate-interval`).
    public var revalidateInterval: Double = 7 * 86_400
    /// The helper's address space (`helper-memory`), CPU seconds per image (`helper-cpu`), and
    /// wall seconds per image before it is killed (`helper-timeout`).
    public var helperMemoryBytes = 1 << 30
    public var helperCPUSeconds = 20
    public var helperTimeout: Double = 30
    /// Images per helper process; a fresh one starts for the next batch (`batch-size`).
    public var batchSize = 16

    public init() {}

    init(_ reader: inout BlockReader) throws(ConfigError) {
        if let entry = reader.entry("enabled") {
            switch entry.value {
            case "yes", "true": isEnabled = true
            case "no", "false": isEnabled = false
            default: throw reader.error(entry, reason: "expected yes or no, got \"\(entry.value)\"")
            }
        }
        if let entry = reader.entry("helper") {
            guard entry.value.hasPrefix("/") else { throw reader.error(entry, reason: "expected an absolute path") }
            helperPath = entry.value
        }
        if let entry = reader.entry("format") {
            guard let value = RenditionFormat(rawValue: entry.value) else {
                throw reader.error(entry, reason: "expected auto, png or webp, got \"\(entry.value)\"")
            }
            format = value
        }
        if let v = try reader.size("max-image-size", in: (16 << 10)...(64 << 20)) { maxImageBytes = v }
        if let v = try reader.integer("max-megapixels", in: 1...500) { maxPixels = v * 1_000_000 }
        if let v = try reader.size("max-cache-size", in: (1 << 20)...(64 << 30)) { maxCacheBytes = v }
        if let v = try reader.integer("max-images-per-source", in: 0...10_000) { maxImagesPerSource = v }
        if let v = try reader.integer("max-images", in: 0...100_000) { maxImages = v }
        if let v = try reader.integer("concurrency", in: 1...32) { concurrency = v }
        if let v = try reader.duration("revalidate-interval") { revalidateInterval = v }
        if let v = try reader.size("helper-memory", in: (128 << 20)...(16 << 30)) { helperMemoryBytes = v }
        if let v = try reader.integer("helper-cpu", in: 1...3600) { helperCPUSeconds = v }
        if let v = try reader.duration("helper-timeout") { helperTimeout = v }
        if let v = try reader.integer("batch-size", in: 1...1000) { batchSize = v }
    }

    /// The helper to run: `helperPath`, else `homefeed-thumbnail` in the directory of the
    /// running executable.
    public var resolvedHelperPath: String {
        if let helperPath { return helperPath }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("homefeed-thumbnail")
            .path
    }
}

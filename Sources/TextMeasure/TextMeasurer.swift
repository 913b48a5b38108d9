import Dispatch
import Synchronization

/// TextMeasure: how tall a string is in a style at a width, measured with Pango over FreeType
/// and fontconfig (pangoft2): no cairo, no display. GTK draws with the same engine, so a GTK
/// client gets exactly these heights; others get the same line breaking (UAX #14, Korean word
/// and character wrapping, font fallback).
///
/// All C interop with Pango, GLib and fontconfig stays in this module. Measurements are cached
/// by (text, style, width) within ``Configuration/cacheEntries`` and
/// ``Configuration/cacheBytes``. Fontconfig and Pango are loaded on first use (or
/// ``warmUp(_:)``); when fontconfig has no configuration or no font, every measurement fails
/// with ``TextMeasureError/unavailable(_:)`` and callers keep their estimates.
///
/// Thread-safety: Sendable. Pango and the cache are used only under `state`'s lock, so calls
/// from several threads take turns. The async API runs on the measurer's own serial queue,
/// never on the caller's (the cooperative pool or a socket loop), except a batch the cache
/// holds whole: that is looked up on the caller's thread under a try-lock, which never waits
/// for Pango.
public final class TextMeasurer: Sendable {
    /// Bounds that keep any input bounded in time and memory.
    public enum Limits {
        /// Bytes of UTF-8 measured of one string; longer text is measured up to here (cut at a
        /// scalar boundary) and reported truncated. About 70 lines of Korean at 335 points.
        public static let maxTextBytes = 4_096
        /// Widths are clamped to 1 …  this many points.
        public static let maxWidth = 1_000_000.0
        public static let maxFontSize = 1_000.0
        public static let maxLineSpacing = 10.0
        public static let maxLines = 1_000
        /// Combining marks (non-starters) measured in a row: more are left out, as they take no
        /// room and Pango's shaping of one cluster grows with the square of its marks. The
        /// Stream-Safe Text Format's limit (UAX #15).
        public static let maxCombiningMarks = 30
        /// Lines laid out of one string at most: longer text is measured at this many lines and
        /// reported truncated, as at a style's `maxLines`. Each line costs Pango 5 to 15 µs of
        /// CPU here; 4 096 bytes at a width of a few points make 4 000 lines.
        public static let maxLaidOutLines = 2_000
        /// Characters (Unicode scalars) of long words Pango may shape again: a string whose
        /// longest word (a stretch without a line break opportunity, UAX #14) has n characters
        /// is laid out in at most this / n lines (24 for a word of 4 096), longer text measured
        /// at that many lines and reported truncated. Pango 1.50 shapes the rest of such a word
        /// again for every line it breaks in it: 4 096 bytes of "i" took 1.5 to 2.9 s of CPU at
        /// 5 points. Text of at most 316 characters (every title) is never cut by this.
        public static let maxLongWordScan = 100_000
    }

    public struct Configuration: Sendable, Equatable {
        /// Where fontconfig may write font caches it has to rebuild (`$CACHE_DIRECTORY/fontconfig`
        /// under systemd); nil: only the directories of fontconfig's own configuration.
        public var cacheDirectory: String?
        /// A fontconfig configuration file instead of the default (`FONTCONFIG_FILE`, else
        /// `fonts.conf`).
        public var fontconfigFile: String?
        /// Measurements, and bytes of their text, that a set measured again and again (each
        /// version's titles) keeps cached whole; at most twice as many are held.
        public var cacheEntries = 2_048
        public var cacheBytes = 2 << 20

        public init(cacheDirectory: String? = nil, fontconfigFile: String? = nil) {
            self.cacheDirectory = cacheDirectory
            self.fontconfigFile = fontconfigFile
        }
    }

    /// One string to measure.
    public struct Request: Sendable, Hashable {
        public var text: String
        public var style: TextStyle
        /// Points the text may take on a line.
        public var width: Double

        public init(text: String, style: TextStyle, width: Double) {
            self.text = text
            self.style = style
            self.width = width
        }
    }

    /// What fontconfig makes of a font description (``resolveFont(_:)``).
    public struct FontResolution: Sendable, Equatable {
        /// The families the description names, in order.
        public var families: [String]
        /// The family fontconfig loads for it.
        public var loadedFamily: String
        /// Every name of the loaded family (fontconfig's FC_FAMILY values: a Korean font is
        /// `NanumGothic` and `나눔고딕`), ``loadedFamily`` among them.
        public var loadedFamilyNames: [String]

        /// The first family named is neither installed nor a generic alias (`sans`, `serif` …):
        /// fontconfig substitutes ``loadedFamily``. A family named by any of its names (a
        /// localized one too) is installed.
        public var missingFamily: String? {
            guard let first = families.first, !FontDescription.isGeneric(first),
                !loadedFamilyNames.contains(where: { FontDescription.sameFamily(first, $0) })
            else { return nil }
            return first
        }
    }

    private struct State: ~Copyable {
        var engine: PangoEngine?
        /// Set once loading failed: later calls fail at once with it.
        var failure: TextMeasureError?
        var cache: MeasureCache
    }

    public let configuration: Configuration
    private let state: Mutex<State>
    /// Internal for tests, which hold it to show what does not wait for it.
    let queue = DispatchQueue(label: "homefeed.text-measure")

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        state = Mutex(
            State(cache: MeasureCache(entries: configuration.cacheEntries, bytes: configuration.cacheBytes))
        )
    }

    /// Measures `text` in `style` at `width` points, on the caller's thread (a CLI, a benchmark).
    ///
    /// - Throws: ``TextMeasureError``: the style is invalid, no font loads, or measuring is
    ///   unavailable.
    public func measure(_ text: String, style: TextStyle, width: Double) throws(TextMeasureError) -> TextMetrics {
        let key = Self.cacheKey(text, style: style, width: width)
        let result: Result<TextMetrics, TextMeasureError> = state.withLock { state in
            if let cached = state.cache.value(for: key) { return .success(cached) }
            do throws(TextMeasureError) {
                // Only valid styles are cached, so a hit needs no check.
                try style.validate()
                let engine = try Self.engine(&state, configuration)
                let (bytes, wasCapped) = TextInput.prepare(text, limit: Limits.maxTextBytes)
                var metrics = try engine.measure(bytes, style: style, width: Self.clamp(width))
                metrics.isTruncated = metrics.isTruncated || wasCapped
                state.cache.insert(metrics, for: key)
                return .success(metrics)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Measures every request on the measurer's queue, in order; the caller's thread is free
    /// meanwhile.
    ///
    /// When every request is in the cache already (a version whose text was all measured
    /// before), the answers come from it at once, without the round trip through the queue:
    /// two thread wake-ups, 60–80 µs of every version here (issue 17). A cache the queue holds
    /// while it measures is not waited for.
    public func measure(_ requests: [Request]) async -> [Result<TextMetrics, TextMeasureError>] {
        if let cached = cachedMetrics(requests) { return cached.map { .success($0) } }
        return await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(
                    returning: requests.map { request in
                        Result { () throws(TextMeasureError) in
                            try self.measure(request.text, style: request.style, width: request.width)
                        }
                    }
                )
            }
        }
    }

    /// Every request's metrics from the cache; nil when one is not there, or when the cache is
    /// held (Pango is measuring under the lock, and the caller must not wait for it).
    private func cachedMetrics(_ requests: [Request]) -> [TextMetrics]? {
        let keys = requests.map { Self.cacheKey($0.text, style: $0.style, width: $0.width) }
        return state.withLockIfAvailable { state in state.cache.values(for: keys) } ?? nil
    }

    /// Loads fontconfig, Pango and the fonts of `styles` on the measurer's queue, and returns at
    /// once: a daemon calls it at start, so its first version does not wait for the fonts.
    public func warmUp(_ styles: [TextStyle]) {
        queue.async {
            for style in styles { _ = try? self.measure("Ag 가", style: style, width: 100) }
        }
    }

    /// What fontconfig loads for a font description: say so when it substitutes another family.
    ///
    /// - Throws: ``TextMeasureError/unavailable(_:)`` or ``TextMeasureError/fontNotLoaded(_:)``.
    public func resolveFont(_ font: String) async throws(TextMeasureError) -> FontResolution {
        let result: Result<FontResolution, TextMeasureError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(TextMeasureError) in try self.resolveFontNow(font) })
            }
        }
        return try result.get()
    }

    /// ``resolveFont(_:)`` on the caller's thread.
    public func resolveFontNow(_ font: String) throws(TextMeasureError) -> FontResolution {
        let families = FontDescription.parse(font).families
        let result: Result<(family: String, names: [String]), TextMeasureError> = state.withLock { state in
            Result { () throws(TextMeasureError) in try Self.engine(&state, configuration).loadedFamily(font) }
        }
        let loaded = try result.get()
        return FontResolution(families: families, loadedFamily: loaded.family, loadedFamilyNames: loaded.names)
    }

    /// Cache hits and misses so far, and the measurements kept.
    public var cacheStatistics: (hits: Int, misses: Int, count: Int) {
        state.withLock { ($0.cache.hits, $0.cache.misses, $0.cache.count) }
    }

    /// Forgets every cached measurement (benchmarks measure cold layouts with it).
    public func removeCachedMeasurements() {
        state.withLock { $0.cache.removeAll() }
    }

    private static func engine(_ state: inout State, _ configuration: Configuration) throws(TextMeasureError)
        -> PangoEngine
    {
        if let engine = state.engine { return engine }
        if let failure = state.failure { throw failure }
        do throws(TextMeasureError) {
            let engine = try PangoEngine(
                cacheDirectory: configuration.cacheDirectory,
                configFile: configuration.fontconfigFile
            )
            state.engine = engine
            return engine
        } catch {
            state.failure = error
            throw error
        }
    }

    /// What a measurement of `text` in `style` at `width` is cached under: one key for the
    /// measuring path and for the batch answered from the cache.
    private static func cacheKey(_ text: String, style: TextStyle, width: Double) -> MeasureCache.Key {
        MeasureCache.Key(text: text, style: style, width: clamp(width).bitPattern)
    }

    private static func clamp(_ width: Double) -> Double {
        width.isFinite ? min(max(width, 1), Limits.maxWidth) : 1
    }
}

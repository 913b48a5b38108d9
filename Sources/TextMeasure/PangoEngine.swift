internal import CPango
import Synchronization

/// The Pango and fontconfig objects of one ``TextMeasurer``: a fontconfig configuration of its
/// own, a PangoFT2 font map over it at 72 dpi, one context, and the parsed font descriptions.
///
/// Not thread-safe (Pango objects must not be used from two threads at once): the measurer
/// only touches it under its lock.
final class PangoEngine {
    private let config: OpaquePointer
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer
    /// Parsed descriptions by font string, for fonts that loaded; at most
    /// ``maxDescriptions`` (a configuration has a handful of styles).
    private var descriptions: [String: OpaquePointer] = [:]
    private static let maxDescriptions = 64
    /// Whether a measurer made its configuration fontconfig's current one (once per process).
    private static let madeCurrent = Atomic(false)

    /// Loads fontconfig's configuration (the file `FONTCONFIG_FILE` names, else `fonts.conf`,
    /// or `configFile`) and its fonts.
    ///
    /// - Parameter cacheDirectory: where fontconfig writes the font caches it has to rebuild:
    ///   declared before the configuration's own cache directories, so it is the first writable
    ///   one (under systemd, `$CACHE_DIRECTORY/fontconfig`; the system's caches are still read).
    /// - Throws: ``TextMeasureError/unavailable(_:)`` when there is no configuration or no font.
    init(cacheDirectory: String?, configFile: String?) throws(TextMeasureError) {
        guard let config = FcConfigCreate() else {
            throw .unavailable("fontconfig cannot create a configuration")
        }
        if let cacheDirectory, let snippet = Self.cacheDirectorySnippet(cacheDirectory) {
            _ = FcConfigParseAndLoadFromMemory(config, snippet, 0)
        }
        guard FcConfigParseAndLoad(config, configFile, 1) != 0 else {
            FcConfigDestroy(config)
            throw .unavailable(
                "fontconfig cannot load its configuration \(configFile ?? "(FONTCONFIG_FILE or fonts.conf)")"
            )
        }
        guard FcConfigBuildFonts(config) != 0, cpango_font_count(config) > 0 else {
            FcConfigDestroy(config)
            throw .unavailable("fontconfig found no fonts")
        }
        // Pango's first font map initializes fontconfig's default configuration (FcInit, a
        // second parse of fonts.conf and its fonts: 3 to 10 ms at start) although this one is
        // used. The default file loaded here, plus a cache directory, is that configuration:
        // made the current one before Pango starts, FcInit finds it and returns at once.
        if configFile == nil,
            Self.madeCurrent.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        {
            _ = FcConfigSetCurrent(config)
        }
        guard let fontMap = cpango_ft2_font_map_new(config, 72) else {
            FcConfigDestroy(config)
            throw .unavailable("Pango cannot create a font map")
        }
        guard let context = pango_font_map_create_context(fontMap) else {
            g_object_unref(fontMap)
            FcConfigDestroy(config)
            throw .unavailable("Pango cannot create a context")
        }
        self.config = config
        self.fontMap = fontMap
        self.context = context
    }

    deinit {
        for description in descriptions.values { pango_font_description_free(description) }
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(fontMap)
        FcConfigDestroy(config)
    }

    /// Lays `text` out at `width` points in `style`, in at most the lines ``LineLimit`` allows,
    /// and reads the height of its logical extents.
    ///
    /// - Parameter text: UTF-8 without NUL bytes (``TextInput``).
    func measure(_ text: [UInt8], style: TextStyle, width: Double) throws(TextMeasureError) -> TextMetrics {
        let description = try self.description(style.font)
        guard let layout = pango_layout_new(context) else { throw .unavailable("Pango cannot create a layout") }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_font_description(layout, description)
        pango_layout_set_width(layout, pango_units_from_double(width))
        pango_layout_set_wrap(layout, style.wrap == .word ? PANGO_WRAP_WORD : PANGO_WRAP_WORD_CHAR)
        if let spacing = style.lineSpacing { pango_layout_set_line_spacing(layout, Float(spacing)) }
        let language = style.language.flatMap { pango_language_from_string($0) }
        if let lineLimit = LineLimit.lines(
            for: text,
            maxLines: style.maxLines,
            language: language ?? pango_context_get_language(context)
        ) {
            // A negative height is a number of lines; the last one is ellipsised.
            pango_layout_set_height(layout, -Int32(lineLimit))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        if let language, let attributes = pango_attr_list_new() {
            pango_attr_list_insert(attributes, pango_attr_language_new(language))
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
        }
        text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                pango_layout_set_text(layout, chars.baseAddress, Int32(chars.count))
            }
        }
        return TextMetrics(
            height: Self.logicalHeight(layout, lineSpacing: style.lineSpacing.map(Float.init) ?? 0),
            lines: Int(pango_layout_get_line_count(layout)),
            isTruncated: pango_layout_is_ellipsized(layout) != 0
        )
    }

    /// The height of `layout`'s logical extents in points: `pango_layout_get_extents`' sum of its
    /// lines, computed the same way line by line, but in `Double`.
    ///
    /// Pango adds up the lines' positions in 32-bit Pango units (1/1024 point), which wrap past
    /// 2 097 152 points: a thousand lines of a 200-point font at a line height of 10 came out
    /// negative. Each line's own extents are far within range; only the sum is not. The steps are
    /// Pango's (`get_line_extents_layout_coords`): without a line spacing factor each line starts
    /// where the one before ends; with one, each baseline is the one before plus the factor times
    /// the line's height, added in `Float` and truncated to whole units as C does, so every
    /// height Pango gets right comes out to the same unit.
    private static func logicalHeight(_ layout: OpaquePointer, lineSpacing: Float) -> Double {
        var baseline = 0.0
        var bottom = 0.0
        var isFirst = true
        var node = pango_layout_get_lines_readonly(layout)
        while let current = node {
            node = current.pointee.next
            guard let line = current.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self) else { continue }
            var logical = PangoRectangle()
            pango_layout_line_get_extents(line, nil, &logical)
            if isFirst || lineSpacing == 0 {
                baseline = bottom - Double(logical.y)
            } else {
                var height: Int32 = 0
                pango_layout_line_get_height(line, &height)
                baseline = Double((Float(baseline) + lineSpacing * Float(height)).rounded(.towardZero))
            }
            bottom = baseline + Double(logical.y) + Double(logical.height)
            isFirst = false
        }
        return bottom / Double(PANGO_SCALE)
    }

    /// The family fontconfig gives a font description, and every name of that family (the
    /// font's FC_FAMILY values, e.g. `NanumGothic` and `나눔고딕`), the first one included.
    func loadedFamily(_ font: String) throws(TextMeasureError) -> (family: String, names: [String]) {
        let description = try self.description(font)
        guard let loaded = pango_font_map_load_font(fontMap, context, description) else {
            throw .fontNotLoaded(font)
        }
        defer { g_object_unref(loaded) }
        guard let described = pango_font_describe(loaded) else { throw .fontNotLoaded(font) }
        defer { pango_font_description_free(described) }
        let family = pango_font_description_get_family(described).map { String(cString: $0) } ?? ""
        var names = [family]
        if let pattern = cpango_font_pattern(loaded) {
            var index: Int32 = 0
            var name: UnsafeMutablePointer<FcChar8>?
            while FcPatternGetString(pattern, FC_FAMILY, index, &name) == FcResultMatch, let name {
                names.append(String(cString: name))
                index += 1
            }
        }
        return (family, names)
    }

    /// The parsed description of a font string, checked to load once.
    private func description(_ font: String) throws(TextMeasureError) -> OpaquePointer {
        if let description = descriptions[font] { return description }
        guard let description = pango_font_description_from_string(font) else { throw .fontNotLoaded(font) }
        guard let loaded = pango_font_map_load_font(fontMap, context, description) else {
            pango_font_description_free(description)
            throw .fontNotLoaded(font)
        }
        g_object_unref(loaded)
        if descriptions.count >= Self.maxDescriptions {
            for old in descriptions.values { pango_font_description_free(old) }
            descriptions.removeAll()
        }
        descriptions[font] = description
        return description
    }

    /// `<fontconfig><cachedir>DIR</cachedir></fontconfig>`, the path escaped for XML; nil for a
    /// relative path (fontconfig would resolve it against its own directory).
    static func cacheDirectorySnippet(_ directory: String) -> String? {
        guard directory.hasPrefix("/") else { return nil }
        var escaped = ""
        for character in directory {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return "<fontconfig><cachedir>\(escaped)</cachedir></fontconfig>"
    }
}

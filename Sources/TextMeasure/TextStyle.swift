/// How a run of text is set: the font, the spacing of its lines, where it may break and how
/// many lines it may take. What ``TextMeasurer`` measures a string with.
///
/// Sendable: a value. Hashable: it is part of the measurement cache's key.
public struct TextStyle: Sendable, Hashable {
    /// Where lines may break (Pango's `PangoWrapMode`; UAX #14 line breaking either way).
    public enum Wrap: String, Sendable, Hashable, CaseIterable {
        /// At word boundaries only: a word longer than the line overflows it.
        case word
        /// At word boundaries, else between characters: nothing overflows (a long URL breaks).
        case wordChar = "word-char"
    }

    /// A Pango font description: families, style words, size in points, e.g.
    /// `"NanumGothic Bold 17"` or `"DejaVu Sans, NanumGothic 15"`. Text is measured at 72 dpi,
    /// so a point of the font is a point of the layout (UIKit's 17 pt font is `17`).
    public var font: String
    /// Pango's line spacing factor (`pango_layout_set_line_spacing`, pango-view's
    /// `--line-spacing`): baselines are this many line heights apart; nil keeps the font's own.
    public var lineSpacing: Double?
    /// At most this many lines; longer text is measured at this many and marked truncated (the
    /// client ellipsises its last line). Nil: no limit but ``TextMeasurer/Limits``' lines laid
    /// out, which are fewer for text of thousands of lines or a very long word.
    public var maxLines: Int?
    public var wrap: Wrap
    /// A BCP 47 language tag for font fallback and line breaking (`ko`, `en`); nil: the
    /// process's locale, as in GTK.
    public var language: String?

    public init(
        font: String,
        lineSpacing: Double? = nil,
        maxLines: Int? = nil,
        wrap: Wrap = .wordChar,
        language: String? = nil
    ) {
        self.font = font
        self.lineSpacing = lineSpacing
        self.maxLines = maxLines
        self.wrap = wrap
        self.language = language
    }

    /// Checks the style against ``TextMeasurer/Limits``: a font description with at least one
    /// family and a size, a line spacing and line limit within bounds.
    ///
    /// - Throws: ``TextMeasureError/invalidStyle(_:)`` saying what is wrong.
    public func validate() throws(TextMeasureError) {
        let parsed = FontDescription.parse(font)
        guard !parsed.families.isEmpty else {
            throw .invalidStyle("font \"\(font)\" names no family; expected e.g. \"NanumGothic Bold 17\"")
        }
        guard let size = parsed.size else {
            throw .invalidStyle("font \"\(font)\" has no size; expected a size in points, e.g. \"NanumGothic 17\"")
        }
        guard size >= 1, size <= TextMeasurer.Limits.maxFontSize else {
            throw .invalidStyle(
                "font \"\(font)\": size \(size) is out of range (1 to \(Int(TextMeasurer.Limits.maxFontSize)) points)"
            )
        }
        if let lineSpacing, !(lineSpacing > 0 && lineSpacing <= TextMeasurer.Limits.maxLineSpacing) {
            throw .invalidStyle(
                "line spacing \(lineSpacing) is out of range (above 0, at most \(Int(TextMeasurer.Limits.maxLineSpacing)))"
            )
        }
        if let maxLines, !(1...TextMeasurer.Limits.maxLines).contains(maxLines) {
            throw .invalidStyle("max lines \(maxLines) is out of range (1 to \(TextMeasurer.Limits.maxLines))")
        }
        if let language, language.isEmpty || language.utf8.count > 64 || language.contains(where: \.isWhitespace) {
            throw .invalidStyle("language \"\(language)\" is not a language tag such as ko or en-US")
        }
    }
}

/// What one measurement found.
public struct TextMetrics: Sendable, Hashable {
    /// The height of the laid-out lines in points: Pango's logical extents, unrounded (a
    /// renderer at scale 1 needs `ceil(height)` pixels, as pango-view's image has), summed
    /// line by line without the 32-bit overflow of Pango's own sum, so never negative.
    public var height: Double
    /// Lines laid out (at most the style's `maxLines`, ``TextMeasurer/Limits/maxLaidOutLines``
    /// and ``TextMeasurer/Limits/maxLongWordScan`` / its longest word).
    public var lines: Int
    /// The text did not fit: it was cut at `maxLines` or at the lines the limits lay out (Pango
    /// ellipsised the last line), or it was longer than ``TextMeasurer/Limits/maxTextBytes`` and
    /// measured up to there.
    public var isTruncated: Bool

    public init(height: Double, lines: Int, isTruncated: Bool) {
        self.height = height
        self.lines = lines
        self.isTruncated = isTruncated
    }
}

/// Why text could not be measured.
public enum TextMeasureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No measuring at all: fontconfig found no configuration or no fonts.
    case unavailable(String)
    /// The style cannot be used (``TextStyle/validate()``).
    case invalidStyle(String)
    /// Fontconfig offers no font at all for the style's description.
    case fontNotLoaded(String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "text measurement unavailable: \(reason)"
        case .invalidStyle(let reason): reason
        case .fontNotLoaded(let font): "no font can be loaded for \"\(font)\""
        }
    }
}

internal import CPango

/// A Pango font description string as Pango reads it (`pango_font_description_from_string`):
/// the families it names and its size. Pure: no fontconfig, safe on any thread.
struct FontDescription: Equatable {
    /// The comma-separated families, in order, trimmed; empty when the string names none.
    var families: [String]
    /// Points (Pango points and `px` sizes are the same at the measurer's 72 dpi); nil when the
    /// string gives no size.
    var size: Double?

    static func parse(_ text: String) -> FontDescription {
        guard let description = pango_font_description_from_string(text) else {
            return FontDescription(families: [], size: nil)
        }
        defer { pango_font_description_free(description) }
        var families: [String] = []
        if let family = pango_font_description_get_family(description) {
            families = String(cString: family).split(separator: ",").map { String($0).trimmedBlanks }
                .filter { !$0.isEmpty }
        }
        var size: Double?
        if pango_font_description_get_set_fields(description).rawValue & PANGO_FONT_MASK_SIZE.rawValue != 0 {
            size = Double(pango_font_description_get_size(description)) / Double(PANGO_SCALE)
        }
        return FontDescription(families: families, size: size)
    }

    /// Whether `name` is one of fontconfig's generic aliases, which always stand for another
    /// family: no warning when they do.
    static func isGeneric(_ name: String) -> Bool {
        ["sans", "sans-serif", "serif", "monospace", "mono", "system-ui", "emoji", "cursive", "fantasy"]
            .contains(name.lowercased())
    }

    /// Fontconfig compares family names ignoring case and blanks (`FcStrCmpIgnoreBlanksAndCase`).
    static func sameFamily(_ a: String, _ b: String) -> Bool {
        a.lowercased().filter { $0 != " " } == b.lowercased().filter { $0 != " " }
    }
}

extension String {
    var trimmedBlanks: String {
        var view = Substring(self)
        while view.first?.isWhitespace == true { view = view.dropFirst() }
        while view.last?.isWhitespace == true { view = view.dropLast() }
        return String(view)
    }
}

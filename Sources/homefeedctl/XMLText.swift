import HomeFeeds

/// Text as XML 1.0 takes it, for the SVGs homefeedctl writes (`preview --svg`, the wireframe of
/// `layout solve --svg`).
enum XMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped, for element content and attribute values alike,
    /// and every character XML 1.0 forbids (the C0 controls but tab, newline and carriage
    /// return; U+FFFE and U+FFFF) replaced by U+FFFD: one of them anywhere (a title with a bell
    /// in it) makes the whole file unreadable. Swift strings hold no lone surrogates.
    static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            default: out.append(HTMLEntities.isForbiddenInXML(scalar) ? "\u{FFFD}" : scalar)
            }
        }
        return String(out)
    }
}

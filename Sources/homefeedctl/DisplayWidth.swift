import CSystem

/// How many terminal cells text takes, for the columns of tables and the text drawing of
/// `preview`: 2 for East Asian Wide and Fullwidth characters (Hangul, CJK, fullwidth forms,
/// emoji), 0 for combining marks, zero-width and format characters, 1 for the rest, as glibc's
/// `wcwidth` in C.UTF-8 says (CSystem). Counting characters pushed columns out of line after a
/// Korean title; counting every scalar from U+1100 up as two cells did after a curly quote.
enum DisplayWidth {
    /// The cells of `character`: those of its widest scalar, so that a letter with combining
    /// marks takes the letter's, an emoji with a skin tone or joined by ZWJ two, and a
    /// character of zero-width scalars alone none. A control character (which human output
    /// never holds, ``TerminalText``) counts as one.
    static func cells(_ character: Character) -> Int {
        var widest = 0
        for scalar in character.unicodeScalars {
            let width = (0x20..<0x7F).contains(scalar.value) ? 1 : Int(csystem_wcwidth(scalar.value))
            widest = max(widest, width < 0 ? 1 : width)
        }
        return widest
    }

    /// The cells of `text`, its characters' summed.
    static func cells(_ text: String) -> Int {
        text.reduce(0) { $0 + cells($1) }
    }
}

internal import CPango

/// The lines Pango lays a string out in at most: the style's `maxLines`, or fewer when more
/// would take too long (``TextMeasurer/Limits/maxLaidOutLines``,
/// ``TextMeasurer/Limits/maxLongWordScan``).
///
/// Pango's work grows with the lines, and with the length of the words it breaks inside: it
/// shapes the rest of a stretch without a line break opportunity again for every line it breaks
/// in it (Pango 1.50), so 4 096 bytes of "i" took 1.5 s of CPU at 5 points, 4 095 lines, where
/// 4 096 bytes of words took 30 ms. A line holds one character at least, so a limit above the
/// number of characters never cuts; for such text (every title) the longest word is not even
/// looked for, and the layout is the one it was without these limits. Characters are Unicode
/// scalars, as ``TextInput`` cuts them.
enum LineLimit {
    /// The most lines `text` is laid out in; nil for no limit.
    ///
    /// - Parameters:
    ///   - text: UTF-8 (``TextInput``);
    ///   - maxLines: the style's;
    ///   - language: the language Pango breaks the text's lines for.
    static func lines(for text: [UInt8], maxLines: Int?, language: OpaquePointer?) -> Int? {
        let characters = characterCount(text)
        var limit = min(maxLines ?? .max, TextMeasurer.Limits.maxLaidOutLines)
        // maxLongWordScan / longest ≥ maxLongWordScan / characters, which is ≥ characters here.
        if characters * characters > TextMeasurer.Limits.maxLongWordScan {
            let longest = longestWord(text, characters: characters, language: language)
            limit = min(limit, TextMeasurer.Limits.maxLongWordScan / longest)
        }
        return limit < characters && limit < maxLines ?? .max ? limit : maxLines
    }

    /// The characters of the longest stretch of `text` without a line break opportunity (UAX #14
    /// as Pango tailors it for `language`), a space that ends it included; at least 1.
    ///
    /// - Parameter characters: the characters of `text`, when the caller has counted them.
    static func longestWord(_ text: [UInt8], characters: Int? = nil, language: OpaquePointer?) -> Int {
        let characters = characters ?? characterCount(text)
        var attributes = [PangoLogAttr](repeating: PangoLogAttr(), count: characters + 1)
        text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                pango_get_log_attrs(
                    chars.baseAddress,
                    Int32(chars.count),
                    -1,
                    language,
                    &attributes,
                    Int32(attributes.count)
                )
            }
        }
        var longest = 1
        var run = 0
        // attributes[i] is the position before character i; the last one, the end, is a break.
        for attribute in attributes.dropFirst() {
            run += 1
            if attribute.is_line_break != 0 {
                longest = max(longest, run)
                run = 0
            }
        }
        return max(longest, run)
    }

    /// Unicode scalars of UTF-8 `text`: its bytes but continuation bytes.
    private static func characterCount(_ text: [UInt8]) -> Int {
        text.reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
    }
}

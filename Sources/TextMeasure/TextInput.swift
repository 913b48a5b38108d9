/// What Pango is given for a string: its UTF-8, capped, without NUL, in one paragraph.
enum TextInput {
    private static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// The bytes to lay out and whether the text was cut.
    ///
    /// At most `limit` bytes, cut at a Unicode scalar boundary (not a grapheme boundary: one
    /// "character" of a million combining marks would otherwise be uncuttable), so the work is
    /// bounded by `limit`, not by the length of the text. U+0000 becomes U+FFFD, since Pango
    /// takes a NUL for invalid UTF-8. Line and paragraph breaks (LF, CR, CR LF, U+2028, U+2029)
    /// become one space: a style's `max-lines` is a number of lines per paragraph to Pango, so
    /// a title of five hundred lines would otherwise be measured whole, and never truncated.
    /// Combining marks beyond ``TextMeasurer/Limits/maxCombiningMarks`` in a row are left out
    /// (``isCombining(_:)``).
    static func prepare(_ text: String, limit: Int) -> (bytes: [UInt8], wasCapped: Bool) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(text.utf8.count, limit))
        var afterCR = false
        var marks = 0
        for scalar in text.unicodeScalars {
            // CR LF is one break: its LF adds nothing.
            defer { afterCR = scalar == "\r" }
            if afterCR && scalar == "\n" { continue }
            marks = isCombining(scalar) ? marks + 1 : 0
            if marks > TextMeasurer.Limits.maxCombiningMarks { continue }
            let encoded = (scalar.value == 0 ? replacement : isBreak(scalar) ? " " : scalar).utf8
            if bytes.count + encoded.count > limit { return (bytes, true) }
            bytes.append(contentsOf: encoded)
        }
        return (bytes, false)
    }

    /// A non-starter (canonical combining class other than 0): a mark that stacks on the
    /// character before it and takes no room of its own, such as U+0301 or an Arabic haraka.
    /// Pango shapes a cluster in time that grows with the square of its marks (2 047 marks on
    /// one letter took 45 to 75 ms); no text needs more than 30 in a row (UAX #15, Stream-Safe
    /// Text Format), and in a font that has them the ones beyond change neither the lines nor
    /// the height.
    private static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.canonicalCombiningClass != .notReordered
    }

    /// The scalars that end a paragraph for Pango (`pango_find_paragraph_boundary`: LF, CR,
    /// U+2029 PARAGRAPH SEPARATOR), and U+2028 LINE SEPARATOR.
    private static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x2028, 0x2029: true
        default: false
        }
    }
}

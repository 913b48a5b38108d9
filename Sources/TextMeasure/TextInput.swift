/// What Pango is given for a string: its UTF-8, capped and without NUL.
enum TextInput {
    private static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// The bytes to lay out and whether the text was cut.
    ///
    /// At most `limit` bytes, cut at a Unicode scalar boundary (not a grapheme boundary: one
    /// "character" of a million combining marks would otherwise be uncuttable), so the work is
    /// bounded by `limit`, not by the length of the text. U+0000 becomes U+FFFD, since Pango
    /// takes a NUL for invalid UTF-8.
    static func prepare(_ text: String, limit: Int) -> (bytes: [UInt8], wasCapped: Bool) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(text.utf8.count, limit))
        for scalar in text.unicodeScalars {
            let encoded = (scalar.value == 0 ? replacement : scalar).utf8
            if bytes.count + encoded.count > limit { return (bytes, true) }
            bytes.append(contentsOf: encoded)
        }
        return (bytes, false)
    }
}

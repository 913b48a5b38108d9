/// Whitespace folded as feed text is (`PlainText`, feed-parsing.md §2), for text that reaches
/// the home screen another way: a history event's title is then one paragraph of one-space
/// gaps, as every notice title is, and a text style's `max-lines` holds for it too.
public enum FoldedText {
    /// `text` with each run of white space (ASCII and Unicode White_Space: tabs, line and
    /// paragraph breaks, no-break spaces …) made one space and none at either end; nil when
    /// nothing else remains. Nothing else changes: no markup or reference is read.
    public static func of(_ text: String) -> String? {
        var plain = PlainText()
        return plain.normalize(text, mode: .literal)
    }
}

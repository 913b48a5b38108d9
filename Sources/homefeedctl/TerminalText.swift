import Varlink

/// Text from the daemon's replies as human output shows it: feeds put titles, urls and errors
/// there, and any remote feed could otherwise move the cursor, recolour the terminal, set its
/// title (ESC and C1 sequences) or reverse a line (bidi overrides).
///
/// `--json` output needs none of it: its strings are escaped JSON.
enum TerminalText {
    /// `text` with every character a terminal acts on instead of showing replaced by U+FFFD:
    /// C0 controls (tab and newline too: a field stays on its line), DEL, C1 controls
    /// (U+0080–U+009F: U+009B is a CSI on its own), the bidi embeddings, overrides and isolates
    /// (U+202A–U+202E, U+2066–U+2069), and the line and paragraph separators U+2028 and U+2029.
    static func sanitised(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isUnsafe(scalar) ? "\u{FFFD}" : scalar) }
        return String(scalars)
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }
}

extension JSONValue {
    /// A reply's string as human output shows it (``TerminalText/sanitised(_:)``); nil when the
    /// value is no string. Every string a command prints for people comes through here.
    var terminalString: String? { stringValue.map(TerminalText.sanitised) }
}

/// Word wrapping for help text: fixed width, so `--help` reads the same on every terminal and
/// its goldens stay stable.
enum TextLayout {
    /// The widest line of generated help.
    static let width = 100

    /// `words` joined with single spaces into lines of at most `width` characters (a longer
    /// word stands alone), the first prefixed with `first` (its own spacing included), the
    /// others indented by `indent`.
    static func fill(_ words: [String], first: String = "", indent: Int, width: Int = width) -> [String] {
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for word in words {
            if lineHasWord && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }

    /// A paragraph of prose rewrapped, unless its lines start with a space (kept as written).
    static func paragraph(_ text: String, indent: Int = 0) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let margin = String(repeating: " ", count: indent)
        if lines.contains(where: { $0.hasPrefix(" ") }) { return lines.map { margin + $0 } }
        return fill(words(lines.joined(separator: " ")), first: margin, indent: indent)
    }

    /// The words of `text`, split at spaces, except inside a number grouped by thousands
    /// (`100 000` stays on one line).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        for word in text.split(separator: " ").map(String.init) {
            let isGroup =
                word.count >= 3 && word.prefix(3).allSatisfy(\.isNumber)
                && !word.dropFirst(3).contains(where: \.isNumber)
            if isGroup, let last = words.last, last.last?.isNumber == true {
                words[words.count - 1] = last + " " + word
            } else {
                words.append(word)
            }
        }
        return words
    }

    /// `text` split into paragraphs at blank lines.
    static func paragraphs(_ text: String) -> [String] {
        var result: [String] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " }) {
                if !current.isEmpty { result.append(current.joined(separator: "\n")) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { result.append(current.joined(separator: "\n")) }
        return result
    }

    /// Two columns: a term at two spaces' indent, its help at `column`, wrapped beneath it; a
    /// term too long for the column puts its help on the next line.
    static func rows(_ rows: [(term: String, help: String)], column: Int) -> [String] {
        var lines: [String] = []
        let margin = String(repeating: " ", count: column)
        for (term, help) in rows {
            let words = words(help)
            let head = "  " + term
            if words.isEmpty {
                lines.append(head)
            } else if head.count + 2 > column {
                lines.append(head)
                lines += fill(words, first: margin, indent: column)
            } else {
                let padded = head + String(repeating: " ", count: column - head.count)
                lines += fill(words, first: padded, indent: column)
            }
        }
        return lines
    }

    /// The help column for `terms`: two spaces past the longest, at most `limit`.
    static func column(for terms: [String], limit: Int = 30) -> Int {
        min((terms.map(\.count).max() ?? 0) + 4, limit)
    }
}

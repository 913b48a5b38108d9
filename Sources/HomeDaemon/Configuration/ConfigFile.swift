/// An INI-style configuration file as systemd admins know it: `[section]` or `[kind name]`
/// headers, `key = value` lines, `#` and `;` comment lines.
///
/// Every entry keeps its line number so errors can point at it. Keys are case-sensitive and
/// written in kebab-case; a key given twice in one block is an error.
public struct ConfigFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String
        public var line: Int
    }

    public struct Block: Sendable, Equatable {
        /// `daemon`, `profile`, `section` …
        public var kind: String
        /// The second word of the header: `[profile phone]` → `phone`.
        public var name: String?
        public var line: Int
        public var entries: [Entry]

        public func value(_ key: String) -> Entry? { entries.first { $0.key == key } }
    }

    public var path: String
    public var blocks: [Block]

    /// Limits: 1 MiB of text, 10 000 lines.
    public static let maxBytes = 1 << 20

    public init(path: String, text: String) throws(ConfigError) {
        try self.init(path: path, bytes: Array(text.utf8))
    }

    /// Reads the file's bytes: UTF-8, with or without a byte-order mark, lines ended by LF or
    /// CRLF (a file saved on Windows reads as it does on Linux). A line that is not valid UTF-8
    /// is an error naming it: a value in another encoding would otherwise become U+FFFD unseen.
    public init(path: String, bytes: [UInt8]) throws(ConfigError) {
        self.path = path
        guard bytes.count <= Self.maxBytes else {
            throw ConfigError(file: path, reason: "larger than \(Self.maxBytes) bytes")
        }
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        var blocks: [Block] = []
        for (offset, lineBytes) in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated()
        {
            let number = offset + 1
            guard number <= 10_000 else { throw ConfigError(file: path, line: number, reason: "more than 10000 lines") }
            let ending = lineBytes.last == UInt8(ascii: "\r") ? 1 : 0
            guard let rawLine = String(validating: lineBytes.dropLast(ending), as: UTF8.self) else {
                throw ConfigError(file: path, line: number, reason: "not valid UTF-8")
            }
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else {
                    throw ConfigError(file: path, line: number, reason: "expected ']' to close the header")
                }
                let words = line.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true)
                guard let kind = words.first, words.count <= 2 else {
                    throw ConfigError(file: path, line: number, reason: "expected [kind] or [kind name]")
                }
                blocks.append(
                    Block(
                        kind: String(kind),
                        name: words.count == 2 ? String(words[1]) : nil,
                        line: number,
                        entries: []
                    )
                )
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigError(file: path, line: number, reason: "expected key = value")
            }
            let key = line[..<equals].trimmingWhitespace()
            let value = line[line.index(after: equals)...].trimmingWhitespace()
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw ConfigError(file: path, line: number, reason: "invalid key \"\(key)\"")
            }
            guard !blocks.isEmpty else {
                throw ConfigError(file: path, line: number, key: String(key), reason: "key outside of a [block]")
            }
            if blocks[blocks.count - 1].value(String(key)) != nil {
                throw ConfigError(file: path, line: number, key: String(key), reason: "given twice in this block")
            }
            blocks[blocks.count - 1].entries.append(Entry(key: String(key), value: String(value), line: number))
        }
        self.blocks = blocks
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view = view.dropFirst() }
        while let last = view.last, last.isWhitespace { view = view.dropLast() }
        return String(view)
    }
}

/// A named option of a command: a flag (`--rtl`) or an option with a value (`--width W`).
///
/// Values are given as `--width 375` or `--width=375`; each option at most once.
public struct Option: Sendable {
    /// With the dashes: `--width`.
    public var name: String
    /// The placeholder in usage and help (`W`); nil for a flag.
    public var valueName: String?
    /// What the value must be; checked while parsing, before any body runs.
    public var kind: ValueKind
    public var help: String
    /// A required option appears without brackets in the usage line; leaving it out is a usage error.
    public var isRequired: Bool

    public var isFlag: Bool { valueName == nil }

    /// A boolean flag: present or not, never with a value.
    public static func flag(_ name: String, help: String) -> Option {
        Option(name: name, valueName: nil, kind: .text, help: help, isRequired: false)
    }

    /// An option with a value.
    public static func value(
        _ name: String,
        _ valueName: String,
        _ kind: ValueKind = .text,
        required: Bool = false,
        help: String
    ) -> Option {
        Option(name: name, valueName: valueName, kind: kind, help: help, isRequired: required)
    }

    /// `--width W` or `--rtl`.
    var syntax: String { valueName.map { "\(name) \($0)" } ?? name }
}

/// A positional argument of a command (`SPEC`, `[URL]`, `ID=SIZE ...`).
public struct Argument: Sendable {
    /// How many words the argument takes.
    public enum Arity: Sendable, Equatable {
        /// Exactly one.
        case one
        /// Zero or one.
        case optional
        /// At least one.
        case oneOrMore
    }

    /// The placeholder in usage and help: `SPEC`.
    public var name: String
    public var kind: ValueKind
    public var arity: Arity
    public var help: String

    public init(_ name: String, _ kind: ValueKind = .text, _ arity: Arity = .one, help: String) {
        self.name = name
        self.kind = kind
        self.arity = arity
        self.help = help
    }

    /// `SPEC`, `[URL]` or `ID=SIZE ...`.
    var syntax: String {
        switch arity {
        case .one: name
        case .optional: "[\(name)]"
        case .oneOrMore: "\(name) ..."
        }
    }
}

/// What the value of an option or argument must be. Parsing refuses anything else as a usage
/// error naming the option, and the completion script offers what fits (file names, choices).
public enum ValueKind: Sendable, Equatable {
    /// Any text.
    case text
    /// A finite decimal number (``ValueKind/decimal(_:)``): `375`, `-0.5`, `1e3`.
    case number
    /// Comma-separated finite decimal numbers, blanks around each allowed: `3,4,5`, `"3, 4"`.
    case numbers
    /// A whole number in the range.
    case integer(ClosedRange<Int>)
    /// One of the words.
    case choice([String])
    /// A non-empty path of a file (`-` where the help says standard input); completes file names.
    case file
    /// A non-empty path of a directory; completes directory names.
    case directory

    /// Checks `text` as the value of `name` (`--width`, `SPEC`).
    func check(_ text: String, for name: String) throws(UsageError) {
        switch self {
        case .text:
            return
        case .number:
            guard Self.decimal(text) != nil else {
                throw UsageError("\(name): expected a decimal number, got \"\(text)\"")
            }
        case .numbers:
            for part in text.split(separator: ",", omittingEmptySubsequences: false) where Self.listed(part) == nil {
                throw UsageError("\(name): expected comma-separated decimal numbers, got \"\(text)\"")
            }
        case .integer(let range):
            guard let value = Int(text), range.contains(value) else {
                throw UsageError("\(name): expected \(Self.describe(range)), got \"\(text)\"")
            }
        case .choice(let words):
            guard words.contains(text) else {
                throw UsageError("\(name): expected \(Self.list(words)), got \"\(text)\"")
            }
        case .file, .directory:
            guard !text.isEmpty else { throw UsageError("\(name): expected a path, got \"\"") }
        }
    }

    /// A finite decimal number, as people and JSON write one: an optional sign, digits with an
    /// optional fraction, an optional exponent (`375`, `-0.5`, `.5`, `1e3`). Nothing else that
    /// `Double(_:)` reads: no hex (`0x10`), no `nan` or `inf`, no blanks, as ``integer(_:)``
    /// takes none either; nil for those and for a number beyond the range of a double.
    public static func decimal(_ text: some StringProtocol) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        func skip(_ characters: String) {
            if index < bytes.count, characters.utf8.contains(bytes[index]) { index += 1 }
        }
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - start
        }
        skip("+-")
        var count = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            count += digits()
        }
        guard count > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            skip("+-")
            guard digits() > 0 else { return nil }
        }
        guard index == bytes.count, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    /// One number of a ``numbers`` list: a decimal number, blanks around it allowed (`--items "3, 4"`).
    static func listed(_ text: some StringProtocol) -> Double? {
        var trimmed = Substring(text)
        while trimmed.first == " " { trimmed.removeFirst() }
        while trimmed.last == " " { trimmed.removeLast() }
        return decimal(trimmed)
    }

    static func describe(_ range: ClosedRange<Int>) -> String {
        switch (range.lowerBound, range.upperBound) {
        case (Int.min, Int.max): "a whole number"
        case (let low, Int.max): "a whole number of at least \(low)"
        case (let low, let high): "a whole number from \(low) to \(high)"
        }
    }

    /// `a, b or c`.
    static func list(_ words: [String]) -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}

import Foundation

/// A usage mistake: unknown option, missing or malformed value. Exits with status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Command-line words split into options, flags and positionals.
///
/// Accepts `--name value`, `--name=value`, boolean `--flag`, `-` as a positional (stdin) and
/// `--` to end options. Unknown options are usage errors, so typos never pass silently.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    init(_ words: [String], options: Set<String>, flags allowedFlags: Set<String>) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("--") {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            if allowedFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            } else if options.contains(name) {
                guard values[name] == nil else { throw UsageError("\(name) given twice") }
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < words.count else { throw UsageError("\(name) needs a value") }
                    values[name] = words[index]
                    index += 1
                }
            } else {
                throw UsageError("unknown option \(name)")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    func string(_ name: String) -> String? { values[name] }

    /// A finite number, if the option was given.
    func double(_ name: String) throws(UsageError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw UsageError("\(name): expected a number, got \"\(text)\"")
        }
        return value
    }

    func requiredDouble(_ name: String) throws(UsageError) -> Double {
        guard let value = try double(name) else { throw UsageError("missing \(name)") }
        return value
    }

    /// A comma-separated list of numbers, e.g. `--items 3,4,5` or `--safe-area 47,0,34,0`.
    func doubles(_ name: String) throws(UsageError) -> [Double]? {
        guard let text = values[name] else { return nil }
        var result: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let value = Double(trimmed), value.isFinite else {
                throw UsageError("\(name): expected comma-separated numbers, got \"\(text)\"")
            }
            result.append(value)
        }
        return result
    }
}

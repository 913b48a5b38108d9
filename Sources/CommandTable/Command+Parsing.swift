extension Command {
    /// Parses the words after this command's name against its declaration.
    ///
    /// Accepts `--name value`, `--name=value`, flags, `-` as a positional (standard input) and
    /// `--` to end options. Unknown options, values that do not fit their kind, a missing
    /// required option and the wrong number of positionals are usage errors, so a typo never
    /// passes silently. `--help` and `--version` are the caller's (``resolve(_:)``).
    ///
    /// - Parameters:
    ///   - path: the words naming this command, the tool's name first.
    ///   - root: the tool's root command; this command when nil.
    public func parse(_ words: [String], path: [String]? = nil, root: Command? = nil) throws(UsageError)
        -> ParsedArguments
    {
        var positionals: [String] = []
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            var name = word
            var inlineValue: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = option(named: name) else { throw UsageError("unknown option \(name)") }
            if option.isFlag {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
                continue
            }
            guard values[name] == nil else { throw UsageError("\(name) given twice") }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                // The next word, unless it is another option: `--socket --json` forgot the path.
                guard index < words.count, !words[index].hasPrefix("--") else {
                    throw UsageError("\(name) needs a value (\(option.valueName ?? "VALUE"))")
                }
                value = words[index]
                index += 1
            }
            try option.kind.check(value, for: name)
            values[name] = value
        }
        for option in options where option.isRequired && values[option.name] == nil {
            throw UsageError("missing \(option.syntax)")
        }
        try checkPositionals(positionals)
        return ParsedArguments(
            command: self,
            root: root ?? self,
            path: path ?? [name],
            positionals: positionals,
            values: values,
            flags: flags
        )
    }

    /// The right number of positionals, each of its argument's kind.
    private func checkPositionals(_ words: [String]) throws(UsageError) {
        for (index, argument) in arguments.enumerated() {
            let given = words.dropFirst(index)
            switch argument.arity {
            case .one, .oneOrMore:
                guard let word = given.first else { throw UsageError("missing \(argument.name)") }
                try argument.kind.check(word, for: argument.name)
            case .optional:
                if let word = given.first { try argument.kind.check(word, for: argument.name) }
            }
            if argument.arity == .oneOrMore {
                for word in given.dropFirst() { try argument.kind.check(word, for: argument.name) }
                return
            }
        }
        if words.count > arguments.count {
            let extra = words[arguments.count]
            let expected =
                arguments.isEmpty
                ? "takes no arguments" : "takes " + arguments.map(\.syntax).joined(separator: " ")
            throw UsageError("unexpected argument \"\(extra)\" (\(expected))")
        }
    }
}

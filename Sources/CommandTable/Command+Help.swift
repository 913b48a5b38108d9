extension Command {
    /// The `--help` text, generated from the declaration: usage, discussion, arguments,
    /// options (or the subcommands, by group), exit statuses and examples.
    ///
    /// - Parameter path: the words naming this command, the tool's name first.
    public func help(path: [String]) -> String {
        var sections: [[String]] = [usage(path: path)]
        for paragraph in TextLayout.paragraphs(discussion.isEmpty ? abstract : discussion) {
            sections.append(TextLayout.paragraph(paragraph))
        }
        let builtIn = builtInOptionRows
        if groups.isEmpty {
            let argumentRows = arguments.map { (term: $0.name, help: $0.help) }
            let optionRows = options.map { (term: $0.syntax, help: $0.help) } + builtIn
            let column = TextLayout.column(for: (argumentRows + optionRows).map(\.term))
            if !argumentRows.isEmpty { sections.append(["arguments:"] + TextLayout.rows(argumentRows, column: column)) }
            sections.append(["options:"] + TextLayout.rows(optionRows, column: column))
        } else {
            let prefix = Array(path.dropFirst())
            let listings = groups.map { group in
                (
                    title: group.title.isEmpty ? "commands" : group.title,
                    rows: group.commands.flatMap { $0.leafRows(prefix: prefix + [$0.name]) }
                )
            }
            let column = TextLayout.column(for: listings.flatMap { $0.rows.map(\.term) }, limit: 34)
            for listing in listings {
                sections.append(["\(listing.title):"] + TextLayout.rows(listing.rows, column: column))
            }
            sections.append(
                ["options:"] + TextLayout.rows(builtIn, column: TextLayout.column(for: builtIn.map(\.term)))
            )
        }
        if !exitStatuses.isEmpty {
            let rows = exitStatuses.map { (term: String($0.status), help: $0.meaning) }
            sections.append(["exit status:"] + TextLayout.rows(rows, column: TextLayout.column(for: rows.map(\.term))))
        }
        if !examples.isEmpty {
            sections.append(["examples:"] + examples.map { "  " + $0 })
        }
        if !groups.isEmpty {
            let name = path.joined(separator: " ")
            sections.append(["Run '\(name) COMMAND --help' for a command's options and examples."])
        }
        return sections.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
    }

    /// The usage lines: `usage: homefeedctl layout solve SPEC --width W [--height H] …`,
    /// wrapped beneath the command's name.
    public func usage(path: [String]) -> [String] {
        let first = "usage: " + path.joined(separator: " ")
        guard !synopsis.isEmpty else { return [first] }
        return TextLayout.fill(synopsis, first: first + " ", indent: first.count + 1)
    }

    /// The words after the command's name in its usage line.
    var synopsis: [String] {
        guard groups.isEmpty else { return ["COMMAND", "..."] }
        return arguments.map(\.syntax) + options.map { $0.isRequired ? $0.syntax : "[\($0.syntax)]" }
    }

    /// `-h, --help` and, on a tool's root, `--version`.
    private var builtInOptionRows: [(term: String, help: String)] {
        var rows = [(term: "-h, --help", help: "show this help")]
        if version != nil { rows.append((term: "--version", help: "show the version")) }
        return rows
    }

    /// One listing row per command that does work at or below this one: its words and
    /// positionals (`layout solve SPEC`), and its abstract.
    func leafRows(prefix: [String]) -> [(term: String, help: String)] {
        guard groups.isEmpty else {
            return subcommands.flatMap { $0.leafRows(prefix: prefix + [$0.name]) }
        }
        return [(term: (prefix + arguments.map(\.syntax)).joined(separator: " "), help: abstract)]
    }
}

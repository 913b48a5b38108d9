/// CommandTable: command lines declared as values, in swift-argument-parser's shape.
///
/// Each command of a tool is one ``Command`` value listing its abstract, discussion, positional
/// arguments, options with their value names and help, exit statuses and examples, and the body
/// that runs it. Parsing, `--help`, usage errors and the bash completion script are all
/// generated from that one declaration, so what a tool says it accepts is what it accepts.
/// Standard library and Glibc only: `homefeed-thumbnail` parses its limits with it before
/// anything else runs.

/// One command of a command-line tool: what it is called, what it takes and what runs it.
///
/// A command either does the work itself (`body`, with `arguments` and `options`), or
/// dispatches to subcommands (`subcommands`), never both. The root command of a tool carries
/// its `version`, answered by `--version`.
///
/// Sendable: an immutable value; the body is a `@Sendable` function.
public struct Command: Sendable {
    /// Runs a parsed command line and returns the exit status. A thrown ``UsageError`` is
    /// reported with the command's usage and exits ``ExitStatus/usage``.
    public typealias Body = @Sendable (ParsedArguments) throws(UsageError) -> Int32

    /// The word that selects the command (the tool's name for the root).
    public var name: String
    /// One line for listings: what the command does.
    public var abstract: String
    /// Paragraphs for `--help`, separated by blank lines; the abstract when empty. Lines of a
    /// paragraph are rewrapped, unless they start with a space (kept as written).
    public var discussion: String
    /// The release version, answered by `--version` (the root command only).
    public var version: String?
    /// Positional arguments, in order; only the last may be optional or repeated.
    public var arguments: [Argument]
    public var options: [Option]
    /// Subcommands, in groups with a title for listings.
    public var groups: [CommandGroup]
    /// Exit statuses worth a line in `--help`.
    public var exitStatuses: [ExitStatusMeaning]
    /// Whole command lines, shown under "examples:".
    public var examples: [String]
    /// Nil for a command that only dispatches, or whose tool runs the parsed value itself.
    public var body: Body?

    public init(
        _ name: String,
        abstract: String,
        discussion: String = "",
        version: String? = nil,
        arguments: [Argument] = [],
        options: [Option] = [],
        subcommands groups: [CommandGroup] = [],
        exitStatuses: [ExitStatusMeaning] = [],
        examples: [String] = [],
        body: Body? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.arguments = arguments
        self.options = options
        self.groups = groups
        self.exitStatuses = exitStatuses
        self.examples = examples
        self.body = body
        checkDeclaration()
    }

    /// The subcommands of every group, in listing order.
    public var subcommands: [Command] { groups.flatMap(\.commands) }

    public func subcommand(named word: String) -> Command? {
        subcommands.first { $0.name == word }
    }

    public func option(named name: String) -> Option? {
        options.first { $0.name == name }
    }

    /// Every command below this one with its path of words after this one's name, depth first:
    /// `[]` for this command, `["layout"]`, `["layout", "solve"]`, …
    public var allPaths: [[String]] {
        [[]] + subcommands.flatMap { child in child.allPaths.map { [child.name] + $0 } }
    }

    /// The command at `path` (words after this one's name), if there is one.
    public func descendant(at path: [String]) -> Command? {
        var command = self
        for word in path {
            guard let next = command.subcommand(named: word) else { return nil }
            command = next
        }
        return command
    }

    /// Declarations are code, not input: a malformed one is a bug, caught on first use.
    private func checkDeclaration() {
        precondition(
            groups.isEmpty || (arguments.isEmpty && options.isEmpty && body == nil),
            "\(name): a command with subcommands takes no arguments, options or body"
        )
        var names: Set<String> = ["--help", "-h", "--version"]
        for option in options {
            precondition(option.name.hasPrefix("--") && option.name.count > 2, "\(name): option \(option.name)")
            precondition(names.insert(option.name).inserted, "\(name): \(option.name) declared twice")
        }
        for argument in arguments.dropLast() {
            precondition(argument.arity == .one, "\(name): only the last argument may be optional or repeated")
        }
        var words: Set<String> = ["help"]
        for command in subcommands {
            precondition(words.insert(command.name).inserted, "\(name): subcommand \(command.name) declared twice")
        }
    }
}

/// Subcommands listed together under a title in `--help` ("offline tools:").
public struct CommandGroup: Sendable {
    /// Without the colon; empty lists them under "commands:".
    public var title: String
    public var commands: [Command]

    public init(_ title: String, _ commands: [Command]) {
        self.title = title
        self.commands = commands
    }

    /// Subcommands listed under "commands:".
    public init(_ commands: [Command]) {
        self.init("", commands)
    }
}

/// One exit status and what it means, for the "exit status:" lines of `--help`.
public struct ExitStatusMeaning: Sendable {
    public var status: Int32
    public var meaning: String

    public init(_ status: Int32, _ meaning: String) {
        self.status = status
        self.meaning = meaning
    }
}

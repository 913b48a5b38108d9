/// A command line parsed against its command's declaration: every value already checked
/// against its ``ValueKind``, every required option present, the positionals counted.
///
/// The accessors take an option's name as declared; asking for one the command does not
/// declare is a bug (a precondition), so a body cannot read an option its help leaves out.
public struct ParsedArguments: Sendable {
    /// The command that was parsed for.
    public let command: Command
    /// The tool's root command (for `completion`, which describes the whole tool).
    public let root: Command
    /// The words naming the command, the tool's name first: `["homefeedctl", "layout", "solve"]`.
    public let path: [String]
    /// Positional words, in order (`-` included).
    public let positionals: [String]
    let values: [String: String]
    let flags: Set<String>

    /// Whether a flag was given.
    public func has(_ flag: String) -> Bool {
        declared(flag, flag: true)
        return flags.contains(flag)
    }

    /// The value of an option, if given.
    public func string(_ name: String) -> String? {
        declared(name, flag: false)
        return values[name]
    }

    /// The value of a ``ValueKind/number`` option, if given.
    public func double(_ name: String) -> Double? {
        string(name).flatMap { ValueKind.decimal($0) }
    }

    /// The value of a required ``ValueKind/number`` option.
    public func requiredDouble(_ name: String) -> Double {
        guard let value = double(name) else { preconditionFailure("\(name) is not a required number option") }
        return value
    }

    /// The value of an ``ValueKind/integer(_:)`` option, if given.
    public func integer(_ name: String) -> Int? {
        string(name).flatMap { Int($0) }
    }

    /// The values of a ``ValueKind/numbers`` option, if given: `--items 3,4,5` → `[3, 4, 5]`.
    public func doubles(_ name: String) -> [Double]? {
        string(name).map { text in
            text.split(separator: ",", omittingEmptySubsequences: false).compactMap { ValueKind.listed($0) }
        }
    }

    /// `homefeedctl layout solve`: how errors and help name the command.
    public var commandName: String { path.joined(separator: " ") }

    private func declared(_ name: String, flag: Bool) {
        precondition(
            command.option(named: name)?.isFlag == flag,
            "\(commandName) declares no \(flag ? "flag" : "option with a value") \(name)"
        )
    }
}

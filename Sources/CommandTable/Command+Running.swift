extension Command {
    /// What a command line asks for, once help, version and usage errors are answered.
    public enum Resolution: Sendable {
        /// A command to run with its parsed arguments.
        case run(ParsedArguments)
        /// Help, the version or a usage error was printed: exit with this status.
        case exit(Int32)
    }

    /// Follows the words from this (root) command to the command they name, and parses the
    /// rest against it.
    ///
    /// `--help` or `-h` anywhere before `--` prints that command's help; `help [COMMAND…]`
    /// where a subcommand is expected prints the named command's help; `--version` on a
    /// command that has a version prints `NAME VERSION`. These go to standard output with
    /// status 0 (74, ``ExitStatus/outputFailed``, when it cannot be written). A usage error
    /// goes to standard error with the command's usage, status 64 (`ExitStatus.usage`).
    public func resolve(_ words: [String]) -> Resolution {
        var command = self
        var path = [name]
        var rest = words[...]
        while !command.groups.isEmpty {
            guard let word = rest.first else {
                return .exit(command.reportUsage(UsageError("missing command"), path: path))
            }
            switch word {
            case "--help", "-h":
                return .exit(Self.printHelp(command, path: path))
            case "--version" where command.version != nil:
                return .exit(command.printVersion())
            case "help":
                var target = command
                var targetPath = path
                for word in rest.dropFirst() {
                    guard let next = target.subcommand(named: word) else {
                        return .exit(target.reportUsage(UsageError("unknown command \"\(word)\""), path: targetPath))
                    }
                    target = next
                    targetPath.append(word)
                }
                return .exit(Self.printHelp(target, path: targetPath))
            default:
                guard let next = command.subcommand(named: word) else {
                    return .exit(command.reportUsage(UsageError("unknown command \"\(word)\""), path: path))
                }
                command = next
                path.append(word)
                rest = rest.dropFirst()
            }
        }
        let options = rest.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") {
            return .exit(Self.printHelp(command, path: path))
        }
        if command.version != nil, options.contains("--version") {
            return .exit(command.printVersion())
        }
        do throws(UsageError) {
            return .run(try command.parse(Array(rest), path: path, root: self))
        } catch {
            return .exit(command.reportUsage(error, path: path))
        }
    }

    /// Resolves the words and runs the command's body: the whole of a synchronous tool's `main`.
    ///
    /// - Returns: the exit status.
    public func run(_ words: [String]) -> Int32 {
        switch resolve(words) {
        case .exit(let status):
            return status
        case .run(let parsed):
            guard let body = parsed.command.body else {
                preconditionFailure("\(parsed.commandName) has no body to run")
            }
            do throws(UsageError) {
                return try body(parsed)
            } catch {
                return parsed.command.reportUsage(error, path: parsed.path)
            }
        }
    }

    /// Prints `NAME: message`, a blank line and the usage to standard error; returns
    /// ``ExitStatus/usage``. A command with subcommands prints its whole help, which lists them.
    @discardableResult
    public func reportUsage(_ error: UsageError, path: [String]) -> Int32 {
        let name = path.joined(separator: " ")
        let details =
            groups.isEmpty
            ? usage(path: path).joined(separator: "\n")
                + "\nRun '\(name) --help' for details\(examples.isEmpty ? "" : " and examples")."
            : help(path: path)
        StandardStream.error.write("\(name): \(error.description)\n\n\(details)\n")
        return ExitStatus.usage
    }

    /// ``ExitStatus/ok``, or ``ExitStatus/outputFailed`` when the help cannot be written.
    private static func printHelp(_ command: Command, path: [String]) -> Int32 {
        StandardStream.print(command.help(path: path) + "\n", tool: path.first ?? command.name)
    }

    /// ``ExitStatus/ok``, or ``ExitStatus/outputFailed`` when the version cannot be written.
    private func printVersion() -> Int32 {
        StandardStream.print("\(name) \(version ?? "")\n", tool: name)
    }
}

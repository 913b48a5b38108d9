import CommandTable
import Testing

/// A small tool's table, enough to exercise every kind of declaration.
enum SampleTool {
    static let solve = Command(
        "solve",
        abstract: "solve a spec",
        arguments: [Argument("SPEC", .file, help: "a spec file, or -")],
        options: [
            .value("--width", "W", .number, required: true, help: "width in points"),
            .value("--items", "N,N,...", .numbers, help: "item counts"),
            .value("--columns", "N", .integer(20...1000), help: "text width"),
            .value("--platform", "P", .choice(["ios17", "ios14"]), help: "geometry"),
            .value("--note", "TEXT", help: "anything"),
            .flag("--rtl", help: "right to left"),
        ],
        examples: ["tool layout solve spec.json --width 375"],
        body: { arguments throws(UsageError) in
            guard arguments.requiredDouble("--width") < 10_000 else { throw UsageError("--width: too wide") }
            return arguments.has("--rtl") ? 7 : 0
        }
    )

    static let report = Command(
        "report",
        abstract: "report sizes",
        arguments: [Argument("ID=SIZE", .text, .oneOrMore, help: "an id and its size")],
        body: { arguments throws(UsageError) in Int32(arguments.positionals.count) }
    )

    static let refresh = Command(
        "refresh",
        abstract: "refresh one or all",
        arguments: [Argument("URL", .text, .optional, help: "a source")],
        body: { _ throws(UsageError) in 0 }
    )

    static let root = Command(
        "tool",
        abstract: "a sample tool",
        version: "1.2.3",
        subcommands: [
            CommandGroup(
                "layout tools",
                [Command("layout", abstract: "layouts", subcommands: [CommandGroup([solve])])]
            ),
            CommandGroup("other", [report, refresh, Command.completion(tool: "tool")]),
        ]
    )
}

@Suite struct ParsingTests {
    let solve = SampleTool.solve

    @Test("options by name, with = or the next word; flags; - and words after -- are positionals")
    func accepts() throws {
        let parsed = try solve.parse(["--width", "375", "--items=3,4, 5", "--rtl", "--", "--note"])
        #expect(parsed.positionals == ["--note"])
        #expect(parsed.requiredDouble("--width") == 375)
        #expect(parsed.doubles("--items") == [3, 4, 5])
        #expect(parsed.has("--rtl"))
        #expect(parsed.string("--note") == nil)
        #expect(parsed.integer("--columns") == nil)
        #expect(try solve.parse(["-", "--width", "1"]).positionals == ["-"])
    }

    @Test("a value may start with a single dash: --width -5 is a number")
    func negativeValue() throws {
        #expect(try solve.parse(["a.json", "--width", "-5"]).double("--width") == -5)
    }

    @Test("a number is decimal: sign, digits, fraction and exponent as people write them")
    func decimalNumbers() throws {
        for (text, value) in [
            ("375", 375.0), ("+2", 2), ("-0.5", -0.5), (".5", 0.5), ("5.", 5), ("1e3", 1000), ("2.5E-1", 0.25),
        ] {
            #expect(try solve.parse(["a.json", "--width", text]).double("--width") == value, "\(text)")
        }
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var words: [String]
        var message: String
        var testDescription: String { words.joined(separator: " ") }
    }

    @Test(
        "what the declaration does not allow is a usage error naming the option",
        arguments: [
            Refusal(words: ["a.json"], message: "missing --width W"),
            Refusal(words: ["--width", "3"], message: "missing SPEC"),
            Refusal(
                words: ["a.json", "b.json", "--width", "3"],
                message: #"unexpected argument "b.json" (takes SPEC)"#
            ),
            Refusal(words: ["a.json", "--width", "wide"], message: #"--width: expected a decimal number, got "wide""#),
            Refusal(words: ["a.json", "--width", "inf"], message: #"--width: expected a decimal number, got "inf""#),
            Refusal(words: ["a.json", "--width", "nan"], message: #"--width: expected a decimal number, got "nan""#),
            Refusal(words: ["a.json", "--width", "0x10"], message: #"--width: expected a decimal number, got "0x10""#),
            Refusal(
                words: ["a.json", "--width", "0X1p3"],
                message: #"--width: expected a decimal number, got "0X1p3""#
            ),
            Refusal(words: ["a.json", "--width", " 5"], message: #"--width: expected a decimal number, got " 5""#),
            Refusal(words: ["a.json", "--width", "5 "], message: #"--width: expected a decimal number, got "5 ""#),
            Refusal(
                words: ["a.json", "--width", "1e999"],
                message: #"--width: expected a decimal number, got "1e999""#
            ),
            Refusal(words: ["a.json", "--width", "1e"], message: #"--width: expected a decimal number, got "1e""#),
            Refusal(words: ["a.json", "--width", "."], message: #"--width: expected a decimal number, got ".""#),
            Refusal(words: ["a.json", "--width", "3", "--width=4"], message: "--width given twice"),
            Refusal(words: ["a.json", "--width"], message: "--width needs a value (W)"),
            Refusal(words: ["a.json", "--width", "--rtl"], message: "--width needs a value (W)"),
            Refusal(words: ["a.json", "--width", "3", "--rtl=yes"], message: "--rtl takes no value"),
            Refusal(words: ["a.json", "--width", "3", "--bogus"], message: "unknown option --bogus"),
            Refusal(words: ["a.json", "--width", "3", "-x"], message: "unknown option -x"),
            Refusal(
                words: ["a.json", "--width", "3", "--items", "1,,2"],
                message: #"--items: expected comma-separated decimal numbers, got "1,,2""#
            ),
            Refusal(
                words: ["a.json", "--width", "3", "--items", "1, 0x2"],
                message: #"--items: expected comma-separated decimal numbers, got "1, 0x2""#
            ),
            Refusal(
                words: ["a.json", "--width", "3", "--columns", "19"],
                message: #"--columns: expected a whole number from 20 to 1000, got "19""#
            ),
            Refusal(
                words: ["a.json", "--width", "3", "--platform", "ios13"],
                message: #"--platform: expected ios17 or ios14, got "ios13""#
            ),
            Refusal(words: ["", "--width", "3"], message: #"SPEC: expected a path, got """#),
        ]
    )
    func refuses(_ refusal: Refusal) {
        #expect {
            _ = try solve.parse(refusal.words)
        } throws: { error in
            (error as? UsageError)?.description == refusal.message
        }
    }

    @Test("arity: one or more, and optional")
    func arity() throws {
        #expect(try SampleTool.report.parse(["a=1", "b=2"]).positionals == ["a=1", "b=2"])
        #expect(throws: UsageError.self) { try SampleTool.report.parse([]) }
        #expect(try SampleTool.refresh.parse([]).positionals.isEmpty)
        #expect(try SampleTool.refresh.parse(["u"]).positionals == ["u"])
        #expect(throws: UsageError.self) { try SampleTool.refresh.parse(["u", "v"]) }
    }
}

@Suite struct ResolutionTests {
    let root = SampleTool.root

    func parsed(_ words: [String]) -> ParsedArguments? {
        guard case .run(let arguments) = root.resolve(words) else { return nil }
        return arguments
    }

    @Test("the words lead to the command and its path")
    func leads() throws {
        let arguments = try #require(parsed(["layout", "solve", "a.json", "--width", "3"]))
        #expect(arguments.path == ["tool", "layout", "solve"])
        #expect(arguments.command.name == "solve")
        #expect(arguments.root.name == "tool")
        #expect(root.run(["layout", "solve", "a.json", "--width", "3", "--rtl"]) == 7)
        #expect(root.run(["report", "a=1", "b=2", "c=3"]) == 3)
    }

    // The help and usage texts these print are checked in HelpTests and, for the real tools,
    // against goldens (IntegrationTests); here only the statuses.
    @Test(
        "help, version and usage errors end with their status",
        arguments: [
            (["--help"], ExitStatus.ok), (["-h"], ExitStatus.ok), (["help"], ExitStatus.ok),
            (["help", "layout", "solve"], ExitStatus.ok), (["layout", "solve", "--width", "x", "-h"], ExitStatus.ok),
            (["--version"], ExitStatus.ok), ([], ExitStatus.usage), (["nonsense"], ExitStatus.usage),
            (["layout"], ExitStatus.usage), (["help", "nonsense"], ExitStatus.usage),
            (["layout", "solve", "a.json"], ExitStatus.usage),
            // A usage error the body finds is reported like one the parser finds.
            (["layout", "solve", "a.json", "--width", "20000"], ExitStatus.usage),
            // --version belongs to the root.
            (["layout", "--version"], ExitStatus.usage),
        ]
    )
    func statuses(_ words: [String], _ status: Int32) {
        #expect(root.run(words) == status)
    }

    @Test("--help after -- is an argument, not a request for help")
    func helpAfterDashes() {
        #expect(parsed(["refresh", "--", "--help"])?.positionals == ["--help"])
    }
}

import CommandTable
import Testing

/// The help text generated from a declaration.
@Suite struct HelpTests {
    @Test("a command's help: usage, arguments, options, examples, in that order")
    func leafHelp() {
        let help = SampleTool.solve.help(path: ["tool", "layout", "solve"])
        let expected = """
            usage: tool layout solve SPEC --width W [--items N,N,...] [--columns N] [--platform P] [--note TEXT]
                                     [--rtl]

            solve a spec

            arguments:
              SPEC             a spec file, or -

            options:
              --width W        width in points
              --items N,N,...  item counts
              --columns N      text width
              --platform P     geometry
              --note TEXT      anything
              --rtl            right to left
              -h, --help       show this help

            examples:
              tool layout solve spec.json --width 375
            """
        // The usage line breaks before the word that would pass 100 columns: the first line is 100
        // characters, so " [--rtl]" would end at 108; the next line starts under SPEC (column 26).
        // The help column is two spaces past the longest term: 2 + 15 ("--items N,N,...") + 2 = 19.
        #expect(help == expected)
    }

    @Test("a tool's help lists every command by group, with its path and positionals")
    func rootHelp() {
        let help = SampleTool.root.help(path: ["tool"])
        #expect(help.hasPrefix("usage: tool COMMAND ...\n\na sample tool\n\nlayout tools:\n  layout solve SPEC"))
        #expect(
            help.contains("\nother:\n  report ID=SIZE ...  report sizes\n  refresh [URL]       refresh one or all\n")
        )
        #expect(help.contains("  --version   show the version\n"))
        #expect(help.hasSuffix("Run 'tool COMMAND --help' for a command's options and examples."))
    }

    @Test("prose is rewrapped at 100 columns; indented lines stay as written; 100 000 stays whole")
    func wrapping() {
        let words = Array(repeating: "word", count: 30).joined(separator: " ")
        let command = Command(
            "x",
            abstract: "",
            discussion: "\(words) of 100 000 items\n\n  kept   as written\n  here",
            body: { _ throws(UsageError) in 0 }
        )
        let lines = command.help(path: ["x"]).split(separator: "\n", omittingEmptySubsequences: false)
        // 20 × "word" and 19 spaces fill 99 columns; the 21st word starts the next line.
        #expect(lines[2] == Array(repeating: "word", count: 20).joined(separator: " "))
        #expect(lines[3] == Array(repeating: "word", count: 10).joined(separator: " ") + " of 100 000 items")
        #expect(lines[5] == "  kept   as written")
        #expect(lines[6] == "  here")
    }
}

import CommandTable
import Foundation
import TestSupport
import Testing

/// The generated completion script, run in a real bash.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs /bin/bash"))
struct BashCompletionTests {
    let script = BashCompletion.script(for: SampleTool.root)

    /// Sources the script in `bash -c`, sets COMP_WORDS to `words` (the last one being completed)
    /// and returns COMPREPLY, one word a line.
    func complete(_ words: [String]) throws -> [String] {
        let scratch = try TemporaryDirectory(prefix: "hf-completion")
        defer { withExtendedLifetime(scratch) {} }  // removed on release
        let file = try scratch.write(script, to: "tool.bash")
        try scratch.write("", to: "spec.json")
        let bash = try ChildProcess.run(
            "/bin/bash",
            [
                "-c",
                #"source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tool; printf '%s\n' "${COMPREPLY[@]}""#,
                "bash", file,
            ] + words,
            directory: scratch.url.path
        )
        #expect(bash.status == 0, "\(bash.stderrText)")
        return bash.stdoutText.split(separator: "\n").map(String.init).sorted()
    }

    @Test("bash -n accepts the script")
    func syntax() throws {
        let scratch = try TemporaryDirectory(prefix: "hf-completion")
        defer { withExtendedLifetime(scratch) {} }  // removed on release
        let file = try scratch.write(script, to: "tool.bash")
        let bash = try ChildProcess.run("/bin/bash", ["-n"], stdin: .file(file))
        #expect(bash.status == 0, "\(bash.stderrText)")
    }

    @Test("completes commands, subcommands, options, choices and file names")
    func completes() throws {
        #expect(try complete(["tool", ""]) == ["completion", "help", "layout", "refresh", "report"])
        #expect(try complete(["tool", "re"]) == ["refresh", "report"])
        #expect(try complete(["tool", "layout", ""]) == ["help", "solve"])
        #expect(try complete(["tool", "layout", "solve", "a.json", "--p"]) == ["--platform"])
        #expect(try complete(["tool", "layout", "solve", "--platform", ""]) == ["ios14", "ios17"])
        #expect(try complete(["tool", "--"]) == ["--help", "--version"])
        // SPEC is a file: the directory holds the script and spec.json.
        #expect(try complete(["tool", "layout", "solve", "sp"]) == ["spec.json"])
        // A free value (--width W) offers nothing rather than file names.
        #expect(try complete(["tool", "layout", "solve", "--width", ""]) == [])
        #expect(try complete(["tool", "completion", ""]) == ["bash"])
    }
}

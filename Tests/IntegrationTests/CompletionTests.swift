import Foundation
import TestSupport
import Testing

/// `homefeedctl completion bash`, the script `make install` installs, run in a real bash.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs /bin/bash"))
struct CompletionTests {
    /// Where each test keeps the script, removed when the test ends.
    let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory(prefix: "hf-bash")
    }

    /// The generated script in a temporary file.
    func script() throws -> URL {
        let outcome = try CommandRunner(executable: "homefeedctl").run(["completion", "bash"])
        #expect(outcome.status == 0)
        return try URL(fileURLWithPath: scratch.write(outcome.stdout, to: "homefeedctl"))
    }

    /// Runs bash with `arguments` and returns its status and standard output.
    static func bash(_ arguments: [String]) throws -> CommandRunner.Outcome {
        try CommandRunner(executable: "/bin/bash").run(arguments)
    }

    /// What bash completes for `words` (the last one is being typed), sorted.
    static func complete(_ words: [String], with script: URL) throws -> [String] {
        let outcome = try bash(
            [
                "-c",
                #"source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _homefeedctl; printf '%s\n' "${COMPREPLY[@]}""#,
                "bash", script.path,
            ] + words
        )
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return outcome.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test("the script is valid bash and registers _homefeedctl for homefeedctl")
    func syntax() throws {
        let script = try self.script()
        #expect(try Self.bash(["-n", script.path]).status == 0)
        let registered = try Self.bash(["-c", #"source "$1"; complete -p homefeedctl"#, "bash", script.path])
        #expect(registered.stdout == "complete -F _homefeedctl homefeedctl\n")
    }

    @Test("completes commands, subcommands, each command's own options and their choices")
    func completes() throws {
        let script = try self.script()
        #expect(try Self.complete(["homefeedctl", "lay"], with: script) == ["layout"])
        #expect(try Self.complete(["homefeedctl", "s"], with: script) == ["sizes", "status", "store"])
        #expect(try Self.complete(["homefeedctl", "sizes", ""], with: script) == ["clear", "help", "list", "report"])
        #expect(
            try Self.complete(["homefeedctl", "layout", "solve", "x.json", "--pl"], with: script) == ["--platform"]
        )
        #expect(
            try Self.complete(["homefeedctl", "layout", "solve", "x.json", "--platform", ""], with: script)
                == ["ios14", "ios17"]
        )
        // check takes no --width (it chooses its widths): not offered.
        #expect(try Self.complete(["homefeedctl", "layout", "check", "x.json", "--w"], with: script) == [])
        #expect(try Self.complete(["homefeedctl", "layout", "solve", "x.json", "--w"], with: script) == ["--width"])
        #expect(try Self.complete(["homefeedctl", "history", "add", "--"], with: script).contains("--kind"))
        #expect(try !Self.complete(["homefeedctl", "history", "list", "--"], with: script).contains("--kind"))
        #expect(
            try Self.complete(["homefeedctl", "text", "measure", "abc", "--wrap", ""], with: script) == [
                "word", "word-char",
            ]
        )
    }
}

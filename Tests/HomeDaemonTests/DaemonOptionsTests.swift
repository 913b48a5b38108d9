import CommandTable
import Foundation
import HomeDaemon
import Testing

/// `homefeedd`'s flags and environment, parsed by its command table.
@Suite struct DaemonOptionsTests {
    @Test("defaults, then systemd's directory variables (the first of several), then flags")
    func precedence() throws {
        let bare = try DaemonOptions(arguments: [], environment: [:])
        #expect(bare.configDirectory.path == "/etc/homefeed")
        #expect(bare.stateDirectory.path == "/var/lib/homefeed")
        #expect(bare.cacheDirectory.path == "/var/cache/homefeed")
        #expect(bare.socketPath == "/run/homefeed/homefeed.sock")
        #expect(bare.logLevel == .info)
        #expect(bare.fetching && !bare.checkConfig)

        let systemd = [
            "STATE_DIRECTORY": "/var/lib/homefeed:/var/lib/other", "CACHE_DIRECTORY": "/var/cache/hf",
            "RUNTIME_DIRECTORY": "/run/hf",
        ]
        let managed = try DaemonOptions(arguments: [], environment: systemd)
        #expect(managed.stateDirectory.path == "/var/lib/homefeed")
        #expect(managed.cacheDirectory.path == "/var/cache/hf")
        #expect(managed.socketPath == "/run/hf/homefeed.sock")

        let flagged = try DaemonOptions(
            arguments: [
                "--config", "feeds", "--state-dir=/tmp/s", "--cache-dir", "/tmp/c", "--socket", "/tmp/h.sock",
                "--log-level", "debug", "--no-fetch", "--check-config",
            ],
            environment: systemd
        )
        #expect(flagged.configDirectory.lastPathComponent == "feeds")
        #expect(flagged.stateDirectory.path == "/tmp/s")
        #expect(flagged.cacheDirectory.path == "/tmp/c")
        #expect(flagged.socketPath == "/tmp/h.sock")
        #expect(flagged.logLevel == .debug)
        #expect(!flagged.fetching && flagged.checkConfig)
    }

    @Test(
        "usage errors name the option",
        arguments: [
            (["--bogus"], "unknown option --bogus"),
            (["--config"], "--config needs a value (DIR)"),
            (["--config", ""], #"--config: expected a path, got """#),
            (
                ["--log-level", "critical"],
                #"--log-level: expected error, warning, notice, info or debug, got "critical""#
            ),
            (["serve"], #"unexpected argument "serve" (takes no arguments)"#),
            // 1 + 107 = 108 bytes: sun_path holds 107 and the NUL.
            (
                ["--socket", "/" + String(repeating: "s", count: 107)],
                "--socket: longer than the 107 bytes a Unix socket path may have"
            ),
        ]
    )
    func usageErrors(_ arguments: [String], _ message: String) {
        #expect {
            _ = try DaemonOptions(arguments: arguments, environment: [:])
        } throws: { error in
            (error as? UsageError)?.description == message
        }
    }

    @Test("a 107-byte socket path is accepted")
    func longestSocket() throws {
        let path = "/" + String(repeating: "s", count: 106)
        #expect(try DaemonOptions(arguments: ["--socket", path], environment: [:]).socketPath == path)
    }
}

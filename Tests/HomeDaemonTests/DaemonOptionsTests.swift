import CommandTable
import Foundation
import HomeDaemon
import LogCore
import TestSupport
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

    @Test(
        "per user (not root, $XDG_RUNTIME_DIR set): the XDG base directories, /etc/homefeed until the user has a config"
    )
    func perUserDefaults() throws {
        let home = try TemporaryDirectory(prefix: "hfxdg")
        let user: [String: String] = ["HOME": home.path, "XDG_RUNTIME_DIR": "/run/user/1000"]
        let bare = try DaemonOptions(arguments: [], environment: user, userID: 1000)
        #expect(bare.scope == .user)
        // No ~/.config/homefeed yet: the shipped configuration.
        #expect(bare.configDirectory.path == "/etc/homefeed")
        #expect(bare.stateDirectory.path == home.path + "/.local/state/homefeed")
        #expect(bare.cacheDirectory.path == home.path + "/.cache/homefeed")
        #expect(bare.socketPath == "/run/user/1000/homefeed/homefeed.sock")

        try FileManager.default.createDirectory(
            atPath: home.path + "/.config/homefeed",
            withIntermediateDirectories: true
        )
        #expect(
            try DaemonOptions(arguments: [], environment: user, userID: 1000).configDirectory.path
                == home.path + "/.config/homefeed"
        )

        // The XDG variables win over $HOME; a relative one is ignored (XDG Base Directory spec).
        var xdg = user
        xdg["XDG_CONFIG_HOME"] = home.path + "/cfg"
        xdg["XDG_STATE_HOME"] = "/srv/state"
        xdg["XDG_CACHE_HOME"] = "relative/cache"
        let named = try DaemonOptions(arguments: [], environment: xdg, userID: 1000)
        #expect(named.configDirectory.path == "/etc/homefeed")  // <cfg>/homefeed does not exist
        #expect(named.stateDirectory.path == "/srv/state/homefeed")
        #expect(named.cacheDirectory.path == home.path + "/.cache/homefeed")

        // The user unit's systemd variables and flags still win.
        xdg["STATE_DIRECTORY"] = "/home/u/.local/state/homefeed"
        let managed = try DaemonOptions(arguments: ["--socket", "/tmp/u.sock"], environment: xdg, userID: 1000)
        #expect(managed.stateDirectory.path == "/home/u/.local/state/homefeed")
        #expect(managed.socketPath == "/tmp/u.sock")
    }

    @Test(
        "the system defaults for root, and for a user without $XDG_RUNTIME_DIR (the system unit)",
        arguments: [(0 as uid_t, "/run/user/0"), (998, ""), (998, "run/user/998")]
    )
    func systemScope(_ uid: uid_t, _ runtime: String) throws {
        let options = try DaemonOptions(
            arguments: [],
            environment: ["HOME": "/var/lib/homefeed", "XDG_RUNTIME_DIR": runtime],
            userID: uid
        )
        #expect(options.scope == .system)
        #expect(options.stateDirectory.path == "/var/lib/homefeed")
        #expect(options.socketPath == "/run/homefeed/homefeed.sock")
    }

    @Test("per user without $HOME or the XDG variables: a usage error naming the flag, not a guess")
    func perUserWithoutHome() {
        #expect {
            _ = try DaemonOptions(arguments: [], environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000)
        } throws: { error in
            (error as? UsageError)?.description
                == "--state-dir: needed, since its per-user default is under $HOME, which is unset"
        }
        #expect {
            _ = try DaemonOptions(
                arguments: ["--state-dir", "/tmp/s"],
                environment: ["XDG_RUNTIME_DIR": "/run/user/1000", "XDG_STATE_HOME": "/tmp/xdg-state"],
                userID: 1000
            )
        } throws: { error in
            (error as? UsageError)?.description
                == "--cache-dir: needed, since its per-user default is under $HOME, which is unset"
        }
    }

    @Test("per user without $HOME, the directories given by flags or systemd: it starts, on the system's configuration")
    func perUserWithoutHomeGivenFlags() throws {
        let options = try DaemonOptions(
            arguments: ["--state-dir", "/tmp/s"],
            environment: ["XDG_RUNTIME_DIR": "/run/user/1000", "CACHE_DIRECTORY": "/tmp/k"],
            userID: 1000
        )
        #expect(options.scope == .user)
        // No user configuration directory to look for: the system's, as when it does not exist.
        #expect(options.configDirectory.path == "/etc/homefeed")
        #expect(options.stateDirectory.path == "/tmp/s")
        #expect(options.cacheDirectory.path == "/tmp/k")
        #expect(options.socketPath == "/run/user/1000/homefeed/homefeed.sock")
    }

    @Test("a socket path too long from systemd's $RUNTIME_DIRECTORY names the variable, not --socket")
    func socketTooLongFromEnvironment() {
        #expect {
            _ = try DaemonOptions(
                arguments: [],
                environment: ["RUNTIME_DIRECTORY": "/" + String(repeating: "r", count: 100)]
            )
        } throws: { error in
            (error as? UsageError)?.description
                == "$RUNTIME_DIRECTORY/homefeed.sock: longer than the 107 bytes a Unix socket path may have"
        }
    }
}

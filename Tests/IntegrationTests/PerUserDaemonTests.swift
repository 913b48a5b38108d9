import Foundation
import TestSupport
import Testing

/// A per-user homefeed: the daemon's XDG defaults, its 0600 socket, and how `homefeedctl`
/// finds it (`--user`, `--system`, the per-user socket first) and says which socket it asked.
@Suite(.timeLimit(.minutes(2)))
struct PerUserDaemonTests {
    /// The environment of a user session in `root`: `$HOME` and `$XDG_RUNTIME_DIR` there,
    /// nothing else that picks a directory or a socket.
    static func session(home: String, runtime: String) -> [String: String] {
        var environment = SystemdTools.cleanEnvironment(["HOME": home, "XDG_RUNTIME_DIR": runtime])
        for key in [
            "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "STATE_DIRECTORY", "CACHE_DIRECTORY",
            "RUNTIME_DIRECTORY", "HOMEFEED_SOCKET", "CREDENTIALS_DIRECTORY",
        ] {
            environment[key] = nil
        }
        return environment
    }

    static func mode(_ path: String) -> (mode: mode_t, uid: uid_t)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode & 0o777, info.st_uid)
    }

    @Test(
        "a user's own daemon: XDG directories, socket 0600 in a 0700 directory; the user mutates, another uid cannot connect",
        .enabled(if: Host.canSwitchUser)
    )
    func ownDaemon() async throws {
        let root = try ScratchRoot()
        let home = root.path("home")
        let runtime = root.path("run")
        try FileManager.default.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root.configDirectory.path, toPath: home + "/.config/homefeed")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false)
        chmod(root.url.path, 0o711)
        chmod(runtime, 0o700)
        // nobody owns the session, as a user owns their home and /run/user/UID.
        let chown = try CommandRunner(executable: "/bin/chown").run(["-R", "65534:65534", home, runtime])
        try #require(chown.status == 0, "\(chown.stderr)")

        let nobody = ["--reuid", "65534", "--regid", "65534", "--clear-groups"]
        let environment = Self.session(home: home, runtime: runtime)
        let daemon = try ChildProcess(
            Host.setpriv,
            nobody + [SystemdTools.homefeedd, "--no-fetch"],
            environment: environment,
            log: root.logPath
        )
        let socket = runtime + "/homefeed/homefeed.sock"
        try #require(
            SystemdTools.waitForFile(socket),
            "no socket: \((try? String(contentsOfFile: root.logPath, encoding: .utf8)) ?? "")"
        )
        #expect(Self.mode(socket)?.mode == 0o600)
        #expect(Self.mode(socket)?.uid == 65534)
        #expect(Self.mode(runtime + "/homefeed")?.mode == 0o700)

        let ctl = BuiltProducts.path("homefeedctl")
        func homefeedctl(_ credentials: [String], _ arguments: [String]) async throws -> CommandRunner.Outcome {
            try await offPool {
                try CommandRunner(executable: Host.setpriv).run(
                    credentials + [ctl] + arguments,
                    environment: environment
                )
            }
        }
        // The user's own processes find the socket without flags and may mutate.
        let added = try await homefeedctl(nobody, ["history", "add", "mine"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/.local/state/homefeed/homefeed.sqlite"))
        #expect(Self.mode(home + "/.cache/homefeed") != nil)

        // Another uid cannot even connect (the directory and the socket are the user's alone).
        let other = ["--reuid", "65533", "--regid", "65533", "--clear-groups"]
        let refused = try await homefeedctl(other, ["status", "--user"])
        #expect(refused.status == 69)
        #expect(refused.stderr.hasSuffix("no permission to connect to \(socket) (your per-user socket, --user)\n"))

        daemon.signal(SIGTERM)
        #expect(daemon.wait() == 0)
    }

    @Test("homefeedctl's socket: --user, --system, the per-user socket when it exists, and the choice said on failure")
    func socketChoice() async throws {
        let harness = try DaemonHarness()
        try harness.start()
        let runtime = harness.root.appendingPathComponent("run").path
        let environment = ["XDG_RUNTIME_DIR": runtime, "HOMEFEED_SOCKET": ""]
        let ctl = CommandRunner(executable: "homefeedctl")
        let user = runtime + "/homefeed/homefeed.sock"

        // No per-user socket yet: the system one, and the message says so.
        let system = try await offPool { try ctl.run(["status"], environment: environment) }
        #expect(system.status == 69)
        #expect(
            system.stderr.contains(
                "no answer on /run/homefeed/homefeed.sock (the system socket; no per-user socket at \(user))"
            ),
            "\(system.stderr)"
        )
        let asked = try await offPool { try ctl.run(["status", "--user"], environment: environment) }
        #expect(asked.status == 69)
        #expect(asked.stderr.contains("no answer on \(user) (your per-user socket, --user)"), "\(asked.stderr)")

        // The per-user socket exists (a link to the running daemon's): found without flags.
        try FileManager.default.createDirectory(atPath: runtime + "/homefeed", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: user, withDestinationPath: harness.socketPath)
        let found = try await offPool { try ctl.run(["status", "--json"], environment: environment) }
        #expect(found.status == 0, "\(found.stderr)")
        let forced = try await offPool { try ctl.run(["status", "--system"], environment: environment) }
        #expect(forced.stderr.contains("(the system socket, --system)"), "\(forced.stderr)")

        let both = try await offPool { try ctl.run(["status", "--user", "--system"], environment: environment) }
        #expect(both.status == 64)
        #expect(both.stderr.contains("--socket, --user and --system each choose the socket: give one"))
        let sessionless = try await offPool { try ctl.run(["status", "--user"], environment: ["XDG_RUNTIME_DIR": ""]) }
        #expect(sessionless.status == 64)
        #expect(sessionless.stderr.contains("--user: $XDG_RUNTIME_DIR is not set"))
        harness.stop()
    }
}

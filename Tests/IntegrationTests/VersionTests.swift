import CommandTable
import Foundation
import HomefeedVersion
import Testing
import Varlink

/// The release version comes from `HomefeedVersion` alone: every executable's `--version`, the
/// daemon's `GetInfo`, and the places outside Swift that must repeat it (the Debian changelog,
/// the man pages' headers).
@Suite struct VersionTests {
    @Test("debian/changelog's newest entry is this version")
    func debianChangelog() throws {
        let changelog = try String(
            contentsOf: CommandRunner.packageRoot.appendingPathComponent("debian/changelog"),
            encoding: .utf8
        )
        // `homefeed (0.1.0) unstable; urgency=medium`: the version between the parentheses,
        // without an epoch (`1:`) or a Debian revision (`-1`), is the upstream version.
        let first = try #require(changelog.split(separator: "\n").first)
        let open = try #require(first.firstIndex(of: "("))
        let close = try #require(first.firstIndex(of: ")"))
        var version = first[first.index(after: open)..<close]
        if let colon = version.firstIndex(of: ":") { version = version[version.index(after: colon)...] }
        if let dash = version.lastIndex(of: "-") { version = version[..<dash] }
        #expect(first.hasPrefix("homefeed ("))
        #expect(String(version) == homefeedVersion)
    }

    @Test(
        "the man pages name this version in their header",
        arguments: ["homefeedctl.1", "homefeedd.8", "homefeed-thumbnail.8"]
    )
    func manPages(_ page: String) throws {
        let text = try String(
            contentsOf: CommandRunner.packageRoot.appendingPathComponent("docs/man/\(page)"),
            encoding: .utf8
        )
        let header = try #require(text.split(separator: "\n").first { $0.hasPrefix(".TH ") })
        #expect(header.contains("\"homefeed \(homefeedVersion)\""))
    }

    @Test(
        "every executable answers --version and --help with status 0",
        arguments: [
            "homefeedctl", "homefeedd", "homefeed-thumbnail", "homefeed-bench", "homefeed-fetch-probe",
            "homefeed-store-crashtest",
        ]
    )
    func executables(_ name: String) throws {
        let tool = CommandRunner(executable: name)
        let version = try tool.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "\(name) \(homefeedVersion)\n")
        let help = try tool.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: \(name) "))
        #expect(help.stderr.isEmpty)
    }

    @Test(
        "the internal test helpers refuse an unknown option with status 64 and their usage",
        arguments: ["homefeed-fetch-probe", "homefeed-store-crashtest"]
    )
    func helpersRefuseUnknownOptions(_ name: String) throws {
        let outcome = try CommandRunner(executable: name).run(["--no-such-option"])
        #expect(outcome.status == ExitStatus.usage)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.hasPrefix("\(name): unknown option --no-such-option\n"))
        #expect(outcome.stderr.contains("usage: \(name) "))
    }

    @Test("the daemon's org.varlink.service.GetInfo reports this version")
    func getInfo() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        defer { daemon.stop() }
        let info = try daemon.call("org.varlink.service.GetInfo")
        #expect(info["version"]?.stringValue == homefeedVersion)
    }
}

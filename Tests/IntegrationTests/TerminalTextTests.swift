import Foundation
import TestSupport
import Testing
import Varlink

/// Text from the daemon's replies reaches the terminal with every control replaced by U+FFFD,
/// each field on its own line; `--json` prints it as it is. A feed's title set the terminal's
/// title (OSC), recoloured it (CSI, also as C1 0x9B) and reversed lines (U+202E) before.
@Suite(.timeLimit(.minutes(2)))
struct TerminalTextTests {
    /// One of each class: OSC and CSI sequences, tab, newline, CR, DEL, C1 (0x80, 0x9B), a bidi
    /// embedding, override and isolates, the line and paragraph separators.
    static let hostile =
        "a\u{1B}]0;pwned\u{07}b\u{1B}[31mc\td\ne\r\u{7F}f\u{80}g\u{9B}h\u{202A}i\u{202E}j\u{2066}k\u{2069}l"
        + "\u{2028}m\u{2029}n"
    static let shown =
        "a\u{FFFD}]0;pwned\u{FFFD}b\u{FFFD}[31mc\u{FFFD}d\u{FFFD}e\u{FFFD}\u{FFFD}f\u{FFFD}g\u{FFFD}h\u{FFFD}i"
        + "\u{FFFD}j\u{FFFD}k\u{FFFD}l\u{FFFD}m\u{FFFD}n"

    static let notice: JSONValue = .object([
        "published": "2026-01-02T03:04:05Z", "sourceTitle": "src", "title": .string(hostile),
    ])

    static let status: [String: JSONValue] = [
        "version": 3, "startedAt": .string(hostile), "notices": 1, "serviceLinks": 0, "history": 0, "subscribers": 0,
        "sources": [
            [
                "url": .string(hostile), "entries": 1, "failures": 2, "lastError": .string(hostile),
                "nextAttempt": "2026-01-02T03:04:05Z",
            ]
        ],
        "images": [
            "originals": 0, "renditions": 0, "cacheBytes": 0, "errors": [["url": "u", "error": .string(hostile)]],
        ],
    ]

    static let manifest: [String: JSONValue] = [
        "version": 1, "etag": .string(hostile),
        "manifest": [
            "container": ["width": 375, "height": 812, "scale": 2], "contentSize": ["width": 375, "height": 100],
            "sections": [
                [
                    "id": .string(hostile), "frame": ["x": 0, "y": 0, "width": 375, "height": 100],
                    "header": [
                        "frame": ["x": 0, "y": 0, "width": 375, "height": 20], "content": ["title": .string(hostile)],
                    ],
                    "items": [
                        [
                            "kind": "history", "frame": ["x": 0, "y": 20, "width": 375, "height": 80],
                            "content": ["title": .string(hostile), "at": "2026-01-02T03:04:05Z"],
                        ]
                    ],
                ]
            ],
        ],
    ]

    /// Runs homefeedctl against a fake daemon answering `methods`.
    func run(_ words: [String], _ methods: [String: VarlinkMethod]) async throws -> CommandRunner.Outcome {
        let daemon = try FakeDaemon(methods)
        let outcome = await offPool {
            Result { try CommandRunner(executable: "homefeedctl").run(words + ["--socket", daemon.socket]) }
        }
        await daemon.shutdown()
        return try outcome.get()
    }

    static func answering(_ parameters: [String: JSONValue]) -> VarlinkMethod {
        VarlinkMethod { _ in .parameters(parameters) }
    }

    /// The scalars a terminal would act on, newlines ending lines apart.
    func unsafe(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter {
            $0 != "\n"
                && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x2028...0x202E).contains($0.value)
                    || (0x2066...0x2069).contains($0.value))
        }
    }

    @Test("notices prints a hostile title with each control replaced, on its own line; --json as it is")
    func notices() async throws {
        let methods = ["ListNotices": Self.answering(["notices": [Self.notice]])]
        let human = try await run(["notices"], methods)
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.stdout == "2026-01-02T03:04:05Z  src             \(Self.shown)\n")
        let json = try await run(["notices", "--json"], methods)
        #expect(json.status == 0, "\(json.stderr)")
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let notices = try #require(reply["notices"] as? [[String: Any]])
        #expect(notices.first?["title"] as? String == Self.hostile)
    }

    @Test(
        "status, manifest, history list, watch and preview print the reply's text with its controls replaced",
        arguments: [
            (["status"], "GetStatus", status, 8, 0),
            (["manifest"], "GetManifest", manifest, 3, 0),
            (["history", "list"], "GetManifest", manifest, 1, 0),
            // The fake daemon ends the subscription with its first reply.
            (["watch"], "GetManifest", manifest, 1, 69),
            (["preview", "--columns", "80"], "GetManifest", manifest, 1 + 12, 0),
        ]
    )
    func replies(_ words: [String], _ method: String, _ reply: [String: JSONValue], _ lines: Int, _ status: Int32)
        async throws
    {
        let outcome = try await run(words, [method: Self.answering(reply)])
        #expect(outcome.status == status, "\(outcome.stderr)")
        #expect(unsafe(outcome.stdout).isEmpty, "\(outcome.stdout.unicodeScalars.map(\.value))")
        #expect(outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == lines + 1)
        // The text drawing cuts titles to their boxes; every other field is printed whole.
        #expect(outcome.stdout.contains(words[0] == "preview" ? String(Self.shown.prefix(20)) : Self.shown))
    }

    @Test("an error reply quoting hostile text is printed with its controls replaced, exit 1")
    func errorReply() async throws {
        let failing = VarlinkMethod { _ throws(VarlinkError) in
            throw VarlinkError("io.homefeed.InternalError", parameters: ["reason": .string(Self.hostile)])
        }
        let outcome = try await run(["status"], ["GetStatus": failing])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("homefeedctl: io.homefeed.InternalError {"))
        #expect(unsafe(outcome.stderr).isEmpty, "\(outcome.stderr.unicodeScalars.map(\.value))")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }
}

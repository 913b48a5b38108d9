import Foundation
import TestSupport
import Testing
import Varlink

/// An authenticated source on the real `homefeedd`: the secret comes from
/// `$CREDENTIALS_DIRECTORY`, reaches the feed server, and appears in no log line or reply.
@Suite(.timeLimit(.minutes(2)))
struct CredentialTests {
    @Test("a credential file authenticates a source; the secret is never logged or served")
    func authenticatedSource() async throws {
        let server = try await FixtureServer.shared.value
        let key = "cred-\(UInt32.random(in: 0...UInt32.max))"
        let harness = try DaemonHarness()
        let credentials = harness.root.appendingPathComponent("credentials")
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        try Data("bearer 7op-s3cret\n".utf8).write(to: credentials.appendingPathComponent("feed-token"))
        let url = server.url("/auth/\(key)")
        let opml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>private</title></head><body>
              <outline type="rss" text="Private" xmlUrl="\(url)" credential="feed-token"/>
            </body></opml>
            """
        try Data(opml.utf8).write(to: harness.configDirectory.appendingPathComponent("sources.opml"))
        try harness.start(
            ["--no-fetch", "--log-level", "debug"],
            environment: ["CREDENTIALS_DIRECTORY": credentials.path]
        )
        let refresh = try harness.call("io.homefeed.Refresh")
        #expect(refresh["changed"]?.intValue == 1)
        let status = try harness.call("io.homefeed.GetStatus")
        let source = status["sources"]?.arrayValue?.first?.objectValue
        #expect(source?["lastError"] == .null || source?["lastError"] == nil)
        #expect(try await server.requests(key).map(\.authorization) == ["Bearer 7op-s3cret"])
        #expect(harness.stop() == 0)
        #expect(!harness.log().contains("7op-s3cret"))
        #expect(!"\(status)".contains("7op-s3cret"))
    }
}

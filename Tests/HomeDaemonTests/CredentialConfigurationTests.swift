import Foundation
import HomeDaemon
import HomeFetch
import TestSupport
import Testing

/// `credential` attributes in sources.opml, read from `$CREDENTIALS_DIRECTORY` at load time.
@Suite struct CredentialConfigurationTests {
    /// A copy of feeds/ with a sources list of one authenticated source, and a credentials
    /// directory; both removed with the value.
    struct Setup {
        let sample: SampleConfiguration
        var config: URL { sample.configDirectory }
        let credentials: URL

        init(credential: String = "feed-token", url: String = "https://feeds.example/private.xml") throws {
            sample = try SampleConfiguration(prefix: "hf-cred")
            credentials = try sample.root.directory("credentials")
            let opml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <opml version="2.0"><head><title>t</title></head><body>
                  <outline type="rss" text="Private" xmlUrl="\(url)" credential="\(credential)"/>
                </body></opml>
                """
            try Data(opml.utf8).write(to: config.appendingPathComponent("sources.opml"))
        }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: credentials.appendingPathComponent(name))
        }

    }

    @Test("a source's credential is read from the credentials directory and never printed")
    func read() async throws {
        let setup = try Setup()
        try setup.write("feed-token", "bearer s3cret\n")
        let loaded = try await LoadedConfiguration.load(
            directory: setup.config,
            credentials: CredentialStore(directory: setup.credentials)
        )
        let source = try #require(loaded.sources.sources.first)
        #expect(source.credentialName == "feed-token")
        #expect(source.credential == FetchCredential(name: "feed-token", text: "bearer s3cret"))
        #expect(!"\(source)".contains("s3cret"))
    }

    struct MissingCase: Sendable, CustomTestStringConvertible {
        var directory: Bool
        var content: String?
        var url = "https://feeds.example/private.xml"
        var reason: String
        var testDescription: String { reason }
    }

    @Test(
        "a credential that cannot be used is a configuration error at the outline's line",
        arguments: [
            MissingCase(
                directory: false,
                content: nil,
                reason: "needs $CREDENTIALS_DIRECTORY (LoadCredential= in the unit)"
            ),
            MissingCase(directory: true, content: nil, reason: "is not a readable file in $CREDENTIALS_DIRECTORY"),
            MissingCase(
                directory: true,
                content: "digest a b",
                reason: "is not \"bearer TOKEN\", \"basic USER:PASSWORD\" or a bare token on one line"
            ),
            MissingCase(
                directory: true,
                content: "s3cret",
                url: "file:///srv/private.xml",
                reason: "cannot be sent to a file: source"
            ),
        ]
    )
    func unusable(_ c: MissingCase) async throws {
        let setup = try Setup(url: c.url)
        if let content = c.content { try setup.write("feed-token", content) }
        do {
            _ = try await LoadedConfiguration.load(
                directory: setup.config,
                credentials: CredentialStore(directory: c.directory ? setup.credentials : nil)
            )
            Issue.record("accepted an unusable credential")
        } catch {
            // Line 3: the XML declaration, <opml>, then the outline.
            #expect(error.line == 3)
            #expect(error.description.hasSuffix("credential \"feed-token\" \(c.reason)"), "\(error)")
            #expect(!error.description.contains("digest a b"))
        }
    }
}

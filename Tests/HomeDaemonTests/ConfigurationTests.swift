import Foundation
import HomeDaemon
import HomeFetch
import HomeLayout
import TestSupport
import Testing
import ThumbnailProtocol

@Suite struct ConfigurationTests {
    static let sample = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("feeds/homefeedd.conf")

    @Test("the sample homefeedd.conf reads into four profiles and four bindings")
    func sampleFile() throws {
        let settings = try DaemonSettings(
            ConfigFile(path: "homefeedd.conf", bytes: [UInt8](try Data(contentsOf: Self.sample)))
        )
        #expect(settings.refreshInterval == 900)
        #expect(settings.user == UserProfile(name: "김홈피드", subtitle: "컴퓨터공학과 · 최근 활동"))
        #expect(settings.profiles.map(\.name) == ["phone", "phone-large", "tablet", "kiosk"])
        #expect(
            settings.profiles[0].environment.safeAreaInsets == EdgeInsets(top: 47, leading: 0, bottom: 34, trailing: 0)
        )
        let main = try #require(settings.bindings.first { $0.sectionID == "mainService" })
        #expect(
            main.sources == [
                .init(.notices(sourceURL: nil), limit: 1, isExact: true),
                .init(.services(category: "main-service"), limit: 3),
            ]
        )
        #expect(settings.bindings.first { $0.sectionID == "appService" }?.header == .title("앱 서비스"))
    }

    @Test(
        "mistakes name the file, line and key",
        arguments: [
            BadConfig(
                text: "[daemon]\nrefresh-interval = soon\n",
                message: "c.conf:2: refresh-interval: expected a duration"
            ),
            BadConfig(
                text: "[daemon]\nrefresh-interval = 90s\n",
                message: "c.conf:2: refresh-interval: expected a duration from 5m to 1d, got \"90s\""
            ),
            BadConfig(
                text: "[daemon]\nrefresh-interval = 25h\n",
                message: "c.conf:2: refresh-interval: expected a duration from 5m to 1d, got \"25h\""
            ),
            BadConfig(text: "[daemon]\nbogus = 1\n", message: "c.conf:2: bogus: unknown key in [daemon]"),
            BadConfig(text: "refresh-interval = 5m\n", message: "c.conf:1: refresh-interval: key outside of a [block]"),
            BadConfig(text: "[wat]\n", message: "c.conf:1: unknown block [wat]"),
            BadConfig(
                text: "[profile p]\nwidth = 0\nheight = 10\n",
                message: "c.conf:1: [profile p]: width and height"
            ),
            BadConfig(text: "[profile p]\nwidth = 10\n", message: "c.conf:1: [profile p] needs width and height"),
            BadConfig(
                text: "[profile p]\nwidth = 10\nheight = 10\nplatform = ios13\n",
                message: "c.conf:4: platform: expected ios17 or ios14, got \"ios13\""
            ),
            BadConfig(text: "[section s]\nitems = bogus\n", message: "c.conf:2: items: bogus: expected history"),
            BadConfig(text: "[section s]\nitems = notices!\n", message: "c.conf:2: items: notices!: '!' needs a limit"),
            // A run reads at most 1000 rows, and no more history than history-limit keeps.
            BadConfig(
                text: "[section s]\nitems = notices:1001!\n",
                message: "c.conf:2: items: notices:1001!: limit must be 1 to 1000"
            ),
            BadConfig(
                text: "[section s]\nitems = services/x:3 history:1001\n",
                message: "c.conf:2: items: history:1001: limit must be 1 to 1000"
            ),
            BadConfig(
                text: "[section s]\nitems = history:3\n\n[section t]\nitems = history:201!\n",
                message: "c.conf:5: items: history:201: more than the 200 events history-limit keeps"
            ),
            BadConfig(
                text: "[section s]\nitems = history:60\n[daemon]\nhistory-limit = 50\n",
                message: "c.conf:2: items: history:60: more than the 50 events history-limit keeps"
            ),
            BadConfig(text: "[section s]\nempty = never\n", message: "c.conf:2: empty: expected header-only"),
            BadConfig(text: "[daemon]\nuser-name = a\nuser-name = b\n", message: "c.conf:3: user-name: given twice"),
            BadConfig(text: "[daemon\n", message: "c.conf:1: expected ']'"),
            BadConfig(text: "[section s]\nimage = cover\n", message: "c.conf:2: image: expected fill, fit or none"),
            BadConfig(text: "[section s]\nimage-size = 48\n", message: "c.conf:2: image-size: expected WIDTHxHEIGHT"),
            BadConfig(text: "[images]\nformat = jpeg\n", message: "c.conf:2: format: expected auto, png or webp"),
            BadConfig(text: "[images]\nhelper = bin/h\n", message: "c.conf:2: helper: expected an absolute path"),
            BadConfig(
                text: "[images]\nmax-megapixels = 0\n",
                message: "c.conf:2: max-megapixels: expected a whole number"
            ),
            BadConfig(text: "[images]\nenabled = maybe\n", message: "c.conf:2: enabled: expected yes or no"),
            BadConfig(text: "[images x]\n", message: "c.conf:1: [images] takes no name"),
            BadConfig(text: "[daemon]\njust words\n", message: "c.conf:2: expected key = value"),
            BadConfig(
                text: "[daemon]\nmax-connections = 20\nreserved-connections = 20\n",
                message: "c.conf:3: reserved-connections: 20 reserved of 20 connections"
            ),
            BadConfig(
                text: "[daemon]\nmax-connections = 20\nreserved-connections = 4\nmax-subscriptions = 16\n",
                message: "c.conf:4: max-subscriptions: max-subscriptions (16) must be below"
            ),
            BadConfig(
                text: "[daemon]\nmax-connections-per-uid = 8\nmax-subscriptions-per-uid = 8\n",
                message: "c.conf:3: max-subscriptions-per-uid: max-subscriptions-per-uid (8) must be below"
            ),
            BadConfig(text: "[daemon]\nmax-connections = 3\n", message: "c.conf:2: max-connections: expected a whole"),
            BadConfig(text: "[daemon]\nstore-busy-timeout = 2m\n", message: "c.conf:2: store-busy-timeout: expected"),
            BadConfig(
                text: "[daemon]\nstore-busy-timeout = 0.5s\n",
                message: "c.conf:2: store-busy-timeout: expected a duration from 1s to 60s"
            ),
            // A second block would start from the defaults again, undoing the first.
            BadConfig(
                text: "[fetch]\nmax-body-size = 64M\n[fetch]\nconcurrency = 8\n",
                message: "c.conf:3: [fetch] declared twice"
            ),
            BadConfig(text: "[daemon]\n[images]\n[daemon]\n", message: "c.conf:3: [daemon] declared twice"),
            BadConfig(text: "[images]\n[images]\n", message: "c.conf:2: [images] declared twice"),
            BadConfig(
                text: "[profile p]\nwidth = 10\nheight = 10\nsafe-area = 2000000,0,0,0\n",
                message: "c.conf:4: safe-area: expected four numbers from 0 to 1000000"
            ),
        ]
    )
    func errors(_ c: BadConfig) {
        c.expectRefused()
    }

    @Test("[images] and the image keys of [section ID] are read")
    func images() throws {
        let settings = try DaemonSettings(
            ConfigFile(
                path: "c.conf",
                text: """
                    [images]
                    format = png
                    max-image-size = 2M
                    max-megapixels = 12
                    max-cache-size = 64M
                    helper-timeout = 10s
                    [section mainService]
                    items = notices:1
                    image = fit
                    image-size = 64x40
                    """
            )
        )
        #expect(settings.images.format == .png)
        #expect(settings.images.maxImageBytes == 2 << 20)
        #expect(settings.images.maxPixels == 12_000_000)
        #expect(settings.images.maxCacheBytes == 64 << 20)
        #expect(settings.images.helperTimeout == 10)
        let main = try #require(settings.bindings.first { $0.sectionID == "mainService" })
        #expect(main.image == ImageSlot(mode: .fit, width: 64, height: 40))
    }

    @Test("connection limits not given follow max-connections")
    func derivedLimits() throws {
        let settings = try DaemonSettings(ConfigFile(path: "c.conf", text: "[daemon]\nmax-connections = 40\n"))
        #expect(settings.maxConnections == 40)
        #expect(settings.maxConnectionsPerUID == 10)  // 40 / 4
        #expect(settings.reservedConnections == 2)  // 40 / 16, rounded down
        #expect(settings.maxSubscriptions == 20)  // 40 / 2
        #expect(settings.maxSubscriptionsPerUID == 5)  // 10 / 2
        let defaults = DaemonSettings()
        // 256 / 4, 256 / 16, 256 / 2, 64 / 2: the same rule as above.
        let derived: [Int] = [
            defaults.maxConnectionsPerUID, defaults.reservedConnections, defaults.maxSubscriptions,
            defaults.maxSubscriptionsPerUID,
        ]
        #expect(derived == [64, 16, 128, 32])
        #expect(defaults.storeBusyTimeout == 5)
    }

    @Test("a sources.opml with a source nothing can fetch is refused, naming its line")
    func unsupportedSource() async throws {
        let sample = try SampleConfiguration(prefix: "hf-cfg")
        let directory = sample.configDirectory
        let opml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>t</title></head><body>
              <outline type="rss" text="Local" xmlUrl="samples/notices-ko.xml"/>
              <outline type="link" text="Links" url="ftp://example.test/links.opml"/>
            </body></opml>
            """
        try Data(opml.utf8).write(to: directory.appendingPathComponent("sources.opml"))
        do {
            _ = try await LoadedConfiguration.load(directory: directory)
            Issue.record("accepted an ftp:// source")
        } catch {
            // Line 4: the XML declaration, <opml>, the Local outline, then this one.
            #expect(error.line == 4)
            #expect(
                error.description.hasSuffix(
                    "sources.opml:4: outline \"Links\": ftp://example.test/links.opml: "
                        + "unsupported URL scheme; expected http:, https: or file:"
                )
            )
        }
    }

    @Test("a layout whose groups repeat at a negative stride is refused, however few items its itemCount lays out")
    func negativeGroupStride() async throws {
        let sample = try SampleConfiguration(prefix: "hf-cfg")
        let url = sample.configDirectory.appendingPathComponent("layout.json")
        let sampleLayout = try Data(contentsOf: url)
        /// The sample layout with the history section's spacing set: its three items fill one
        /// 72-high group, so no spacing is used at its own itemCount.
        func load(spacing: Double) async throws(ConfigError) -> LoadedConfiguration {
            do {
                var spec = try #require(try JSONSerialization.jsonObject(with: sampleLayout) as? [String: Any])
                var sections = try #require(spec["sections"] as? [[String: Any]])
                #expect(sections[0]["itemCount"] as? Int == 3)
                sections[0]["interGroupSpacing"] = spacing
                spec["sections"] = sections
                try JSONSerialization.data(withJSONObject: spec).write(to: url)
            } catch {
                Issue.record("cannot write the layout: \(error)")
            }
            return try await LoadedConfiguration.load(directory: sample.configDirectory)
        }
        do {
            _ = try await load(spacing: -73)
            Issue.record("accepted groups 72 high spaced -73")
        } catch {
            #expect(error.isLayout)
            #expect(
                error.description.hasSuffix(
                    "layout.json: sections[0].interGroupSpacing: at profile phone: a group 72 pt long along vertical "
                        + "with interGroupSpacing -73 repeats every -1 pt: each group makes the section shorter, so "
                        + "enough items would make its content length negative (UIKit refuses a negative content length)"
                ),
                "\(error.description)"
            )
        }
        // Groups that only overlap (or touch, at -72) stay valid.
        #expect(try await load(spacing: -72).spec.sections[0].interGroupSpacing == -72)
    }

    @Test("a source URL with a password is refused at its line, pointing at credential=, never showing the password")
    func sourceWithUserinfo() async throws {
        let sample = try SampleConfiguration(prefix: "hf-cfg")
        let directory = sample.configDirectory
        let opml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>t</title></head><body>
              <outline type="rss" text="Local" xmlUrl="samples/notices-ko.xml"/>
              <outline type="rss" text="Staff" xmlUrl="https://staff:s3cret@intra.example/feed.xml"/>
            </body></opml>
            """
        try Data(opml.utf8).write(to: directory.appendingPathComponent("sources.opml"))
        // A run naming the feed reports the outline, not a run without a source.
        try Data("[section mainService]\nitems = notices@https://staff:s3cret@intra.example/feed.xml\n".utf8)
            .write(to: directory.appendingPathComponent("homefeedd.conf"))
        do {
            _ = try await LoadedConfiguration.load(directory: directory)
            Issue.record("accepted a source URL with a password")
        } catch {
            #expect(error.line == 4)
            #expect(
                error.description.hasSuffix(
                    "sources.opml:4: outline \"Staff\": https://intra.example/feed.xml: a user name or password in the "
                        + "URL is refused (it would show in logs and status); remove it and name a credential file "
                        + "with credential=\"NAME\" (docs/configuration.md, \"Authenticated sources\")"
                ),
                "\(error.description)"
            )
            #expect(!error.description.contains("s3cret"))
        }
    }

    @Test("notices@URL must name a feed of the sources list; a port read as a limit is read back as the URL")
    func noticeRunURLs() async throws {
        let sample = try SampleConfiguration(prefix: "hf-cfg")
        let directory = sample.configDirectory
        let opml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>t</title></head><body>
              <outline type="rss" text="Intranet" xmlUrl="http://intra.example:808"/>
              <outline type="rss" text="Other port" xmlUrl="http://intra.example:18080"/>
              <outline type="rss" text="Local" xmlUrl="samples/notices-ko.xml"/>
            </body></opml>
            """
        try Data(opml.utf8).write(to: directory.appendingPathComponent("sources.opml"))
        let settings = directory.appendingPathComponent("homefeedd.conf")
        let items =
            "notices@http://intra.example:808 notices@http://intra.example:18080 notices@samples/notices-ko.xml:2"
        try Data("[section mainService]\nitems = \(items)\n".utf8).write(to: settings)
        let loaded = try await LoadedConfiguration.load(directory: directory)
        let main = try #require(loaded.settings.bindings.first { $0.sectionID == "mainService" })
        // As the list resolved it: the run shows that feed's notices.
        let local = try #require(loaded.sources.sources.first { $0.url.hasSuffix("samples/notices-ko.xml") }?.url)
        #expect(
            main.sources == [
                .init(.notices(sourceURL: "http://intra.example:808")),
                .init(.notices(sourceURL: "http://intra.example:18080")),
                .init(.notices(sourceURL: local), limit: 2),
            ]
        )

        // A URL no outline has would leave the run empty for good: refused, naming the line.
        try Data("[daemon]\nuser-name = x\n[section mainService]\nitems = notices@https://typo.example/f.xml:3\n".utf8)
            .write(to: settings)
        do {
            _ = try await LoadedConfiguration.load(directory: directory)
            Issue.record("accepted a notices@URL of no source")
        } catch {
            #expect(
                error.description.hasSuffix(
                    "homefeedd.conf:4: items: notices@https://typo.example/f.xml: no rss outline of the sources list has this URL"
                ),
                "\(error.description)"
            )
        }
    }

    @Test("a file saved on Windows (CRLF, a byte-order mark) reads as the same file saved on Linux")
    func windowsLineEndings() throws {
        let unix = try String(contentsOf: Self.sample, encoding: .utf8)
        let windows = [0xEF, 0xBB, 0xBF] + Array(unix.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        let fromWindows = try DaemonSettings(ConfigFile(path: "c.conf", bytes: windows))
        #expect(fromWindows == (try DaemonSettings(ConfigFile(path: "c.conf", text: unix))))
        // Not read as one line (one comment): the sample's values are there.
        #expect(fromWindows.user.name != DaemonSettings().user.name)
        // Mixed endings keep their lines apart too.
        let mixed = try DaemonSettings(
            ConfigFile(path: "c.conf", text: "[daemon]\r\nuser-name = x\r\nhistory-limit = 5\n")
        )
        #expect(mixed.user.name == "x")
        #expect(mixed.historyLimit == 5)
    }

    @Test("a line that is not UTF-8 is refused naming it, not read as U+FFFD")
    func invalidUTF8() {
        // "관리자" in EUC-KR.
        let bytes =
            Array("[daemon]\nuser-subtitle = ok\nuser-name = ".utf8) + [0xB0, 0xFC, 0xB8, 0xAE, 0xC0, 0xDA, 0x0A]
        #expect {
            _ = try DaemonSettings(ConfigFile(path: "c.conf", bytes: bytes))
        } throws: { error in
            (error as? ConfigError)?.description == "c.conf:3: not valid UTF-8"
        }
    }

    @Test("refresh-interval takes the scheduler's own bounds, 5m and 1d included")
    func refreshIntervalBounds() throws {
        let bounds = FetchSchedulerConfiguration()
        for (text, seconds) in [("5m", 300.0), ("1d", 86_400), ("300", 300)] {
            let settings = try DaemonSettings(
                ConfigFile(path: "c.conf", text: "[daemon]\nrefresh-interval = \(text)\n")
            )
            #expect(settings.refreshInterval == seconds)
        }
        #expect(bounds.minimumInterval == 300)
        #expect(bounds.maximumInterval == 86_400)
    }

    @Test("an empty file gives the defaults")
    func defaults() throws {
        let settings = try DaemonSettings(ConfigFile(path: "c.conf", text: "# nothing\n"))
        #expect(settings == DaemonSettings())
        #expect(settings.profiles == Profile.defaults)
    }
}

extension ConfigurationTests {
    @Test("a profile can name the iOS geometry of its clients; without it the layout's applies")
    func profilePlatform() throws {
        let text =
            "[profile old]\nwidth = 375\nheight = 812\nplatform = ios14\n[profile new]\nwidth = 375\nheight = 812\n"
        let settings = try DaemonSettings(ConfigFile(path: "c.conf", text: text))
        #expect(settings.profiles.map(\.environment.platform) == [.ios14, nil])
    }
}

import Foundation
import HomeDaemon
import HomeLayout
import Testing
import ThumbnailProtocol

@Suite struct ConfigurationTests {
    @Test("the sample homefeedd.conf reads into four profiles and four bindings")
    func sampleFile() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("feeds/homefeedd.conf")
        let settings = try DaemonSettings(
            ConfigFile(path: "homefeedd.conf", text: String(decoding: try Data(contentsOf: url), as: UTF8.self))
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

    struct BadCase: Sendable, CustomTestStringConvertible {
        var text: String
        var message: String
        var testDescription: String { message }
    }

    @Test(
        "mistakes name the file, line and key",
        arguments: [
            BadCase(
                text: "[daemon]\nrefresh-interval = soon\n",
                message: "c.conf:2: refresh-interval: expected a duration"
            ),
            BadCase(text: "[daemon]\nbogus = 1\n", message: "c.conf:2: bogus: unknown key in [daemon]"),
            BadCase(text: "refresh-interval = 5m\n", message: "c.conf:1: refresh-interval: key outside of a [block]"),
            BadCase(text: "[wat]\n", message: "c.conf:1: unknown block [wat]"),
            BadCase(text: "[profile p]\nwidth = 0\nheight = 10\n", message: "c.conf:1: [profile p]: width and height"),
            BadCase(text: "[profile p]\nwidth = 10\n", message: "c.conf:1: [profile p] needs width and height"),
            BadCase(text: "[section s]\nitems = bogus\n", message: "c.conf:2: items: bogus: expected history"),
            BadCase(text: "[section s]\nitems = notices!\n", message: "c.conf:2: items: notices!: '!' needs a limit"),
            BadCase(text: "[section s]\nempty = never\n", message: "c.conf:2: empty: expected header-only"),
            BadCase(text: "[daemon]\nuser-name = a\nuser-name = b\n", message: "c.conf:3: user-name: given twice"),
            BadCase(text: "[daemon\n", message: "c.conf:1: expected ']'"),
            BadCase(text: "[section s]\nimage = cover\n", message: "c.conf:2: image: expected fill, fit or none"),
            BadCase(text: "[section s]\nimage-size = 48\n", message: "c.conf:2: image-size: expected WIDTHxHEIGHT"),
            BadCase(text: "[images]\nformat = jpeg\n", message: "c.conf:2: format: expected auto, png or webp"),
            BadCase(text: "[images]\nhelper = bin/h\n", message: "c.conf:2: helper: expected an absolute path"),
            BadCase(
                text: "[images]\nmax-megapixels = 0\n",
                message: "c.conf:2: max-megapixels: expected a whole number"
            ),
            BadCase(text: "[images]\nenabled = maybe\n", message: "c.conf:2: enabled: expected yes or no"),
            BadCase(text: "[images x]\n", message: "c.conf:1: [images] takes no name"),
            BadCase(text: "[daemon]\njust words\n", message: "c.conf:2: expected key = value"),
        ]
    )
    func errors(_ c: BadCase) {
        do {
            _ = try DaemonSettings(ConfigFile(path: "c.conf", text: c.text))
            Issue.record("accepted: \(c.text)")
        } catch {
            #expect(error.description.hasPrefix(c.message), "\(error.description)")
        }
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

    @Test("an empty file gives the defaults")
    func defaults() throws {
        let settings = try DaemonSettings(ConfigFile(path: "c.conf", text: "# nothing\n"))
        #expect(settings == DaemonSettings())
        #expect(settings.profiles == Profile.defaults)
    }
}

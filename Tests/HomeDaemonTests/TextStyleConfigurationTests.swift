import Foundation
import HomeDaemon
import HomeLayout
import TestSupport
import Testing
import TextMeasure
import ThumbnailProtocol

/// `[text NAME]` blocks and the `text` key of `[section ID]` (`docs/configuration.md`).
@Suite struct TextStyleConfigurationTests {
    @Test("the sample measures the mainService headline in NanumGothic Bold 17")
    func sample() throws {
        let url = PackageRoot.url.appendingPathComponent("feeds/homefeedd.conf")
        let settings = try DaemonSettings(
            ConfigFile(path: "homefeedd.conf", text: String(decoding: try Data(contentsOf: url), as: UTF8.self))
        )
        let headline = try #require(settings.textStyles.first)
        #expect(settings.textStyles.count == 1)
        #expect(headline.name == "headline")
        #expect(
            headline.style == TextStyle(font: "NanumGothic Bold 17", lineSpacing: 1.3, maxLines: 2, wrap: .wordChar)
        )
        #expect(headline.padding == EdgeInsets(top: 3, leading: 0, bottom: 3, trailing: 0))
        #expect(headline.field == .title)
        #expect(settings.textSlots["mainService"]?.style(forSlot: 0) == "headline")
        #expect(settings.textSlots["mainService"]?.style(forSlot: 1) == nil)
    }

    @Test("the quick read before start finds the bound styles, and nothing in a missing or broken file")
    func quickRead() throws {
        let feeds = PackageRoot.url.appendingPathComponent("feeds")
        #expect(
            DaemonSettings.textStyles(in: feeds) == [
                TextStyle(font: "NanumGothic Bold 17", lineSpacing: 1.3, maxLines: 2)
            ]
        )
        let broken = try TemporaryDirectory(prefix: "hf-conf")
        #expect(DaemonSettings.textStyles(in: broken.url).isEmpty)
        try Data("[text t]\nfont = Sans 12\n[section s]\ntext = t\n[wat]\n".utf8)
            .write(to: URL(fileURLWithPath: broken.file("homefeedd.conf")))
        #expect(DaemonSettings.textStyles(in: broken.url).isEmpty)
        // Styles no section names are not loaded.
        try Data("[text t]\nfont = Sans 12\n".utf8).write(to: URL(fileURLWithPath: broken.file("homefeedd.conf")))
        #expect(DaemonSettings.textStyles(in: broken.url).isEmpty)
    }

    @Test("every key, styles declared after the sections that name them, one style for every slot")
    func keys() throws {
        let text = """
            [section mainService]
            text = 0:headline 3:card
            [section appService]
            text = card
            [text headline]
            font = DejaVu Sans, NanumGothic Bold 15.5
            line-height = 1.25
            max-lines = 3
            wrap = word
            language = ko
            padding = 4,8,4,8
            [text card]
            font = NanumGothic 13
            field = subtitle
            """
        let settings = try DaemonSettings(ConfigFile(path: "c.conf", text: text))
        #expect(
            settings.textStyles.map(\.style) == [
                TextStyle(
                    font: "DejaVu Sans, NanumGothic Bold 15.5",
                    lineSpacing: 1.25,
                    maxLines: 3,
                    wrap: .word,
                    language: "ko"
                ),
                TextStyle(font: "NanumGothic 13"),
            ]
        )
        #expect(settings.textStyles[0].padding == EdgeInsets(top: 4, leading: 8, bottom: 4, trailing: 8))
        #expect(settings.textStyles[0].line == 5)
        #expect(settings.textStyles[1].field == .subtitle)
        #expect(settings.textSlots["mainService"]?.bySlot == [0: "headline", 3: "card"])
        #expect(settings.textSlots["appService"]?.style(forSlot: 7) == "card")
        // Without any [text] block nothing is measured.
        #expect(try DaemonSettings(ConfigFile(path: "c.conf", text: "[daemon]\n")).textSlots.isEmpty)
    }

    @Test("text and image keys share a [section ID]; [text NAME] and [images] blocks sit side by side")
    func besideImages() throws {
        let text = """
            [images]
            format = png
            [section mainService]
            items = notices:1! services/main-service:3
            text = 0:headline
            image = fit
            image-size = 48x48
            [text headline]
            font = NanumGothic Bold 17
            """
        let settings = try DaemonSettings(ConfigFile(path: "c.conf", text: text))
        #expect(settings.textSlots["mainService"]?.style(forSlot: 0) == "headline")
        #expect(settings.textStyles.map(\.name) == ["headline"])
        let slot = settings.bindings.first { $0.sectionID == "mainService" }?.image
        #expect(slot?.mode == .fit)
        #expect(slot?.width == 48 && slot?.height == 48)
        #expect(settings.images.format == .png)
    }

    @Test(
        "mistakes name the file, line and key",
        arguments: [
            BadConfig(text: "[text t]\nmax-lines = 2\n", message: "c.conf:1: [text t] needs a font"),
            BadConfig(text: "[text]\nfont = Sans 12\n", message: "c.conf:1: expected [text NAME]"),
            BadConfig(
                text: "[text t]\nfont = NanumGothic\n",
                message: "c.conf:2: font: font \"NanumGothic\" has no size"
            ),
            BadConfig(
                text: "[text t]\nfont = Sans 0\n",
                message: "c.conf:2: font: font \"Sans 0\": size 0.0 is out of"
            ),
            BadConfig(
                text: "[text t]\nfont = Sans 12\nline-height = 0\n",
                message: "c.conf:3: line-height: expected a factor above 0 and at most 10"
            ),
            BadConfig(
                text: "[text t]\nfont = Sans 12\nmax-lines = 0\n",
                message: "c.conf:3: max-lines: expected a whole"
            ),
            BadConfig(
                text: "[text t]\nfont = Sans 12\nwrap = char\n",
                message: "c.conf:3: wrap: expected word or word-char"
            ),
            BadConfig(text: "[text t]\nfont = Sans 12\nfield = link\n", message: "c.conf:3: field: expected title or"),
            BadConfig(text: "[text t]\nfont = Sans 12\npadding = 4\n", message: "c.conf:3: padding: expected four"),
            BadConfig(text: "[text t]\nfont = Sans 12\nlanguage = k o\n", message: "c.conf:3: language: language"),
            BadConfig(
                text: "[text t]\nfont = Sans 12\ncolor = red\n",
                message: "c.conf:3: color: unknown key in [text]"
            ),
            BadConfig(
                text: "[text t]\nfont = Sans 12\n[text t]\nfont = Sans 13\n",
                message: "c.conf:3: text style t declared twice"
            ),
            BadConfig(
                text: "[section s]\ntext = 0:headline\n[text card]\nfont = Sans 12\n",
                message: "c.conf:2: text: [section s] names no [text headline] (declared: card)"
            ),
            BadConfig(
                text: "[section s]\ntext = headline\n",
                message: "c.conf:2: text: [section s] names no [text headline]"
            ),
            BadConfig(text: "[section s]\ntext = x:card\n", message: "c.conf:2: text: x:card: expected SLOT:STYLE"),
            BadConfig(text: "[section s]\ntext = 0:\n", message: "c.conf:2: text: 0:: expected SLOT:STYLE"),
            BadConfig(text: "[section s]\ntext = 0:a 0:b\n", message: "c.conf:2: text: slot 0 is given twice"),
            BadConfig(text: "[section s]\ntext = a b\n", message: "c.conf:2: text: a: expected SLOT:STYLE"),
            BadConfig(
                text: "[txt t]\nfont = Sans 12\n",
                message: "c.conf:1: unknown block [txt]; expected [daemon], [fetch], [images], [profile NAME], "
                    + "[section ID] or [text NAME]"
            ),
        ]
    )
    func errors(_ c: BadConfig) {
        c.expectRefused()
    }
}

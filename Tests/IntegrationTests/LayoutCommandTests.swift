import CommandTable
import Foundation
import FoundationXML
import TestSupport
import Testing

/// `homefeedctl layout …` as a user runs it: exit statuses, JSON on stdout, errors on stderr.
@Suite struct LayoutCommandTests {
    let ctl = CommandRunner(executable: "homefeedctl")
    /// Each test's specs and SVGs, removed when the test ends.
    let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory(prefix: "hf-ctl")
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("solve prints the home screen's frames at 375×812@2x")
    func solveHomeScreen() throws {
        let outcome = try ctl.run([
            "layout", "solve", "feeds/layout.json", "--width", "375", "--height", "812", "--scale", "2",
        ])
        #expect(outcome.status == 0)
        let root = try json(outcome.stdout)
        let contentSize = try #require(root["contentSize"] as? [String: Double])
        #expect(contentSize == ["width": 375, "height": 977])
        let sections = try #require(root["sections"] as? [[String: Any]])
        #expect(
            sections.compactMap { $0["id"] as? String } == ["userHistory", "mainService", "otherService", "appService"]
        )
        let items = try #require(sections[1]["items"] as? [[String: Any]])
        let large = try #require(items[1]["frame"] as? [String: Double])
        #expect(large == ["x": 20, "y": 209, "width": 161.5, "height": 192])
        let orthogonal = try #require(sections[2]["orthogonal"] as? [String: Any])
        #expect(orthogonal["restOffsets"] as? [Double] == [0, 230, 460, 690, 795])
    }

    @Test("solve reads the spec from standard input and honours --items")
    func solveStdin() throws {
        let spec = try Data(contentsOf: CommandRunner.packageRoot.appendingPathComponent("feeds/layout.json"))
        let outcome = try ctl.run(
            ["layout", "solve", "-", "--width", "375", "--items", "1,0,2,2", "--compact"],
            stdin: spec
        )
        #expect(outcome.status == 0)
        #expect(outcome.stdout.split(separator: "\n").count == 1)
        let sections = try #require(try json(outcome.stdout)["sections"] as? [[String: Any]])
        #expect(sections.map { ($0["items"] as? [Any])?.count } == [1, 0, 2, 2])
    }

    @Test("--svg writes a well-formed SVG wireframe")
    func svg() throws {
        let path = scratch.file("layout.svg")
        let outcome = try ctl.run(["layout", "solve", "feeds/layout.json", "--width", "375", "--svg", path])
        #expect(outcome.status == 0)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: path))
        #expect(document.rootElement()?.name == "svg")
        // 18 items in the default counts (3 + 4 + 5 + 6), each a numbered box.
        let items = try document.nodes(forXPath: "//*[local-name()='rect'][@class='item']")
        #expect(items.count == 18)
    }

    @Test("--svg of a section id with a control character parses, the character replaced by U+FFFD")
    func svgForbiddenCharacter() throws {
        let spec = try scratch.write(
            #"{"sections": [{"id": "a\u0007b", "itemCount": 1, "group": {"axis": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 10}}}}]}}]}"#,
            to: "spec.json"
        )
        let path = scratch.file("layout.svg")
        let outcome = try ctl.run(["layout", "solve", spec, "--width", "375", "--svg", path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        // XMLParser stops at the first character XML forbids; XMLDocument recovers, dropping it.
        #expect(XMLParser(data: data).parse())
        let document = try XMLDocument(data: data)
        let labels = try document.nodes(forXPath: "//*[local-name()='text'][@class='section']").map(\.stringValue)
        #expect(labels.contains("0 a\u{FFFD}b"))
    }

    @Test("--platform ios14 rounds each origin on its own; the output names the platform")
    func platform() throws {
        // Four 0.25-wide items spaced 8 in an orthogonal row from x = 16 at 3x (issue 14's render).
        let path = try scratch.write(
            #"{"sections": [{"id": "row", "itemCount": 4, "orthogonalScrollingBehavior": "continuous", "contentInsets": {"leading": 16, "trailing": 16}, "group": {"axis": "horizontal", "interItemSpacing": {"fixed": 8}, "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 50}}, "subitems": [{"item": {"size": {"width": {"fractionalWidth": 0.25}, "height": {"fractionalHeight": 1}}}}]}}]}"#,
            to: "spec.json"
        )
        func xs(_ platform: String) throws -> (String?, [Double]) {
            let outcome = try ctl.run([
                "layout", "solve", path, "--width", "375", "--scale", "3", "--platform", platform,
            ])
            #expect(outcome.status == 0)
            let root = try json(outcome.stdout)
            let sections = try #require(root["sections"] as? [[String: Any]])
            let items = try #require(sections[0]["items"] as? [[String: Any]])
            let x = items.compactMap { ($0["frame"] as? [String: Double])?["x"] }
            // Three decimals are enough to tell 207.333 from 207.667.
            return (root["platform"] as? String, x.map { ($0 * 1000).rounded() / 1000 })
        }
        #expect(try xs("ios17") == ("ios17", [16, 111.667, 207.333, 303]))
        #expect(try xs("ios14") == ("ios14", [16, 111.667, 207.667, 303.333]))
    }

    @Test("--svg draws group supplementaries, list separators and the inset-grouped card")
    func svgListAndGroups() throws {
        let spec = try scratch.write(
            #"{"sections": [{"id": "cards", "itemCount": 2, "group": {"axis": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 80}}, "subitems": [{"item": {"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}}], "supplementaryItems": [{"elementKind": "handle", "size": {"width": {"absolute": 20}, "height": {"absolute": 60}}, "anchor": {"edges": ["trailing"]}}]}}, {"id": "more", "itemCount": 3, "list": {"appearance": "insetGrouped"}}]}"#,
            to: "spec.json"
        )
        let path = scratch.file("layout.svg")
        let outcome = try ctl.run(["layout", "solve", spec, "--width", "375", "--svg", path])
        #expect(outcome.status == 0)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: path))
        func count(_ style: String) throws -> Int {
            try document.nodes(forXPath: "//*[local-name()='rect'][@class='\(style)']").count
        }
        // One handle per repetition; two lines between three rows; one rounded card.
        #expect(try count("groupSupplementary") == 2)
        #expect(try count("separator") == 2)
        let card = try document.nodes(forXPath: "//*[local-name()='rect'][@class='background'][@rx='10']")
        #expect(card.count == 1)
    }

    @Test("a spec error names its JSON path and exits 1")
    func invalidSpec() throws {
        let path = try scratch.write(
            #"{"sections": [{"id": "a", "group": {"axis": "horizontal", "size": {"width": {"fractional": 1}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}}]}}]}"#,
            to: "spec.json"
        )
        let outcome = try ctl.run(["layout", "solve", path, "--width", "375"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("sections[0].group.size.width: expected one of fractionalWidth"))
        #expect(outcome.stdout.isEmpty)
    }

    @Test("a spec, document or SVG path that is a directory is said to be one, in plain words; exit 1")
    func directoryPaths() throws {
        let directory = scratch.path
        let cases: [([String], String)] = [
            (["layout", "solve", directory, "--width", "375"], "\(directory): cannot read: Is a directory"),
            (["layout", "check", directory], "\(directory): cannot read: Is a directory"),
            (["feed", "parse", directory], "\(directory): cannot read: Is a directory"),
            (
                ["layout", "solve", "feeds/layout.json", "--width", "375", "--svg", directory],
                "\(directory): cannot write: Is a directory"
            ),
        ]
        for (words, message) in cases {
            let outcome = try ctl.run(words)
            #expect(outcome.status == 1, "\(words)")
            #expect(outcome.stderr == "homefeedctl: \(message)\n", "\(words)")
            // Not the frames of a solve that failed (an SVG that could not be written).
            #expect(outcome.stdout.isEmpty, "\(words)")
        }
    }

    @Test("a layout UIKit would refuse prints a structured error and exits 1")
    func refusedLayout() throws {
        let path = try scratch.write(
            #"{"sections": [{"id": "wide", "itemCount": 1, "group": {"axis": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"absolute": 400}, "height": {"absolute": 10}}}}]}}]}"#,
            to: "spec.json"
        )
        let outcome = try ctl.run(["layout", "solve", path, "--width", "375"])
        #expect(outcome.status == 1)
        let error = try #require(try json(outcome.stdout)["error"] as? [String: Any])
        #expect(error["code"] as? String == "cannotFitSingleItem")
        #expect(error["section"] as? Int == 0)
        #expect(error["sectionId"] as? String == "wide")
        #expect(error["path"] as? String == "sections[0].group")
        // --compact: one line, keys in sorted order.
        let compact = try ctl.run(["layout", "solve", path, "--width", "375", "--compact"])
        #expect(compact.status == 1)
        #expect(
            compact.stdout
                == #"{"error":{"code":"cannotFitSingleItem","message":"This group cannot fit even a single item: the first subitem needs 400 pt along horizontal (size plus edge spacing) but the group offers 375 pt","path":"sections[0].group","section":0,"sectionId":"wide"}}"#
                + "\n"
        )
    }

    @Test("spacing that makes an orthogonal row's content length negative is a structured error, exit 1")
    func negativeContentLength() throws {
        let path = try scratch.write(
            #"{"sections": [{"id": "row", "itemCount": 4, "interGroupSpacing": -150, "orthogonalScrollingBehavior": "continuous", "group": {"axis": "horizontal", "size": {"width": {"absolute": 100}, "height": {"absolute": 100}}, "subitems": [{"item": {"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}}]}}]}"#,
            to: "spec.json"
        )
        let outcome = try ctl.run(["layout", "solve", path, "--width", "375"])
        #expect(outcome.status == 1)
        let error = try #require(try json(outcome.stdout)["error"] as? [String: Any])
        #expect(error["code"] as? String == "negativeContentLength")
        #expect(error["path"] as? String == "sections[0].interGroupSpacing")
        #expect(error["sectionId"] as? String == "row")
    }

    @Test(
        "--items with more counts than sections is a usage error naming both; fewer keep their itemCount",
        arguments: [["solve", "--width", "375"], ["check"], ["sweep", "--from", "300", "--to", "310"]]
    )
    func itemsPastTheSections(_ command: [String]) throws {
        let path = try scratch.write(
            #"{"sections": [{"id": "one", "itemCount": 1, "group": {"axis": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 10}}}}]}}]}"#,
            to: "spec.json"
        )
        let layout = ["layout", command[0], path] + command.dropFirst()
        let outcome = try ctl.run(layout + ["--items", "1,2,3"])
        #expect(outcome.status == ExitStatus.usage)
        #expect(outcome.stderr.contains("--items: 3 counts for 1 section; give at most one per section"))
        #expect(outcome.stdout.isEmpty)
        #expect(try ctl.run(layout + ["--items", "2"]).status == 0)
    }

    @Test(
        "usage errors exit 64",
        arguments: [
            ["layout", "solve", "feeds/layout.json"],
            ["layout", "solve", "feeds/layout.json", "--width", "wide"],
            ["layout", "solve", "feeds/layout.json", "--width", "375", "--bogus"],
            ["layout", "solve", "feeds/layout.json", "--width", "375", "--items", "1,-2"],
            ["layout", "solve", "feeds/layout.json", "--width", "375", "--platform", "ios13"],
            ["layout", "sweep", "feeds/layout.json", "--from", "500", "--to", "400"],
            ["layout", "frobnicate"],
            ["nonsense"],
            [],
        ]
    )
    func usageErrors(_ arguments: [String]) throws {
        let outcome = try ctl.run(arguments)
        #expect(outcome.status == ExitStatus.usage)
        #expect(outcome.stderr.contains("usage:"))
    }

    @Test(
        "every command has --help with an example",
        arguments: [
            ["--help"], ["layout", "--help"], ["layout", "solve", "--help"], ["layout", "sweep", "--help"],
            ["layout", "check", "--help"],
        ]
    )
    func help(_ arguments: [String]) throws {
        let outcome = try ctl.run(arguments)
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("usage: homefeedctl"))
        if arguments.count == 3 { #expect(outcome.stdout.contains("\nexamples:\n  homefeedctl layout")) }
    }

    @Test(
        "check and sweep refuse the options they would ignore",
        arguments: [
            // Both choose their own widths.
            ["layout", "check", "feeds/layout.json", "--width", "375"],
            ["layout", "sweep", "feeds/layout.json", "--from", "300", "--to", "400", "--width", "375"],
            // Neither draws, reads measurements or prints the frames.
            ["layout", "check", "feeds/layout.json", "--svg", "x.svg"],
            ["layout", "sweep", "feeds/layout.json", "--from", "300", "--to", "400", "--svg", "x.svg"],
            ["layout", "check", "feeds/layout.json", "--measurements", "m.json"],
            ["layout", "sweep", "feeds/layout.json", "--from", "300", "--to", "400", "--measurements", "m.json"],
            ["layout", "check", "feeds/layout.json", "--compact"],
            ["layout", "sweep", "feeds/layout.json", "--from", "300", "--to", "400", "--compact"],
            // check prints no report to format.
            ["layout", "check", "feeds/layout.json", "--json"],
        ]
    )
    func checkAndSweepRefuseIgnoredOptions(_ arguments: [String]) throws {
        let outcome = try ctl.run(arguments)
        #expect(outcome.status == ExitStatus.usage)
        let option = try #require(arguments.first { $0.hasPrefix("--") && !["--from", "--to"].contains($0) })
        #expect(outcome.stderr.hasPrefix("homefeedctl layout \(arguments[1]): unknown option \(option)\n"))
        #expect(outcome.stdout.isEmpty)
    }

    @Test("check and sweep use the container options they take: safe-area insets narrow the content")
    func checkAndSweepUseInsets() throws {
        // One 300-wide item: it fits a 320-wide container, and no longer once 20 + 20 points of
        // safe area leave 320 - 40 = 280 (contentInsetsReference defaults to automatic, which
        // follows the safe area).
        let path = try scratch.write(
            #"{"sections": [{"id": "card", "itemCount": 1, "group": {"axis": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 50}}, "subitems": [{"item": {"size": {"width": {"absolute": 300}, "height": {"fractionalHeight": 1}}}}]}}]}"#,
            to: "spec.json"
        )
        #expect(try ctl.run(["layout", "check", path]).status == 0)
        let check = try ctl.run(["layout", "check", path, "--safe-area", "0,20,0,20"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("error at 320×812@2x"))
        let sweep = try ctl.run(["layout", "sweep", path, "--from", "320", "--to", "345", "--safe-area", "0,20,0,20"])
        #expect(sweep.status == 1)
        // 320…339 leave less than 300 between the insets; 340 leaves exactly 300.
        #expect(sweep.stdout.contains("error at 320–339"))
    }

    @Test("sweep reports the width range where a fixed-width grid cannot fit")
    func sweepFindsNarrowWidths() throws {
        // Two 161.5-wide columns with 12 between need 161.5 + 40 insets = 201.5 for the first item.
        let path = try scratch.write(
            #"{"sections": [{"id": "grid", "itemCount": 4, "contentInsets": {"leading": 20, "trailing": 20}, "group": {"axis": "horizontal", "interItemSpacing": {"fixed": 12}, "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 120}}, "subitems": [{"item": {"size": {"width": {"absolute": 161.5}, "height": {"fractionalHeight": 1}}}}]}}]}"#,
            to: "spec.json"
        )
        let outcome = try ctl.run(["layout", "sweep", path, "--from", "190", "--to", "210", "--json"])
        #expect(outcome.status == 1)
        let findings = try #require(try json(outcome.stdout)["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["code"] as? String == "cannotFitSingleItem")
        // 190…201 fail (201 − 40 = 161 < 161.5 − 0.25); 202 fits.
        #expect(findings.first?["widths"] as? [[Double]] == [[190, 201]])
        let text = try ctl.run([
            "layout", "sweep", "feeds/layout.json", "--from", "200", "--to", "1400", "--step", "25",
        ])
        #expect(text.status == 0)
        #expect(text.stdout.contains("section 3 appService: ok"))
    }

    @Test("widths and scales too large for an Int are reported, not a trap; a step too small to move ends")
    func extremeNumbers() throws {
        // Int(1e19) traps: the labels print such numbers as Swift does.
        let check = try ctl.run(["layout", "check", "feeds/layout.json", "--height", "1e19", "--scale", "1e19"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("error at 320×1e+19@1e+19x"), "\(check.stdout)")
        let sweep = try ctl.run(["layout", "sweep", "feeds/layout.json", "--from", "1e19", "--to", "1e19"])
        #expect(sweep.status == 1)
        #expect(sweep.stdout.hasPrefix("widths 1e+19–1e+19 step 1: 1 solves, 1 failed"), "\(sweep.stdout)")
        // 375 + 1e-300 is 375: one width, not a loop that never ends.
        let tiny = try ctl.run([
            "layout", "sweep", "feeds/layout.json", "--from", "375", "--to", "375", "--step", "1e-300", "--json",
        ])
        #expect(tiny.status == 0)
        #expect(try json(tiny.stdout)["solves"] as? Int == 1)
        // More widths than the limit are refused before any is made.
        let many = try ctl.run(["layout", "sweep", "feeds/layout.json", "--from", "1", "--to", "2", "--step", "1e-15"])
        #expect(many.status == ExitStatus.usage)
    }

    @Test("check passes the product layout and fails a broken one")
    func check() throws {
        let ok = try ctl.run(["layout", "check", "feeds/layout.json"])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("ok (4 sections, 0 warnings)"))
        let broken = try scratch.write(#"{"sections": [}"#, to: "spec.json")
        let bad = try ctl.run(["layout", "check", broken])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("line 1, column"))
    }
}

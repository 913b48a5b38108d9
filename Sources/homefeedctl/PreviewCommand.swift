import CommandTable
import Foundation
import Varlink

/// `homefeedctl preview`: the served home screen drawn as text in the terminal (boxes with
/// titles, scaled to the terminal width) or as an SVG with the real titles.
enum PreviewCommand {
    static let command = Command(
        "preview",
        abstract: "the served home screen as text boxes, or --svg FILE",
        discussion: """
            Draws the manifest the daemon serves: in the terminal, every item and header as a box with \
            its title, scaled to the terminal width (orthogonal rows are cut at the screen edge) and at \
            most \(maxRows) rows tall (a taller screen is cut there, with a line saying so); with --svg, \
            an SVG of the first screen and beyond with the real titles and the items' images (read from \
            the files the manifest names, embedded in the SVG).

            A manifest it cannot draw is an error naming the value: a container width that is not a \
            number of at least 1 point, a frame or size that is not a finite number.
            """,
        options: ManifestCommand.targetOptions + [
            .value("--svg", "FILE", .file, help: "write an SVG here instead of drawing text"),
            .value(
                "--columns",
                "N",
                .integer(20...1000),
                help: "text width (default: the terminal's, else $COLUMNS, else 80)"
            ),
        ] + DaemonCommand.socketOptions,
        examples: ["homefeedctl preview --profile phone", "homefeedctl preview --profile tablet --svg home.svg"],
        body: DaemonCommand.body(run)
    )

    /// A box to draw: frame in points and its label.
    struct Box {
        var x, y, width, height: Double
        var label: String
        var isHeader: Bool
        var image: Picture? = nil
    }

    /// An item's `content.image`: a rendition file and its pixel size, or its average colour
    /// alone while the rendition is being made.
    struct Picture {
        var url: String?
        var pixelWidth: Double
        var pixelHeight: Double
        var averageColor: String?
    }

    /// The most rows the text drawing has: with `--columns` capping its width, the canvas stays
    /// small whatever content height a manifest claims.
    static let maxRows = 2_000

    /// What a manifest draws as: its container's width and scale, its content height, the boxes.
    struct Scene {
        var width: Double
        var height: Double
        var scale: Double
        var boxes: [Box]
    }

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let reply = try client.call("GetManifest", ManifestCommand.targetParameters(arguments))
        let scene = try Self.scene(reply["manifest"] ?? .null)
        if let path = arguments.string("--svg") {
            do throws(OutputFile.Failure) {
                try OutputFile.write(svg(scene), to: path)
            } catch {
                throw CommandFailure(status: ExitStatus.failure, message: "\(path): cannot write: \(error.reason)")
            }
            Console.out("wrote \(path)")
            return ExitStatus.ok
        }
        let columns = arguments.integer("--columns") ?? terminalColumns()
        Console.out(ManifestCommand.summary(reply).split(separator: "\n").first.map(String.init) ?? "")
        Console.out(text(scene, columns: columns))
        return ExitStatus.ok
    }

    /// Reads what to draw from a manifest, checking every number it draws with: a value that is
    /// not a finite number (JSON's 1e999 reads as infinity) or a container narrower than a point
    /// is an error naming its JSON path, never a trap in the drawing.
    static func scene(_ manifest: JSONValue) throws(CommandFailure) -> Scene {
        func failure(_ path: String, _ expected: String, _ value: JSONValue?) -> CommandFailure {
            CommandFailure(
                status: ExitStatus.failure,
                message: "manifest\(path): expected \(expected), got \(value.map(describe) ?? "nothing")"
            )
        }
        /// A value as JSON, a number beyond JSON's (which encodes as null) as Swift prints it: inf.
        func describe(_ value: JSONValue) -> String {
            value.doubleValue.map { $0.isFinite ? Format.number($0) : "\($0)" } ?? value.encodedString
        }
        /// The number at `path`, nil when missing; a value that is not a finite number throws.
        func number(_ value: JSONValue?, _ path: String) throws(CommandFailure) -> Double? {
            guard let value, !value.isNull else { return nil }
            guard let number = value.doubleValue, number.isFinite else { throw failure(path, "a finite number", value) }
            return number
        }
        /// A frame's four numbers, nil when it lacks one (such a box is not drawn).
        func frame(_ value: JSONValue?, _ path: String) throws(CommandFailure) -> (Double, Double, Double, Double)? {
            guard let f = value, let x = try number(f["x"], path + ".x"), let y = try number(f["y"], path + ".y"),
                let w = try number(f["width"], path + ".width"), let h = try number(f["height"], path + ".height")
            else { return nil }
            return (x, y, w, h)
        }
        guard manifest.objectValue != nil else {
            throw CommandFailure(status: ExitStatus.failure, message: "the reply has no manifest")
        }
        let widthValue = manifest["container"]?["width"]
        guard let width = try number(widthValue, ".container.width"), width >= 1 else {
            throw failure(".container.width", "a width of at least 1 point", widthValue)
        }
        let height = max(try number(manifest["contentSize"]?["height"], ".contentSize.height") ?? 0, 0)
        let scale = try number(manifest["container"]?["scale"], ".container.scale") ?? 2
        var boxes: [Box] = []
        for (s, section) in (manifest["sections"]?.arrayValue ?? []).enumerated() {
            for key in ["header", "footer"] {
                let path = ".sections[\(s)].\(key)"
                if let supplementary = section[key],
                    let (x, y, w, h) = try frame(supplementary["frame"], path + ".frame")
                {
                    let title =
                        supplementary["content"]?["title"]?.stringValue ?? supplementary["elementKind"]?.stringValue
                        ?? key
                    let subtitle = supplementary["content"]?["subtitle"]?.stringValue.map { " · " + $0 } ?? ""
                    boxes.append(Box(x: x, y: y, width: w, height: h, label: title + subtitle, isHeader: true))
                }
            }
            for (i, item) in (section["items"]?.arrayValue ?? []).enumerated() {
                let path = ".sections[\(s)].items[\(i)]"
                guard let (x, y, w, h) = try frame(item["frame"], path + ".frame") else { continue }
                let label = item["content"]?["title"]?.stringValue ?? item["kind"]?.stringValue ?? ""
                var picture: Picture?
                if let image = item["content"]?["image"] {
                    picture = Picture(
                        url: image["url"]?.stringValue,
                        pixelWidth: try number(image["pixelWidth"], path + ".content.image.pixelWidth") ?? 0,
                        pixelHeight: try number(image["pixelHeight"], path + ".content.image.pixelHeight") ?? 0,
                        averageColor: image["averageColor"]?.stringValue
                    )
                }
                boxes.append(Box(x: x, y: y, width: w, height: h, label: label, isHeader: false, image: picture))
            }
        }
        return Scene(width: width, height: height, scale: scale, boxes: boxes)
    }

    /// `value` rounded to a whole number within `range`: far-off coordinates (a frame at x 1e30)
    /// land just outside the canvas instead of trapping in `Int(_:)`.
    static func whole(_ value: Double, in range: ClosedRange<Int>) -> Int {
        guard !value.isNaN else { return range.lowerBound }
        return Int(min(max(value.rounded(), Double(range.lowerBound)), Double(range.upperBound)))
    }

    /// Text canvas: x scaled to the columns, y at half that scale (cells are about twice as
    /// tall as wide); at most ``maxRows`` rows, then a line saying how much was cut.
    static func text(_ scene: Scene, columns: Int) -> String {
        let sx = Double(columns - 1) / scene.width
        let sy = sx / 2
        let fullRows = (scene.height * sy).rounded(.up) + 1
        let rows = whole(fullRows, in: 1...maxRows)
        var canvas = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)
        func put(_ row: Int, _ column: Int, _ character: Character) {
            guard row >= 0, row < rows, column >= 0, column < columns else { return }
            canvas[row][column] = character
        }
        // Cells one past each edge at most: a box outside the canvas draws nothing.
        func column(_ x: Double) -> Int { whole(x * sx, in: -1...columns) }
        func row(_ y: Double) -> Int { whole(y * sy, in: -1...rows) }
        for box in scene.boxes {
            let left = column(box.x)
            let right = max(column(box.x + box.width) - 1, left + 1)
            let top = row(box.y)
            let bottom = max(row(box.y + box.height) - 1, top + 1)
            let horizontal: Character = box.isHeader ? "=" : "-"
            for column in left...right {
                put(top, column, horizontal)
                put(bottom, column, horizontal)
            }
            for row in top...bottom {
                put(row, left, "|")
                put(row, right, "|")
            }
            for (row, column) in [(top, left), (top, right), (bottom, left), (bottom, right)] { put(row, column, "+") }
            // The title inside, cut to the box: a wide character takes two cells, the second
            // marked to be dropped from the line; one of no width (a lone zero-width space) none.
            var column = left + 1
            for character in TerminalText.sanitised(box.label) where column < right {
                let cells = DisplayWidth.cells(character)
                guard cells > 0 else { continue }
                guard column + cells - 1 < right else { break }
                put(top + (bottom - top) / 2, column, character)
                if cells == 2 { put(top + (bottom - top) / 2, column + 1, "\u{0}") }
                column += cells
            }
        }
        var lines = canvas.map {
            String($0.filter { $0 != "\u{0}" }).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        if fullRows > Double(maxRows) {
            lines.append(
                "[cut at \(maxRows) rows of \(Format.number(fullRows)); a smaller --columns draws more of the screen]"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// An SVG of the scene. Its numbers are the manifest's; whole ones (the canvas size, the
    /// characters of a label) are clamped to ±10^15 before conversion.
    static func svg(_ scene: Scene) -> String {
        let (width, height, scale, boxes) = (scene.width, scene.height, scene.scale, scene.boxes)
        let limit = 1_000_000_000_000_000
        let canvasWidth = whole(max(width, boxes.map { $0.x + $0.width }.max() ?? width) + 16, in: -limit...limit)
        let canvasHeight = whole(height + 16, in: -limit...limit)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(canvasWidth)" height="\(canvasHeight)" \
            font-family="sans-serif" font-size="11">
            <rect x="0" y="0" width="\(canvasWidth)" height="\(canvasHeight)" fill="#fff"/>
            <g transform="translate(8 8)">
            <rect x="0" y="0" width="\(width)" height="\(height)" fill="#f5f6fa" stroke="#111" stroke-dasharray="6 3"/>

            """
        for box in boxes {
            let fill = box.isHeader ? "#fff1cc" : "#d8e5ff"
            svg +=
                "<rect x=\"\(box.x)\" y=\"\(box.y)\" width=\"\(box.width)\" height=\"\(box.height)\" fill=\"\(fill)\" stroke=\"#3366cc\"/>\n"
            var textX = box.x + 4
            if let picture = box.image {
                let (drawn, side) = image(picture, in: box, scale: scale)
                svg += drawn
                textX += side + 4
            }
            let characters = max(whole(((box.x + box.width - textX) / 7).rounded(.down), in: -limit...limit), 1)
            let label =
                box.label.count > characters ? String(box.label.prefix(max(characters - 1, 1))) + "…" : box.label
            svg +=
                "<text x=\"\(textX)\" y=\"\(box.y + min(box.height / 2 + 4, 16))\">\(XMLText.escaped(label))</text>\n"
        }
        return svg + "</g>\n</svg>\n"
    }

    /// An item's image at the leading edge of its box: the rendition at its point size
    /// (pixels ÷ scale), at most the box's height less a margin, embedded as a data URL when
    /// the file can be read (else linked), or a square of its average colour.
    static func image(_ picture: Picture, in box: Box, scale: Double) -> (svg: String, side: Double) {
        let factor = scale > 0 ? scale : 1
        let limit = max(box.height - 4, 4)
        let width = min(limit, picture.pixelWidth / factor)
        let height = min(limit, picture.pixelHeight / factor)
        let side = max(width, height, min(limit, 16))
        // Centred in a row, near the top of a card.
        let y = box.y + max(2, min((box.height - side) / 2, 4))
        if let url = picture.url, let fileURL = URL(string: url), fileURL.isFileURL {
            let href: String
            if let data = FileManager.default.contents(atPath: fileURL.path), data.count <= 4 << 20 {
                let type = fileURL.pathExtension == "webp" ? "image/webp" : "image/png"
                href = "data:\(type);base64,\(data.base64EncodedString())"
            } else {
                href = url
            }
            let svg =
                "<image x=\"\(box.x + 2)\" y=\"\(y)\" width=\"\(side)\" height=\"\(side)\" "
                + "preserveAspectRatio=\"xMidYMid meet\" href=\"\(XMLText.escaped(href))\"/>\n"
            return (svg, side)
        }
        guard let color = picture.averageColor else { return ("", 0) }
        let svg =
            "<rect x=\"\(box.x + 2)\" y=\"\(y)\" width=\"\(side)\" height=\"\(side)\" fill=\"\(XMLText.escaped(color))\"/>\n"
        return (svg, side)
    }

    static func terminalColumns() -> Int {
        var size = winsize()
        // The range --columns takes: a huge terminal or $COLUMNS would size the canvas past memory.
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 { return min(Int(size.ws_col), 1000) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns >= 20 {
            return min(columns, 1000)
        }
        return 80
    }
}

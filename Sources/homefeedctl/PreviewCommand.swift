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
            its title, scaled to the terminal width (orthogonal rows are cut at the screen edge); with \
            --svg, an SVG of the first screen and beyond with the real titles and the items' images \
            (read from the files the manifest names, embedded in the SVG).
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

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let reply = try client.call("GetManifest", ManifestCommand.targetParameters(arguments))
        let manifest = reply["manifest"] ?? .null
        let width = manifest["container"]?["width"]?.doubleValue ?? 375
        let height = manifest["contentSize"]?["height"]?.doubleValue ?? 0
        let boxes = Self.boxes(manifest)
        if let path = arguments.string("--svg") {
            let scale = manifest["container"]?["scale"]?.doubleValue ?? 2
            do {
                try Data(svg(boxes, width: width, height: height, scale: scale).utf8).write(
                    to: URL(fileURLWithPath: path),
                    options: .atomic
                )
            } catch {
                throw CommandFailure(
                    status: ExitStatus.failure,
                    message: "\(path): cannot write: \(error.localizedDescription)"
                )
            }
            Console.out("wrote \(path)")
            return ExitStatus.ok
        }
        let columns = arguments.integer("--columns") ?? terminalColumns()
        Console.out(ManifestCommand.summary(reply).split(separator: "\n").first.map(String.init) ?? "")
        Console.out(text(boxes, width: width, height: height, columns: columns))
        return ExitStatus.ok
    }

    static func boxes(_ manifest: JSONValue) -> [Box] {
        var boxes: [Box] = []
        func frame(_ value: JSONValue?) -> (Double, Double, Double, Double)? {
            guard let f = value, let x = f["x"]?.doubleValue, let y = f["y"]?.doubleValue,
                let w = f["width"]?.doubleValue, let h = f["height"]?.doubleValue
            else { return nil }
            return (x, y, w, h)
        }
        for section in manifest["sections"]?.arrayValue ?? [] {
            for key in ["header", "footer"] {
                if let supplementary = section[key], let (x, y, w, h) = frame(supplementary["frame"]) {
                    let title =
                        supplementary["content"]?["title"]?.stringValue ?? supplementary["elementKind"]?.stringValue
                        ?? key
                    let subtitle = supplementary["content"]?["subtitle"]?.stringValue.map { " · " + $0 } ?? ""
                    boxes.append(Box(x: x, y: y, width: w, height: h, label: title + subtitle, isHeader: true))
                }
            }
            for item in section["items"]?.arrayValue ?? [] {
                guard let (x, y, w, h) = frame(item["frame"]) else { continue }
                let label = item["content"]?["title"]?.stringValue ?? item["kind"]?.stringValue ?? ""
                var picture: Picture?
                if let image = item["content"]?["image"] {
                    picture = Picture(
                        url: image["url"]?.stringValue,
                        pixelWidth: image["pixelWidth"]?.doubleValue ?? 0,
                        pixelHeight: image["pixelHeight"]?.doubleValue ?? 0,
                        averageColor: image["averageColor"]?.stringValue
                    )
                }
                boxes.append(Box(x: x, y: y, width: w, height: h, label: label, isHeader: false, image: picture))
            }
        }
        return boxes
    }

    /// Text canvas: x scaled to the columns, y at half that scale (cells are about twice as
    /// tall as wide).
    static func text(_ boxes: [Box], width: Double, height: Double, columns: Int) -> String {
        let sx = Double(columns - 1) / width
        let sy = sx / 2
        let rows = max(Int((height * sy).rounded(.up)) + 1, 1)
        var canvas = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)
        func put(_ row: Int, _ column: Int, _ character: Character) {
            guard row >= 0, row < rows, column >= 0, column < columns else { return }
            canvas[row][column] = character
        }
        for box in boxes {
            let left = Int((box.x * sx).rounded())
            let right = max(Int(((box.x + box.width) * sx).rounded()) - 1, left + 1)
            let top = Int((box.y * sy).rounded())
            let bottom = max(Int(((box.y + box.height) * sy).rounded()) - 1, top + 1)
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
            // The title inside, cut to the box (wide Hangul glyphs take two cells).
            var column = left + 1
            for character in box.label where column < right {
                let cells = character.unicodeScalars.first.map { $0.value >= 0x1100 ? 2 : 1 } ?? 1
                guard column + cells - 1 < right else { break }
                put(top + (bottom - top) / 2, column, character)
                if cells == 2 { put(top + (bottom - top) / 2, column + 1, "\u{0}") }
                column += cells
            }
        }
        return canvas.map {
            String($0.filter { $0 != "\u{0}" }).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        .joined(separator: "\n")
    }

    static func svg(_ boxes: [Box], width: Double, height: Double, scale: Double = 2) -> String {
        let canvasWidth = max(width, boxes.map { $0.x + $0.width }.max() ?? width) + 16
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(canvasWidth))" height="\(Int(height + 16))" \
            font-family="sans-serif" font-size="11">
            <rect x="0" y="0" width="\(Int(canvasWidth))" height="\(Int(height + 16))" fill="#fff"/>
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
            let characters = max(Int((box.x + box.width - textX) / 7), 1)
            let label =
                box.label.count > characters ? String(box.label.prefix(max(characters - 1, 1))) + "…" : box.label
            svg += "<text x=\"\(textX)\" y=\"\(box.y + min(box.height / 2 + 4, 16))\">\(escape(label))</text>\n"
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
                + "preserveAspectRatio=\"xMidYMid meet\" href=\"\(escape(href))\"/>\n"
            return (svg, side)
        }
        guard let color = picture.averageColor else { return ("", 0) }
        let svg =
            "<rect x=\"\(box.x + 2)\" y=\"\(y)\" width=\"\(side)\" height=\"\(side)\" fill=\"\(escape(color))\"/>\n"
        return (svg, side)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func terminalColumns() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 { return Int(size.ws_col) }
        // The range --columns takes: a huge $COLUMNS would size the canvas past memory.
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns >= 20 {
            return min(columns, 1000)
        }
        return 80
    }
}

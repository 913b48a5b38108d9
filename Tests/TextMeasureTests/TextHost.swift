import Foundation
import TestSupport
import TextMeasure

/// What this machine has for the text tests: pango-view (Debian `pango1.0-tools`) and the fonts
/// the sample configuration uses (`fonts-nanum`, `fonts-dejavu-core`).
enum TextHost {
    static let pangoView = ["/usr/bin/pango-view", "/usr/local/bin/pango-view"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// One measurer for the suites that need real fonts (its cache is shared, which is fine:
    /// each test asserts on what it measures, not on hits).
    static let measurer = TextMeasurer()

    /// NanumGothic and DejaVu Sans are installed: fontconfig loads them for their own names.
    static let hasFonts: Bool = {
        ["NanumGothic 17", "DejaVu Sans 15"].allSatisfy { font in
            (try? measurer.resolveFontNow(font))?.missingFamily == nil
        }
    }()

    static var canCompare: Bool { pangoView != nil && hasFonts }

    /// The height in pixels of what `pango-view` renders for `text`, with its FreeType backend
    /// (PangoFT2, the engine TextMeasurer uses) at 72 dpi (`--pixels`: a point is a pixel) and
    /// without margins. The ft2 backend writes a PGM, whose header is `P5\nWIDTH HEIGHT\n255\n`.
    /// - Parameter width: whole points (pango-view's `--width` takes an integer).
    static func pangoViewHeight(_ text: String, style: TextStyle, width: Int) throws -> Int {
        guard let pangoView else { throw HostError("pango-view is not installed") }
        let scratch = try TemporaryDirectory(prefix: "hf-pv")
        defer { withExtendedLifetime(scratch) {} }
        let output = URL(fileURLWithPath: scratch.file("text.pgm"))
        var arguments = [
            "--backend=ft2", "--pixels", "--margin=0", "--width=\(width)", "--wrap=\(style.wrap.rawValue)",
            "--font=\(style.font)", "-q", "-o", output.path, "--text=\(text)",
        ]
        if let spacing = style.lineSpacing { arguments.append("--line-spacing=\(spacing)") }
        if let maxLines = style.maxLines { arguments += ["--height=-\(maxLines)", "--ellipsize=end"] }
        if let language = style.language { arguments.append("--language=\(language)") }
        let status = try ChildProcess(pangoView, arguments, stderr: .null).waitForExit()
        guard status == 0 else { throw HostError("pango-view exited \(status)") }
        let header = try Data(contentsOf: output).prefix(32)
        let fields = String(decoding: header, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard fields.count >= 3, fields[0] == "P5", let height = Int(fields[2]) else {
            throw HostError("pango-view wrote no PGM header: \(fields.prefix(3))")
        }
        return height
    }

    struct HostError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

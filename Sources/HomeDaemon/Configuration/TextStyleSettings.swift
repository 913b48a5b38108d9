public import FoundationEssentials
public import HomeLayout
public import TextMeasure

/// A `[text NAME]` block of `homefeedd.conf`: how the text of the section slots bound to it is
/// set, so the daemon can measure it (`docs/configuration.md`, "[text NAME]").
public struct TextSlotStyle: Sendable, Equatable {
    /// The content field measured.
    public enum Field: String, Sendable, Equatable, CaseIterable {
        case title
        case subtitle
    }

    public var name: String
    /// Font, line spacing, maximum lines, wrap mode, language.
    public var style: TextStyle
    /// Space around the text inside the cell: the text wraps in the cell's width less the
    /// leading and trailing padding; the cell is the text's height plus top and bottom.
    public var padding: EdgeInsets
    public var field: Field
    /// The block's line in the file (warnings name it).
    public var line: Int

    public init(name: String, style: TextStyle, padding: EdgeInsets = .zero, field: Field = .title, line: Int = 0) {
        self.name = name
        self.style = style
        self.padding = padding
        self.field = field
        self.line = line
    }
}

/// The `text` key of a `[section ID]` block: the style each slot of the section's group is
/// measured in (`text = 0:headline`), or one style for every slot (`text = card`).
public struct SectionTextSlots: Sendable, Equatable {
    public var bySlot: [Int: String]
    public var everySlot: String?
    /// The key's line in the file.
    public var line: Int

    public init(bySlot: [Int: String] = [:], everySlot: String? = nil, line: Int = 0) {
        self.bySlot = bySlot
        self.everySlot = everySlot
        self.line = line
    }

    /// The style name of a slot, if it is measured.
    public func style(forSlot slot: Int) -> String? { bySlot[slot] ?? everySlot }

    var styleNames: [String] { Array(bySlot.values) + (everySlot.map { [$0] } ?? []) }
}

extension BlockReader {
    /// `font` (required), `line-height`, `max-lines`, `wrap`, `language`, `padding`, `field`.
    mutating func textStyle(_ name: String) throws(ConfigError) -> TextSlotStyle {
        guard let font = entry("font") else { throw error(reason: "[text \(name)] needs a font, e.g. NanumGothic 17") }
        var style = TextStyle(font: font.value)
        do throws(TextMeasureError) {
            try style.validate()
        } catch {
            throw self.error(font, reason: "\(error)")
        }
        if let entry = entry("line-height") {
            guard let value = try number("line-height"), value > 0, value <= TextMeasurer.Limits.maxLineSpacing else {
                throw error(
                    entry,
                    reason: "expected a factor above 0 and at most 10, as in 1.3, got \"\(entry.value)\""
                )
            }
            style.lineSpacing = value
        }
        style.maxLines = try integer("max-lines", in: 1...TextMeasurer.Limits.maxLines)
        if let entry = entry("wrap") {
            guard let wrap = TextStyle.Wrap(rawValue: entry.value) else {
                throw error(entry, reason: "expected word or word-char, got \"\(entry.value)\"")
            }
            style.wrap = wrap
        }
        if let entry = entry("language") {
            style.language = entry.value
            do throws(TextMeasureError) {
                try style.validate()
            } catch {
                throw self.error(entry, reason: "\(error)")
            }
        }
        var field = TextSlotStyle.Field.title
        if let entry = entry("field") {
            guard let value = TextSlotStyle.Field(rawValue: entry.value) else {
                throw error(entry, reason: "expected title or subtitle, got \"\(entry.value)\"")
            }
            field = value
        }
        let padding = try insets("padding")
        return TextSlotStyle(name: name, style: style, padding: padding, field: field, line: block.line)
    }

    /// `text = 0:headline 2:card`, or `text = card` for every slot; nil without the key.
    mutating func textSlots() throws(ConfigError) -> SectionTextSlots? {
        guard let entry = entry("text") else { return nil }
        var slots = SectionTextSlots(line: entry.line)
        let words = entry.value.split(separator: " ", omittingEmptySubsequences: true)
        guard !words.isEmpty else { throw error(entry, reason: "expected SLOT:STYLE pairs or one STYLE, got nothing") }
        for word in words {
            guard let colon = word.firstIndex(of: ":") else {
                guard words.count == 1 else {
                    throw error(entry, reason: "\(word): expected SLOT:STYLE (one bare STYLE names every slot)")
                }
                slots.everySlot = String(word)
                continue
            }
            guard let slot = Int(word[..<colon]), (0...9_999).contains(slot), colon < word.index(before: word.endIndex)
            else {
                throw error(entry, reason: "\(word): expected SLOT:STYLE with a slot from 0 to 9999, as in 0:headline")
            }
            guard slots.bySlot.updateValue(String(word[word.index(after: colon)...]), forKey: slot) == nil else {
                throw error(entry, reason: "slot \(slot) is given twice")
            }
        }
        return slots
    }
}

extension DaemonSettings {
    /// The text styles bound to some section in `homefeedd.conf` of `directory`, or none when
    /// the file is missing or invalid: a quick read before the configuration is loaded, to warm
    /// the measurer up.
    public static func textStyles(in directory: URL) -> [TextStyle] {
        let url = directory.appendingPathComponent(LoadedConfiguration.settingsFile)
        guard let data = FileManager.default.contents(atPath: url.path), data.count <= ConfigFile.maxBytes,
            let settings = try? DaemonSettings(ConfigFile(path: url.path, bytes: [UInt8](data))),
            !settings.textSlots.isEmpty
        else { return [] }
        return settings.textStyles.map(\.style)
    }

    /// Every style a `text` key names must be declared (in any order in the file).
    func checkTextSlots(file: String) throws(ConfigError) {
        let declared = Set(textStyles.map(\.name))
        for (section, slots) in textSlots.sorted(by: { $0.key < $1.key }) {
            if let missing = slots.styleNames.sorted().first(where: { !declared.contains($0) }) {
                let known =
                    declared.isEmpty ? "none is declared" : "declared: " + declared.sorted().joined(separator: ", ")
                throw ConfigError(
                    file: file,
                    line: slots.line,
                    key: "text",
                    reason: "[section \(section)] names no [text \(missing)] (\(known))"
                )
            }
        }
    }
}

import HomeLayout
import ThumbnailProtocol

/// Typed reading of one configuration block, remembering which keys were read so unknown
/// keys can be reported.
struct BlockReader {
    let file: String
    let block: ConfigFile.Block
    private var read: Set<String> = []

    init(file: String, block: ConfigFile.Block) {
        self.file = file
        self.block = block
    }

    func error(_ entry: ConfigFile.Entry? = nil, reason: String) -> ConfigError {
        ConfigError(file: file, line: entry?.line ?? block.line, key: entry?.key, reason: reason)
    }

    mutating func entry(_ key: String) -> ConfigFile.Entry? {
        read.insert(key)
        return block.value(key)
    }

    mutating func string(_ key: String) -> String? { entry(key)?.value }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let entry = entry(key) else { return nil }
        guard let value = Int(entry.value), range.contains(value) else {
            throw error(
                entry,
                reason:
                    "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(entry.value)\""
            )
        }
        return value
    }

    mutating func number(_ key: String) throws(ConfigError) -> Double? {
        guard let entry = entry(key) else { return nil }
        guard let value = Double(entry.value), value.isFinite else {
            throw error(entry, reason: "expected a number, got \"\(entry.value)\"")
        }
        return value
    }

    /// `90`, `90s`, `15m`, `2h`, `1d` → seconds (at least 1 s, at most 30 days).
    mutating func duration(_ key: String) throws(ConfigError) -> Double? {
        guard let entry = entry(key) else { return nil }
        let text = entry.value
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var number = Substring(text)
        var unit = 1.0
        if let last = text.last, let factor = units[last] {
            number = text.dropLast()
            unit = factor
        }
        guard let value = Double(number), value.isFinite, value * unit >= 1, value * unit <= 30 * 86_400 else {
            throw error(entry, reason: "expected a duration like 90s, 15m or 2h (1 s to 30 days), got \"\(text)\"")
        }
        return value * unit
    }

    /// Seconds as a duration is written: `1d`, `2h`, `5m`, else `90s`.
    static func durationText(_ seconds: Double) -> String {
        for (unit, size) in [("d", 86_400.0), ("h", 3600), ("m", 60)] where seconds >= size {
            if seconds.truncatingRemainder(dividingBy: size) == 0 { return "\(Int(seconds / size))\(unit)" }
        }
        return "\(Int(seconds))s"
    }

    /// `65536`, `64K`, `15M`, `1G` → bytes (binary multiples), within `range`.
    mutating func size(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let entry = entry(key) else { return nil }
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var number = Substring(entry.value)
        var unit = 1
        if let last = number.last?.uppercased().first, let factor = units[last] {
            number = number.dropLast()
            unit = factor
        }
        guard let value = Int(number), value >= 0, value <= Int.max / unit, range.contains(value * unit) else {
            throw error(
                entry,
                reason: "expected a size like 65536, 512K or 15M (\(range.lowerBound) to \(range.upperBound) bytes), "
                    + "got \"\(entry.value)\""
            )
        }
        return value * unit
    }

    /// `T,L,B,R` insets, each at most the layout's largest magnitude (as a width is).
    mutating func insets(_ key: String) throws(ConfigError) -> EdgeInsets {
        guard let entry = entry(key) else { return .zero }
        let parts = entry.value.split(separator: ",").map { Double($0.trimmingWhitespace()) }
        let limit = LayoutLimits.maxMagnitude
        guard parts.count == 4, let t = parts[0], let l = parts[1], let b = parts[2], let r = parts[3],
            [t, l, b, r].allSatisfy({ $0 >= 0 && $0 <= limit })
        else {
            throw error(
                entry,
                reason:
                    "expected four numbers from 0 to \(Int(limit)) top,leading,bottom,trailing, got \"\(entry.value)\""
            )
        }
        return EdgeInsets(top: t, leading: l, bottom: b, trailing: r)
    }

    mutating func profile(_ name: String) throws(ConfigError) -> Profile {
        guard let width = try number("width"), let height = try number("height") else {
            throw error(reason: "[profile \(name)] needs width and height")
        }
        let environment = LayoutEnvironment(
            width: width,
            height: height,
            scale: try number("scale") ?? 2,
            safeAreaInsets: try insets("safe-area"),
            layoutMargins: try insets("layout-margins"),
            readableContentInsets: try insets("readable-content"),
            layoutDirection: try direction(),
            platform: try platform()
        )
        let limit = LayoutLimits.maxMagnitude
        guard width > 0, height > 0, width <= limit, height <= limit, environment.scale >= 0, environment.scale <= 16
        else {
            throw error(reason: "[profile \(name)]: width and height must be in (0, \(Int(limit))], scale in [0, 16]")
        }
        return Profile(name: name, environment: environment)
    }

    /// `platform = ios17 | ios14`: the geometry of the clients this profile serves; absent, the
    /// layout's own `configuration.platform`.
    private mutating func platform() throws(ConfigError) -> LayoutPlatform? {
        guard let entry = entry("platform") else { return nil }
        guard let platform = LayoutPlatform(rawValue: entry.value) else {
            throw error(entry, reason: "expected ios17 or ios14, got \"\(entry.value)\"")
        }
        return platform
    }

    private mutating func direction() throws(ConfigError) -> LayoutDirection {
        guard let entry = entry("direction") else { return .leftToRight }
        switch entry.value {
        case "ltr": return .leftToRight
        case "rtl": return .rightToLeft
        default: throw error(entry, reason: "expected ltr or rtl, got \"\(entry.value)\"")
        }
    }

    /// `items = notices:1! services/main-service:3`, `header = profile | title:TEXT | none`,
    /// `empty = header-only | placeholder | hide`, `placeholder = TEXT`.
    mutating func binding(_ id: String) throws(ConfigError) -> SectionBinding {
        var binding = SectionBinding(sectionID: id, sources: [])
        if let entry = entry("items") {
            for word in entry.value.split(separator: " ", omittingEmptySubsequences: true) {
                binding.sources.append(try source(String(word), entry))
            }
        }
        if let entry = entry("header") {
            if entry.value == "none" {
                binding.header = .none
            } else if entry.value == "profile" {
                binding.header = .profile
            } else if entry.value.hasPrefix("title:") {
                binding.header = .title(String(entry.value.dropFirst(6)).trimmingWhitespace())
            } else {
                throw error(entry, reason: "expected none, profile or title:TEXT, got \"\(entry.value)\"")
            }
        }
        if let entry = entry("empty") {
            switch entry.value {
            case "header-only": binding.empty = .headerOnly
            case "placeholder": binding.empty = .placeholder
            case "hide": binding.empty = .hide
            default: throw error(entry, reason: "expected header-only, placeholder or hide, got \"\(entry.value)\"")
            }
        }
        if let text = string("placeholder") { binding.placeholder = text }
        binding.image = try imageSlot()
        return binding
    }

    /// `image = fill | fit | none` and `image-size = WxH` (points) of a `[section ID]`.
    private mutating func imageSlot() throws(ConfigError) -> ImageSlot {
        var slot = ImageSlot()
        if let entry = entry("image") {
            switch entry.value {
            case "fill": slot.mode = .fill
            case "fit": slot.mode = .fit
            case "none": slot.isEnabled = false
            default: throw error(entry, reason: "expected fill, fit or none, got \"\(entry.value)\"")
            }
        }
        if let entry = entry("image-size") {
            let parts = entry.value.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Double(parts[0].trimmingWhitespace()),
                let height = Double(parts[1].trimmingWhitespace()), width >= 1, height >= 1, width <= 4096,
                height <= 4096
            else {
                throw error(entry, reason: "expected WIDTHxHEIGHT in points (1 to 4096), got \"\(entry.value)\"")
            }
            slot.width = width
            slot.height = height
        }
        return slot
    }

    /// `history[:N]`, `notices[:N][!]`, `notices@URL[:N][!]`, `services/CATEGORY[:N][!]`.
    private func source(_ word: String, _ entry: ConfigFile.Entry) throws(ConfigError) -> SectionBinding.Source {
        var text = Substring(word)
        let isExact = text.hasSuffix("!")
        if isExact { text = text.dropLast() }
        var limit: Int?
        let range = 1...SectionBinding.Source.maxLimit
        if let colon = text.lastIndex(of: ":"), let value = Int(text[text.index(after: colon)...]),
            // Past the limit's range, a notices@URL's last number is its port (checked against
            // the sources list later, DaemonSettings.resolveNoticeRuns).
            range.contains(value) || !text.hasPrefix("notices@")
        {
            guard range.contains(value) else {
                throw error(entry, reason: "\(word): limit must be 1 to \(SectionBinding.Source.maxLimit)")
            }
            limit = value
            text = text[..<colon]
        }
        guard !isExact || limit != nil else {
            throw error(entry, reason: "\(word): '!' needs a limit, as in notices:1!")
        }
        let content: SectionBinding.Source.Content
        if text == "history" {
            content = .history
        } else if text == "notices" {
            content = .notices(sourceURL: nil)
        } else if text.hasPrefix("notices@"), text.count > 8 {
            content = .notices(sourceURL: String(text.dropFirst(8)))
        } else if text.hasPrefix("services/"), text.count > 9 {
            content = .services(category: String(text.dropFirst(9)))
        } else {
            throw error(
                entry,
                reason:
                    "\(word): expected history, notices, notices@URL or services/CATEGORY, with an optional :N and !"
            )
        }
        return SectionBinding.Source(content, limit: limit, isExact: isExact)
    }

    func rejectUnread() throws(ConfigError) {
        if let unknown = block.entries.first(where: { !read.contains($0.key) }) {
            throw error(unknown, reason: "unknown key in [\(block.kind)]")
        }
    }
}

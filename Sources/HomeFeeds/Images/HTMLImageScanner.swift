/// Finds the first usable `<img>` of an entry's HTML (a description, `content:encoded`,
/// Atom `html` content, JSON Feed `content_html`) without building a tree: a byte scan for
/// `<img`, then its `src`, `width` and `height` attributes, each entity-decoded once.
///
/// Skipped: `data:` sources, tracking pixels (a declared width or height of 1 or 2) and tags
/// without `src`. Only the first `maxScannedBytes` are looked at.
enum HTMLImageScanner {
    static let maxScannedBytes = 256 << 10

    struct Found: Equatable {
        var source: String
        var width: Int?
        var height: Int?
    }

    static func firstImage(in html: UnsafeBufferPointer<UInt8>) -> Found? {
        let end = min(html.count, maxScannedBytes)
        var index = 0
        while index + 4 < end {
            guard html[index] == UInt8(ascii: "<") else {
                // Straight to the next `<` (memchr): most of the text is not markup.
                guard let next = html.index(of: UInt8(ascii: "<"), from: index, before: end) else { return nil }
                index = next
                continue
            }
            guard html[index + 1] | 0x20 == UInt8(ascii: "i"),
                html[index + 2] | 0x20 == UInt8(ascii: "m"), html[index + 3] | 0x20 == UInt8(ascii: "g"),
                isSpace(html[index + 4]) || html[index + 4] == UInt8(ascii: "/")
            else {
                index += 1
                continue
            }
            let (attributes, next) = readAttributes(html, from: index + 4, end: end)
            index = next
            guard let source = attributes["src"], !source.isEmpty, !source.lowercased().hasPrefix("data:") else {
                continue
            }
            let width = ImageCandidates.dimension(attributes["width"])
            let height = ImageCandidates.dimension(attributes["height"])
            if let width, width <= 2 { continue }
            if let height, height <= 2 { continue }
            return Found(source: source, width: width, height: height)
        }
        return nil
    }

    /// Attributes up to the tag's `>` (names lowercased, first occurrence wins) and the index
    /// after it.
    private static func readAttributes(_ html: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> (
        [String: String], Int
    ) {
        var attributes: [String: String] = [:]
        var index = start
        while index < end {
            while index < end, isSpace(html[index]) || html[index] == UInt8(ascii: "/") { index += 1 }
            guard index < end, html[index] != UInt8(ascii: ">") else { return (attributes, index + 1) }
            let nameStart = index
            while index < end, !isSpace(html[index]), html[index] != UInt8(ascii: "="), html[index] != UInt8(ascii: ">")
            {
                index += 1
            }
            let name = String(decoding: html[nameStart..<index], as: UTF8.self).lowercased()
            while index < end, isSpace(html[index]) { index += 1 }
            var value = ""
            if index < end, html[index] == UInt8(ascii: "=") {
                index += 1
                while index < end, isSpace(html[index]) { index += 1 }
                let quote = index < end ? html[index] : 0
                let valueStart: Int
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    index += 1
                    valueStart = index
                    while index < end, html[index] != quote { index += 1 }
                    value = decodeEntities(html[valueStart..<index])
                    index += 1
                } else {
                    valueStart = index
                    while index < end, !isSpace(html[index]), html[index] != UInt8(ascii: ">") { index += 1 }
                    value = decodeEntities(html[valueStart..<index])
                }
            }
            if !name.isEmpty, attributes[name] == nil { attributes[name] = value }
        }
        return (attributes, index)
    }

    /// One pass of HTML character references over an attribute value: `&amp;`, `&#38;`,
    /// `&#x26;` and the HTML5 names; anything else stays as written.
    static func decodeEntities(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "&"),
                let semicolon = bytes[index..<min(bytes.endIndex, index + 34)].firstIndex(of: UInt8(ascii: ";"))
            else {
                out.append(bytes[index])
                index += 1
                continue
            }
            let body = bytes[(index + 1)..<semicolon]
            var replacement: [UInt8]?
            if body.first == UInt8(ascii: "#") {
                let digits = String(decoding: body.dropFirst(), as: UTF8.self)
                let value =
                    digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                replacement = value.map { Array(String(Character(HTMLEntities.numericScalar($0))).utf8) }
            } else {
                replacement = HTMLEntities.lookup(UnsafeBufferPointer(rebasing: body))
            }
            if let replacement {
                out += replacement
                index = semicolon + 1
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
}

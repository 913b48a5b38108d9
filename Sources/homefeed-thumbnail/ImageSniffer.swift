/// What the bytes of a fetched image are, decided from their magic numbers and headers alone,
/// before libvips sees them: the format picks the one loader that may run, and the header's
/// pixel count is checked before anything is decoded.
///
/// Formats: PNG, JPEG, GIF, WebP, and ICO (its largest PNG entry is taken out and read as PNG;
/// BMP entries are not decoded). Refused with a reason: SVG (see `docs/images.md`: rasterising
/// it means an XML parser, CSS, fonts and unbounded filter work on hostile input, and no pixel
/// size can be checked before the work), HTML, HTML polyglots (a recognised image whose first
/// 64 KiB also carry `<html` or `<script`), and anything else.
enum ImageFormat: String {
    case png, jpeg, gif, webp, ico
}

/// A sniffed image: its format, the bytes the loader gets (the PNG entry for an ICO) and the
/// pixel size its header claims.
struct SniffedImage {
    /// The file's format (`ico` for an icon).
    var container: ImageFormat
    /// The format of the loader's bytes (`png` for an icon's entry).
    var format: ImageFormat
    /// Where the loader's bytes are inside the input.
    var range: Range<Int>
    var width: Int
    var height: Int
}

struct SniffError: Error {
    var reason: String
    /// The helper's surroundings failed, not the image: the original could not be read or a
    /// rendition not written (``ThumbnailResponse/interrupted(id:reason:)``).
    var isEnvironment = false
}

enum ImageSniffer {
    static func sniff(_ bytes: UnsafeRawBufferPointer, maxPixels: Int) throws(SniffError) -> SniffedImage {
        let format = try format(of: bytes)
        if let marker = polyglotMarker(bytes) {
            throw SniffError(reason: "refused: a \(format.rawValue) file that also holds HTML (\(marker)), a polyglot")
        }
        let image: SniffedImage
        switch format {
        case .ico:
            image = try largestPNGEntry(bytes, maxPixels: maxPixels)
        default:
            guard let (width, height) = dimensions(format, bytes) else {
                throw SniffError(reason: "\(format.rawValue) header is truncated or damaged")
            }
            image = SniffedImage(
                container: format,
                format: format,
                range: 0..<bytes.count,
                width: width,
                height: height
            )
        }
        try checkPixels(image.width, image.height, maxPixels: maxPixels)
        return image
    }

    static func fits(_ width: Int, _ height: Int, maxPixels: Int) -> Bool {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= maxPixels
    }

    static func checkPixels(_ width: Int, _ height: Int, maxPixels: Int) throws(SniffError) {
        guard width > 0, height > 0 else {
            throw SniffError(reason: "header claims an empty image (\(width)×\(height))")
        }
        guard fits(width, height, maxPixels: maxPixels) else {
            throw SniffError(
                reason: "header claims \(width)×\(height) pixels, more than the limit of \(megapixels(maxPixels)) MP; "
                    + "not decoded"
            )
        }
    }

    private static func megapixels(_ pixels: Int) -> String {
        pixels % 1_000_000 == 0 ? String(pixels / 1_000_000) : String(Double(pixels) / 1_000_000)
    }

    // MARK: Magic numbers

    static func format(of bytes: UnsafeRawBufferPointer) throws(SniffError) -> ImageFormat {
        if starts(bytes, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(bytes, [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(bytes, Array("GIF87a".utf8)) || starts(bytes, Array("GIF89a".utf8)) { return .gif }
        if starts(bytes, Array("RIFF".utf8)), bytes.count >= 12, equal(bytes, at: 8, Array("WEBP".utf8)) {
            return .webp
        }
        if starts(bytes, [0, 0, 1, 0]), bytes.count >= 6, UInt16(bytes[4]) | UInt16(bytes[5]) << 8 > 0 { return .ico }
        let text = leadingText(bytes)
        if text.contains("<svg") {
            throw SniffError(reason: "SVG is not rendered (refused: scripts, external references, unbounded work)")
        }
        if text.hasPrefix("<") || text.contains("<html") || text.contains("<!doctype") {
            throw SniffError(reason: "not an image: the body is HTML or XML")
        }
        if bytes.isEmpty { throw SniffError(reason: "not an image: the body is empty") }
        let shown = bytes.prefix(8).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }
        throw SniffError(reason: "not an image of a supported format (starts with \(shown.joined(separator: " ")))")
    }

    /// The first 1 KiB, lowercased, whitespace and a UTF-8 byte-order mark skipped.
    private static func leadingText(_ bytes: UnsafeRawBufferPointer) -> String {
        var start = 0
        if starts(bytes, [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let end = min(bytes.count, start + 1024)
        return String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
    }

    /// `<html` or `<script` (any case) in the first 64 KiB of an image: made to be read as a
    /// page by something that sniffs, too.
    static func polyglotMarker(_ bytes: UnsafeRawBufferPointer) -> String? {
        let end = min(bytes.count, 64 << 10)
        for marker in ["<html", "<script"] {
            let needle = Array(marker.utf8)
            var index = 0
            while index + needle.count <= end {
                if bytes[index] == UInt8(ascii: "<") {
                    var matches = true
                    for offset in 1..<needle.count where bytes[index + offset] | 0x20 != needle[offset] {
                        matches = false
                        break
                    }
                    if matches { return marker }
                }
                index += 1
            }
        }
        return nil
    }

    // MARK: Header dimensions

    static func dimensions(_ format: ImageFormat, _ bytes: UnsafeRawBufferPointer) -> (Int, Int)? {
        switch format {
        case .png:
            // Signature, then the IHDR chunk: length, "IHDR", width, height (big-endian).
            guard bytes.count >= 24, equal(bytes, at: 12, Array("IHDR".utf8)) else { return nil }
            return (Int(bigEndian32(bytes, 16)), Int(bigEndian32(bytes, 20)))
        case .gif:
            // The logical screen: width and height, little-endian, after the 6-byte signature.
            guard bytes.count >= 10 else { return nil }
            return (Int(littleEndian16(bytes, 6)), Int(littleEndian16(bytes, 8)))
        case .webp:
            return webpDimensions(bytes)
        case .jpeg:
            return jpegDimensions(bytes)
        case .ico:
            return nil
        }
    }

    /// The frame header of a `VP8 ` (lossy), `VP8L` (lossless) or `VP8X` (extended) WebP.
    private static func webpDimensions(_ bytes: UnsafeRawBufferPointer) -> (Int, Int)? {
        guard bytes.count >= 30 else { return nil }
        if equal(bytes, at: 12, Array("VP8 ".utf8)) {
            // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
            guard bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A else { return nil }
            return (Int(littleEndian16(bytes, 26) & 0x3FFF), Int(littleEndian16(bytes, 28) & 0x3FFF))
        }
        if equal(bytes, at: 12, Array("VP8L".utf8)) {
            // Signature 0x2f, then width − 1 and height − 1 in 14 bits each.
            guard bytes[20] == 0x2F else { return nil }
            let bits = UInt32(bytes[21]) | UInt32(bytes[22]) << 8 | UInt32(bytes[23]) << 16 | UInt32(bytes[24]) << 24
            return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        }
        if equal(bytes, at: 12, Array("VP8X".utf8)) {
            // Flags and reserved bytes, then canvas width − 1 and height − 1 in 24 bits each.
            let width = UInt32(bytes[24]) | UInt32(bytes[25]) << 8 | UInt32(bytes[26]) << 16
            let height = UInt32(bytes[27]) | UInt32(bytes[28]) << 8 | UInt32(bytes[29]) << 16
            return (Int(width) + 1, Int(height) + 1)
        }
        return nil
    }

    /// Walks the JPEG markers to the first start-of-frame (SOF0…SOF15 but DHT, JPG and DAC):
    /// length, precision, height, width (big-endian). Stops at start-of-scan.
    private static func jpegDimensions(_ bytes: UnsafeRawBufferPointer) -> (Int, Int)? {
        var index = 2
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            var marker = bytes[index + 1]
            index += 2
            while marker == 0xFF, index < bytes.count {
                marker = bytes[index]
                index += 1
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xDA || marker == 0xD9 { return nil }
            guard index + 1 < bytes.count else { return nil }
            let length = Int(bigEndian16(bytes, index))
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 7 <= bytes.count else { return nil }
                return (Int(bigEndian16(bytes, index + 5)), Int(bigEndian16(bytes, index + 3)))
            }
            index += length
        }
        return nil
    }

    // MARK: ICO

    /// The largest PNG entry of an ICO directory whose header fits `maxPixels`.
    private static func largestPNGEntry(_ bytes: UnsafeRawBufferPointer, maxPixels: Int) throws(SniffError)
        -> SniffedImage
    {
        let count = Int(littleEndian16(bytes, 4))
        var best: SniffedImage?
        var tooLarge: (Int, Int)?
        var bmpEntries = 0
        for entry in 0..<count {
            let base = 6 + entry * 16
            guard base + 16 <= bytes.count else { break }
            let size = Int(littleEndian32(bytes, base + 8))
            let offset = Int(littleEndian32(bytes, base + 12))
            guard offset >= 0, size > 0, offset <= bytes.count, size <= bytes.count - offset else { continue }
            let data = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)])
            guard starts(data, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
                bmpEntries += 1
                continue
            }
            guard let (width, height) = dimensions(.png, data), width > 0, height > 0 else { continue }
            guard fits(width, height, maxPixels: maxPixels) else {
                tooLarge = (width, height)
                continue
            }
            if best.map({ width * height > $0.width * $0.height }) ?? true {
                best = SniffedImage(
                    container: .ico,
                    format: .png,
                    range: offset..<(offset + size),
                    width: width,
                    height: height
                )
            }
        }
        if let best { return best }
        if let (width, height) = tooLarge { try checkPixels(width, height, maxPixels: maxPixels) }
        throw SniffError(
            reason: bmpEntries > 0
                ? "ICO without a PNG image (its \(bmpEntries) BMP entries are not decoded)"
                : "ICO directory is empty or damaged"
        )
    }

    // MARK: Bytes

    private static func starts(_ bytes: UnsafeRawBufferPointer, _ prefix: [UInt8]) -> Bool {
        equal(bytes, at: 0, prefix)
    }

    private static func equal(_ bytes: UnsafeRawBufferPointer, at offset: Int, _ expected: [UInt8]) -> Bool {
        guard offset >= 0, offset + expected.count <= bytes.count else { return false }
        for (index, byte) in expected.enumerated() where bytes[offset + index] != byte { return false }
        return true
    }

    private static func bigEndian32(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    private static func bigEndian16(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt16 {
        UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }

    private static func littleEndian16(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt16 {
        guard at + 1 < bytes.count else { return 0 }
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func littleEndian32(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        guard at + 3 < bytes.count else { return 0 }
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3])
            << 24
    }
}

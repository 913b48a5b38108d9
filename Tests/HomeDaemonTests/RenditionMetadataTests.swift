import Foundation
import TestSupport
import Testing
import ThumbnailProtocol

@testable import HomeDaemon

/// Renditions carry pixels only: the EXIF, comments and text chunks of the original are stripped
/// (`docs/images.md`; the CVips savers' "strip"). Inputs are the fixtures with metadata written
/// in by hand, each holding a marker that must not reach the rendition.
@Suite(.timeLimit(.minutes(1)))
struct RenditionMetadataTests {
    static let marker = Array("hf-metadata-marker".utf8)

    let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory(prefix: "hf-strip")
    }

    /// Renders `bytes` into one 16-pixel box and returns the rendition's bytes.
    func render(_ bytes: [UInt8], format: RenditionFormat) async throws -> [UInt8] {
        let input = scratch.file("input")
        let output = scratch.file("output")
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let renderer = ThumbnailRenderer(configuration: .init(helperPath: ThumbnailRendererTests.helperPath))
        let request = ThumbnailRequest(
            id: 1,
            input: input,
            renditions: [RenditionRequest(width: 16, height: 16, mode: .fit, format: format, output: output)]
        )
        let outcome = await renderer.render([request])
        guard case .success(.made)? = outcome.results[1] else {
            throw FixtureError("not rendered: \(String(describing: outcome.results[1]))")
        }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// A little-endian TIFF header (8 bytes) whose IFD at 8 holds one ImageDescription (tag
    /// 0x010E, ASCII) entry: 2 + 12 + 4 = 18 bytes, so the marker text is at 8 + 18 = 26.
    func exifTIFF() -> [UInt8] {
        let text = Self.marker + [0]
        return Array("II".utf8) + [42, 0, 8, 0, 0, 0] + [1, 0] + [0x0E, 0x01, 2, 0]
            + [UInt8(text.count), 0, 0, 0] + [26, 0, 0, 0] + [0, 0, 0, 0] + text
    }

    @Test("a PNG's EXIF, text and time chunks do not reach its PNG rendition")
    func png() async throws {
        let icon = try ThumbnailRendererTests.fixture("icon.png")
        // After the signature (8 bytes) and IHDR (4 length + 4 type + 13 data + 4 CRC = 25): 33.
        let input =
            Array(icon.prefix(33)) + PNGBytes.chunk("eXIf", exifTIFF())
            + PNGBytes.chunk("tEXt", Array("Comment\0".utf8) + Self.marker)
            + PNGBytes.chunk("iTXt", Array("Author\0\0\0\0\0".utf8) + Self.marker)
            + PNGBytes.chunk("tIME", [0x07, 0xEA, 11, 30, 12, 0, 0]) + Array(icon.dropFirst(33))
        let rendition = try await render(input, format: .png)
        let types = pngChunkTypes(rendition)
        #expect(types.first == "IHDR" && types.last == "IEND")
        #expect(types.filter { ["tEXt", "iTXt", "zTXt", "tIME", "eXIf", "iCCP"].contains($0) } == [])
        #expect(!contains(rendition, Self.marker))
    }

    @Test("a JPEG's EXIF and comment do not reach its WebP rendition")
    func jpeg() async throws {
        let photo = try ThumbnailRendererTests.fixture("photo.jpg")
        // APP1 "Exif\0\0" and the TIFF; a comment (COM) segment.
        let exif = Array("Exif".utf8) + [0, 0] + exifTIFF()
        let comment = Array("comment ".utf8) + Self.marker
        let input =
            [0xFF, 0xD8] + segment(0xE1, exif) + segment(0xFE, comment) + Array(photo.dropFirst(2))
        let rendition = try await render(input, format: .webp)
        #expect(rendition.starts(with: Array("RIFF".utf8)))
        #expect(webpChunkTypes(rendition).filter { ["EXIF", "XMP ", "ICCP"].contains($0) } == [])
        #expect(!contains(rendition, Self.marker))
    }

    /// A JPEG marker segment: FF, the marker, the big-endian length (itself included), the data.
    func segment(_ marker: UInt8, _ data: [UInt8]) -> [UInt8] {
        let length = data.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + data
    }

    /// The chunk types of a PNG, in order.
    func pngChunkTypes(_ bytes: [UInt8]) -> [String] {
        var types: [String] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }

    /// The chunk FourCCs of a WebP (RIFF) file, after the "WEBP" form type at 8.
    func webpChunkTypes(_ bytes: [UInt8]) -> [String] {
        var types: [String] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = bytes[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
            offset += 8 + size + size % 2
        }
        return types
    }

    func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...bytes.count - needle.count).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}

import CVips
import Glibc
import SystemCalls
import ThumbnailProtocol

/// Decodes one original and writes its renditions with libvips, bounded at every step: the
/// file size before reading, the sniffed header's pixel count before the loader runs, libvips'
/// own header before any pixel is decoded, and `fail_on` truncated input while decoding.
///
/// The original is decoded once, at the smallest size every rendition can be cut from
/// (shrink-on-load for JPEG and WebP, a Lanczos resize for the rest), held in memory, rotated
/// upright by its EXIF orientation, then each rendition is made from that copy. Renditions are
/// sRGB, 8 bits per sample, without metadata; the average colour is taken from a ≤ 32 px copy,
/// weighted by alpha.
///
/// Not Sendable: one renderer per helper process, used from its main thread.
final class VipsRenderer {
    struct Limits {
        /// Width × height a header may claim (`--max-pixels`).
        var maxPixels: Int
        /// The largest original read (`--max-input-bytes`).
        var maxInputBytes: Int
    }

    let limits: Limits
    /// WebP quality of photo renditions (libvips' `Q`).
    static let webpQuality: Int32 = 80
    /// Frames an animated GIF or WebP may have: only the first is shown, but a file of more is
    /// not an image anyone meant to show (libnsgif reads every frame header to count them).
    static let maxFrames = 1000

    init(limits: Limits) {
        self.limits = limits
    }

    func render(_ request: ThumbnailRequest) -> ThumbnailResponse {
        do throws(SniffError) {
            return try make(request)
        } catch {
            return error.isEnvironment
                ? .interrupted(id: request.id, reason: error.reason) : .failed(id: request.id, reason: error.reason)
        }
    }

    private func make(_ request: ThumbnailRequest) throws(SniffError) -> ThumbnailResponse {
        for rendition in request.renditions {
            guard (1...8192).contains(rendition.width), (1...8192).contains(rendition.height) else {
                throw SniffError(reason: "rendition box \(rendition.width)×\(rendition.height) is out of range")
            }
        }
        let input = try InputFile(path: request.input, maxBytes: limits.maxInputBytes)
        let sniffed = try ImageSniffer.sniff(input.bytes, maxPixels: limits.maxPixels)
        let bytes = UnsafeRawBufferPointer(rebasing: input.bytes[sniffed.range])

        // libvips' header, before any pixel is decoded: it must agree with the limit too.
        let header = try load(sniffed.format, bytes, shrink: 1)
        defer { cvips_unref(header) }
        let width = Int(vips_image_get_width(header))
        let height = Int(vips_image_get_height(header))
        try ImageSniffer.checkPixels(width, height, maxPixels: limits.maxPixels)
        let frames = Int(vips_image_get_n_pages(header))
        guard frames <= Self.maxFrames else {
            throw SniffError(
                reason: "\(sniffed.format.rawValue) with \(frames) frames, more than \(Self.maxFrames); refused"
            )
        }
        let swapped = vips_image_get_orientation_swap(header) != 0
        let (uprightWidth, uprightHeight) = swapped ? (height, width) : (width, height)

        // The scale of the largest rendition relative to the original (never above 1).
        var scale = min(1, 64 / Double(max(uprightWidth, uprightHeight)))
        for rendition in request.renditions {
            let sx = Double(rendition.width) / Double(uprightWidth)
            let sy = Double(rendition.height) / Double(uprightHeight)
            scale = max(scale, rendition.mode == .fill ? max(sx, sy) : min(sx, sy))
        }
        scale = min(1, scale)

        let decoded = try decode(sniffed.format, bytes, width: width, height: height, scale: scale)
        defer { cvips_unref(decoded) }
        var renditions: [RenditionResult] = []
        for rendition in request.renditions {
            renditions.append(try write(decoded, rendition))
        }
        return .made(
            id: request.id,
            format: sniffed.container.rawValue,
            width: uprightWidth,
            height: uprightHeight,
            averageColor: try averageColor(decoded),
            renditions: renditions
        )
    }

    // MARK: Decoding

    private func load(_ format: ImageFormat, _ bytes: UnsafeRawBufferPointer, shrink: Int) throws(SniffError)
        -> UnsafeMutablePointer<VipsImage>
    {
        var image: UnsafeMutablePointer<VipsImage>?
        let status: Int32
        switch format {
        case .png, .ico: status = cvips_pngload(bytes.baseAddress, bytes.count, &image)
        case .jpeg: status = cvips_jpegload(bytes.baseAddress, bytes.count, Int32(shrink), &image)
        case .gif: status = cvips_gifload(bytes.baseAddress, bytes.count, &image)
        case .webp: status = cvips_webpload(bytes.baseAddress, bytes.count, 1 / Double(shrink), &image)
        }
        guard status == 0, let image else { throw Self.vipsError("\(format.rawValue) header") }
        return image
    }

    /// The original in memory, upright, at `scale` of its size (rounded by libvips).
    private func decode(
        _ format: ImageFormat,
        _ bytes: UnsafeRawBufferPointer,
        width: Int,
        height: Int,
        scale: Double
    ) throws(SniffError) -> UnsafeMutablePointer<VipsImage> {
        // Shrink-on-load as vipsthumbnail does it: a DCT block shrink to at most half the way
        // down, leaving at least a factor of two to the Lanczos step (JPEG); libwebp's scaled
        // decode straight to the target (WebP).
        var image: UnsafeMutablePointer<VipsImage>
        let factor = 1 / scale
        switch format {
        case .jpeg:
            let shrink = factor >= 16 ? 8 : factor >= 8 ? 4 : factor >= 4 ? 2 : 1
            image = try load(.jpeg, bytes, shrink: shrink)
        case .webp where scale < 1:
            var loaded: UnsafeMutablePointer<VipsImage>?
            guard cvips_webpload(bytes.baseAddress, bytes.count, scale, &loaded) == 0, let loaded else {
                throw Self.vipsError("webp")
            }
            image = loaded
        default:
            image = try load(format, bytes, shrink: 1)
        }
        let hscale = scale * Double(width) / Double(vips_image_get_width(image))
        let vscale = scale * Double(height) / Double(vips_image_get_height(image))
        if hscale < 0.999 || vscale < 0.999 {
            image = try step(image, "resize") { cvips_resize($0, &$1, hscale, vscale) }
        }
        // Decoding happens here; a truncated or corrupt body fails here (fail_on).
        guard let memory = vips_image_copy_memory(image) else {
            cvips_unref(image)
            throw Self.vipsError("\(format.rawValue) decode")
        }
        cvips_unref(image)
        return try step(memory, "rotate") { cvips_autorot($0, &$1) }
    }

    // MARK: Renditions

    private func write(_ decoded: UnsafeMutablePointer<VipsImage>, _ request: RenditionRequest) throws(SniffError)
        -> RenditionResult
    {
        cvips_retain(decoded)
        var image = try step(decoded, "thumbnail") {
            cvips_thumbnail($0, &$1, Int32(request.width), Int32(request.height), request.mode == .fill ? 1 : 0)
        }
        image = try sRGB8(image)
        defer { cvips_unref(image) }
        var format = request.format
        if format == .auto { format = vips_image_hasalpha(image) != 0 ? .png : .webp }
        let status =
            format == .png
            ? cvips_pngsave(image, request.output) : cvips_webpsave(image, request.output, Self.webpQuality)
        guard status == 0 else {
            var error = Self.vipsError("\(format.rawValue) save")
            error.isEnvironment = !Self.canWrite(near: request.output)
            throw error
        }
        var info = stat()
        let size = stat(request.output, &info) == 0 ? Int(info.st_size) : 0
        return RenditionResult(
            output: request.output,
            width: Int(vips_image_get_width(image)),
            height: Int(vips_image_get_height(image)),
            format: format,
            bytes: size
        )
    }

    /// sRGB (or grey), 8 bits per sample, through the embedded ICC profile when there is one.
    private func sRGB8(_ input: UnsafeMutablePointer<VipsImage>) throws(SniffError) -> UnsafeMutablePointer<VipsImage> {
        var image = input
        if cvips_has_icc_profile(image) != 0 {
            var converted: UnsafeMutablePointer<VipsImage>?
            if cvips_icc_to_srgb(image, &converted) == 0, let converted {
                cvips_unref(image)
                image = converted
            } else {
                vips_error_clear()
            }
        }
        let colourBands = Int(vips_image_get_bands(image)) - (vips_image_hasalpha(image) != 0 ? 1 : 0)
        let space = colourBands == 1 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB
        image = try step(image, "colourspace") { cvips_colourspace($0, &$1, space) }
        if vips_image_get_format(image) != VIPS_FORMAT_UCHAR {
            image = try step(image, "cast") { cvips_cast_uchar($0, &$1) }
        }
        return image
    }

    /// `#rrggbb` of a ≤ 32 px copy, each pixel weighted by its alpha (an icon's transparent
    /// margin does not pull the colour to black); grey images give a grey.
    private func averageColor(_ decoded: UnsafeMutablePointer<VipsImage>) throws(SniffError) -> String {
        cvips_retain(decoded)
        var small = try step(decoded, "thumbnail") { cvips_thumbnail($0, &$1, 32, 32, 0) }
        small = try sRGB8(small)
        defer { cvips_unref(small) }
        let bands = Int(vips_image_get_bands(small))
        var size = 0
        guard let pixels = vips_image_write_to_memory(small, &size) else { throw Self.vipsError("average colour") }
        defer { cvips_free(pixels) }
        let bytes = UnsafeRawBufferPointer(start: pixels, count: size)
        let hasAlpha = bands == 2 || bands == 4
        let colourBands = hasAlpha ? bands - 1 : bands
        var sums = [Double](repeating: 0, count: 3)
        var weight = 0.0
        var index = 0
        while index + bands <= bytes.count {
            let alpha = hasAlpha ? Double(bytes[index + bands - 1]) / 255 : 1
            for channel in 0..<3 { sums[channel] += Double(bytes[index + min(channel, colourBands - 1)]) * alpha }
            weight += alpha
            index += bands
        }
        guard weight > 0 else { return "#000000" }
        let digits = Array("0123456789abcdef")
        var text = "#"
        for sum in sums {
            let value = Int((sum / weight).rounded())
            text.append(digits[value >> 4])
            text.append(digits[value & 15])
        }
        return text
    }

    // MARK: libvips calls

    /// Runs one libvips operation on `input`, consuming it.
    private func step(
        _ input: UnsafeMutablePointer<VipsImage>,
        _ what: String,
        _ operation: (UnsafeMutablePointer<VipsImage>, inout UnsafeMutablePointer<VipsImage>?) -> Int32
    ) throws(SniffError) -> UnsafeMutablePointer<VipsImage> {
        var output: UnsafeMutablePointer<VipsImage>?
        let status = operation(input, &output)
        cvips_unref(input)
        guard status == 0, let output else { throw Self.vipsError(what) }
        return output
    }

    /// Whether the directory of `path` takes a file the size of a large rendition (a probe,
    /// removed at once) with room to spare: a save that failed where it does not failed on the
    /// disk (full, read-only, an I/O error), not on the image, whose bytes libvips' error
    /// message does not tell apart.
    static func canWrite(near path: String) -> Bool {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var volume = statvfs()
        guard statvfs(directory.isEmpty ? "/" : directory, &volume) == 0 else { return false }
        let free = UInt64(volume.f_bavail).multipliedReportingOverflow(by: UInt64(volume.f_frsize))
        guard free.overflow || free.partialValue >= 64 << 20 else { return false }
        let probe = "\(directory)/.probe-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return false }
        defer {
            close(fd)
            unlink(probe)
        }
        let block = [UInt8](repeating: 0, count: 64 << 10)
        let written = block.withUnsafeBytes { raw in retryingEINTR { Glibc.write(fd, raw.baseAddress, raw.count) } }
        return written == block.count
    }

    /// libvips' error buffer as one short line, then cleared.
    static func vipsError(_ what: String) -> SniffError {
        var message = vips_error_buffer().map { String(cString: $0) } ?? ""
        vips_error_clear()
        message = message.split(separator: "\n").first.map(String.init) ?? "unknown error"
        if message.utf8.count > 200 { message = String(message.prefix(200)) + "…" }
        return SniffError(reason: "\(what) failed: \(message)")
    }
}

/// An original read whole into memory (libvips' buffer loaders read it lazily, so it must
/// outlive the images made from it): a regular file, no symlink, at most `maxBytes`.
final class InputFile {
    let bytes: UnsafeRawBufferPointer
    private let storage: UnsafeMutableRawPointer

    init(path: String, maxBytes: Int) throws(SniffError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            throw SniffError(
                reason: "cannot open the original: \(String(cString: strerror(errno)))",
                isEnvironment: true
            )
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw SniffError(reason: "the original is not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= maxBytes else {
            throw SniffError(reason: "the original has \(size) bytes, more than \(maxBytes)")
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
        var total = 0
        while total < size {
            let count = retryingEINTR { read(fd, buffer + total, size - total) }
            if count < 0 {
                let reason = "cannot read the original: \(String(cString: strerror(errno)))"
                buffer.deallocate()
                throw SniffError(reason: reason, isEnvironment: true)
            }
            guard count > 0 else { break }
            total += count
        }
        storage = buffer
        bytes = UnsafeRawBufferPointer(start: buffer, count: total)
    }

    deinit {
        storage.deallocate()
    }
}

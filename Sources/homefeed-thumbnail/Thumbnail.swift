import CVips
import Glibc
import ThumbnailProtocol

/// `homefeed-thumbnail`: decodes and resizes images for `homefeedd`, in a process of its own so
/// that an image decoder's crash, runaway allocation or endless loop costs one image, never the
/// daemon (`docs/images.md`). The daemon never links libvips; it starts this helper per batch
/// and talks to it over stdin/stdout (`ThumbnailProtocol`).
///
/// ```
/// homefeed-thumbnail [--max-pixels N] [--max-input-bytes N] [--max-memory BYTES]
///                    [--max-cpu SECONDS] [--cpu-per-image SECONDS] [--threads N]
/// ```
///
/// First thing, before libvips is initialised: inherited descriptors above 2 are closed and
/// `RLIMIT_AS` / `RLIMIT_CPU` set (soft and hard). Only the PNG, JPEG, GIF and WebP buffer
/// loaders may run; every other libvips loader is blocked. libvips' operation cache is off,
/// so memory does not grow from one image to the next.
@main
enum Thumbnail {
    struct Options {
        var limits = VipsRenderer.Limits(maxPixels: 40_000_000, maxInputBytes: 8 << 20)
        var resources = ResourceLimits(maxMemory: 1 << 30, maxCPUSeconds: 600, cpuSecondsPerImage: 20)
        var threads = 0
    }

    static func main() {
        // Limits before anything else runs: before libvips starts threads or allocates.
        guard let options = parse(Array(CommandLine.arguments.dropFirst())) else {
            writeError(
                "usage: homefeed-thumbnail [--max-pixels N] [--max-input-bytes N] [--max-memory BYTES] "
                    + "[--max-cpu SECONDS] [--cpu-per-image SECONDS] [--threads N]\n"
            )
            exit(2)
        }
        let limitsApplied = options.resources.apply()
        signal(SIGPIPE, SIG_DFL)
        guard vips_init(CommandLine.arguments.first ?? "homefeed-thumbnail") == 0 else {
            writeError("homefeed-thumbnail: libvips failed to start\n")
            exit(1)
        }
        cvips_allow_only_safe_loaders()
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        vips_cache_set_max_files(0)
        if options.threads > 0 { vips_concurrency_set(Int32(options.threads)) }
        let version = vips_version_string().map { String(cString: $0) } ?? "unknown"
        let hello = ThumbnailHello(vipsVersion: version, limitsApplied: limitsApplied)
        guard writeAll(hello.line) else { exit(1) }

        let renderer = VipsRenderer(limits: options.limits)
        var reader = LineReader(fd: STDIN_FILENO)
        while let line = reader.next() {
            if line.isEmpty { continue }
            let request: ThumbnailRequest
            do throws(ThumbnailProtocolError) {
                request = try ThumbnailRequest(line: line)
            } catch {
                writeError("homefeed-thumbnail: \(error)\n")
                exit(2)
            }
            options.resources.startImage()
            guard writeAll(renderer.render(request).line) else { exit(1) }
        }
        if reader.isOverlong {
            writeError("homefeed-thumbnail: request longer than \(ThumbnailProtocol.maxLineBytes) bytes\n")
            exit(2)
        }
        vips_shutdown()
        exit(0)
    }

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var index = 0
        while index < arguments.count {
            guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value >= 0 else { return nil }
            switch arguments[index] {
            case "--max-pixels": options.limits.maxPixels = value
            case "--max-input-bytes": options.limits.maxInputBytes = value
            case "--max-memory": options.resources.maxMemory = value
            case "--max-cpu": options.resources.maxCPUSeconds = value
            case "--cpu-per-image": options.resources.cpuSecondsPerImage = value
            case "--threads": options.threads = value
            default: return nil
            }
            index += 2
        }
        return options
    }

    /// Writes all of `bytes` to stdout; false when the daemon has gone.
    static func writeAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let count = write(STDOUT_FILENO, base + offset, raw.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    static func writeError(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// Lines from a descriptor, without the `\n`; a line longer than the protocol allows ends the
/// input (`isOverlong`).
struct LineReader {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private(set) var isOverlong = false

    init(fd: Int32) {
        self.fd = fd
    }

    mutating func next() -> ArraySlice<UInt8>? {
        while true {
            if let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<end]
                start = end + 1
                return line
            }
            if buffer.count - start > ThumbnailProtocol.maxLineBytes {
                isOverlong = true
                return nil
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 16 << 10)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }
}

import CVips
import CommandTable
import Glibc
import HomefeedVersion
import SystemCalls
import ThumbnailProtocol

/// `homefeed-thumbnail`: decodes and resizes images for `homefeedd`, in a process of its own so
/// that an image decoder's crash, runaway allocation or endless loop costs one image, never the
/// daemon (`docs/images.md`). The daemon never links libvips; it starts this helper per batch
/// and talks to it over stdin/stdout (`ThumbnailProtocol`).
///
/// Its options are declared in ``command`` (`homefeed-thumbnail --help`).
///
/// First thing, `/dev/null` on any of 0, 1 and 2 it was started without; then, before libvips
/// is initialised: inherited descriptors above 2 are closed and `RLIMIT_AS` / `RLIMIT_CPU` set
/// (soft and hard). Only the PNG, JPEG, GIF and WebP buffer loaders may run; every other
/// libvips loader is blocked. libvips' operation cache is off, so memory does not grow from one
/// image to the next.
@main
enum Thumbnail {
    struct Options {
        var limits = VipsRenderer.Limits(maxPixels: 40_000_000, maxInputBytes: 8 << 20)
        var resources = ResourceLimits(maxMemory: 1 << 30, maxCPUSeconds: 600, cpuSecondsPerImage: 20)
        var threads = 0

        init() {}

        /// The defaults, overridden by the options given (whole numbers ≥ 0, checked while parsing).
        init(_ arguments: ParsedArguments) {
            limits.maxPixels = arguments.integer("--max-pixels") ?? limits.maxPixels
            limits.maxInputBytes = arguments.integer("--max-input-bytes") ?? limits.maxInputBytes
            resources.maxMemory = arguments.integer("--max-memory") ?? resources.maxMemory
            resources.maxCPUSeconds = arguments.integer("--max-cpu") ?? resources.maxCPUSeconds
            resources.cpuSecondsPerImage = arguments.integer("--cpu-per-image") ?? resources.cpuSecondsPerImage
            threads = arguments.integer("--threads") ?? threads
        }
    }

    static let command = Command(
        "homefeed-thumbnail",
        abstract: "decode and resize images for homefeedd in a resource-limited process",
        discussion: """
            An internal helper of homefeedd, not a command for people: the daemon starts it per batch \
            of images and speaks a line protocol with it over standard input and output, one JSON \
            request and one JSON response per line (docs/images.md). Before libvips starts, it closes \
            every inherited descriptor above 2 and sets RLIMIT_AS and RLIMIT_CPU, soft and hard.
            """,
        version: homefeedVersion,
        options: [
            .value(
                "--max-pixels",
                "N",
                .integer(0...Int.max),
                help: "width times height a header may claim (default \(Options().limits.maxPixels))"
            ),
            .value(
                "--max-input-bytes",
                "N",
                .integer(0...Int.max),
                help: "largest original read (default \(Options().limits.maxInputBytes))"
            ),
            .value(
                "--max-memory",
                "BYTES",
                .integer(0...Int.max),
                help: "address space of the process (default \(Options().resources.maxMemory))"
            ),
            .value(
                "--max-cpu",
                "SECONDS",
                .integer(0...Int.max),
                help: "CPU time of the whole process (default \(Options().resources.maxCPUSeconds))"
            ),
            .value(
                "--cpu-per-image",
                "SECONDS",
                .integer(0...Int.max),
                help: "CPU time of one image (default \(Options().resources.cpuSecondsPerImage))"
            ),
            .value("--threads", "N", .integer(0...Int.max), help: "libvips worker threads; 0 keeps libvips' default"),
        ],
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.ok, "its input ended"),
            ExitStatusMeaning(ExitStatus.failure, "libvips cannot start, or the daemon has gone"),
            ExitStatusMeaning(ExitStatus.usage, "usage error, or a request that is not part of the protocol"),
            ExitStatusMeaning(ExitStatus.outputFailed, "--help or --version cannot be written"),
        ]
    )

    static func main() {
        // First of all, before anything opens a descriptor: the protocol's stdin and stdout and
        // the error lines' stderr must be what they are (the daemon gives all three; a start by
        // hand may not).
        StandardDescriptors.openMissing()
        // Limits before anything else runs: before libvips starts threads or allocates.
        let options: Options
        switch command.resolve(Array(CommandLine.arguments.dropFirst())) {
        case .exit(let status): exit(status)
        case .run(let arguments): options = Options(arguments)
        }
        let limitsApplied = options.resources.apply()
        signal(SIGPIPE, SIG_DFL)
        guard vips_init(CommandLine.arguments.first ?? "homefeed-thumbnail") == 0 else {
            writeError("homefeed-thumbnail: libvips failed to start\n")
            exit(ExitStatus.failure)
        }
        cvips_allow_only_safe_loaders()
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        vips_cache_set_max_files(0)
        if options.threads > 0 { vips_concurrency_set(Int32(options.threads)) }
        let version = vips_version_string().map { String(cString: $0) } ?? "unknown"
        let hello = ThumbnailHello(vipsVersion: version, limitsApplied: limitsApplied)
        guard writeAll(hello.line) else { exit(ExitStatus.failure) }

        let renderer = VipsRenderer(limits: options.limits)
        var reader = LineReader(fd: STDIN_FILENO)
        while let line = reader.next() {
            if line.isEmpty { continue }
            let request: ThumbnailRequest
            do throws(ThumbnailProtocolError) {
                request = try ThumbnailRequest(line: line)
            } catch {
                writeError("homefeed-thumbnail: \(error)\n")
                exit(ExitStatus.usage)
            }
            options.resources.startImage()
            guard writeAll(renderer.render(request).line) else { exit(ExitStatus.failure) }
        }
        if reader.isOverlong {
            writeError("homefeed-thumbnail: request longer than \(ThumbnailProtocol.maxLineBytes) bytes\n")
            exit(ExitStatus.usage)
        }
        vips_shutdown()
        exit(ExitStatus.ok)
    }

    /// Writes all of `bytes` to stdout; false when the daemon has gone.
    static func writeAll(_ bytes: [UInt8]) -> Bool {
        writingAll(STDOUT_FILENO, bytes) == 0
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
            let count = retryingEINTR { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }
}

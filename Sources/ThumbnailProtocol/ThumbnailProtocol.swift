/// ThumbnailProtocol: the line protocol between `homefeedd` and `homefeed-thumbnail`, shared so
/// the two ends cannot drift apart. Standard library and JSONCore only: the helper stays free
/// of Foundation, the daemon free of libvips.
///
/// One JSON object per line (`\n`-terminated, no newline inside) in each direction:
///
/// 1. The helper starts with ``ThumbnailHello``: its protocol and libvips versions and whether
///    its resource limits took effect.
/// 2. The daemon sends one ``ThumbnailRequest`` per image and waits for its
///    ``ThumbnailResponse`` (same `id`) before sending the next, so a crash or a timeout is
///    always the fault of the one image in flight.
/// 3. The daemon closes the helper's stdin at the end of a batch; the helper exits 0.
public enum ThumbnailProtocol {
    /// Bumped on any incompatible change; the daemon refuses a helper that says otherwise.
    public static let version = "homefeed-thumbnail/1"

    /// The longest line either end accepts (a request names at most a few dozen renditions).
    public static let maxLineBytes = 64 << 10
}

/// How a rendition fills its box.
public enum RenditionMode: String, Sendable, Hashable, CaseIterable {
    /// Scaled to cover the box, the overflow cut off around the centre (UIKit's aspect fill):
    /// the rendition is exactly the box unless the source is smaller.
    case fill
    /// Scaled to fit inside the box (aspect fit): one side matches the box, the other is
    /// shorter.
    case fit
}

/// The file format of a rendition.
public enum RenditionFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG for images with transparency (icons keep exact edges), WebP for the rest.
    case auto
    case png
    case webp

    /// The file name extension of a format other than `auto`.
    public var fileExtension: String { self == .webp ? "webp" : "png" }
}

/// The first line the helper writes.
public struct ThumbnailHello: Sendable, Equatable {
    public var protocolVersion: String
    /// libvips' version, e.g. `8.14.1`.
    public var vipsVersion: String
    /// False when `setrlimit` failed (a seccomp filter without `prlimit64`): the daemon logs
    /// it, the helper still runs.
    public var limitsApplied: Bool

    public init(protocolVersion: String = ThumbnailProtocol.version, vipsVersion: String, limitsApplied: Bool) {
        self.protocolVersion = protocolVersion
        self.vipsVersion = vipsVersion
        self.limitsApplied = limitsApplied
    }
}

/// One rendition to make.
public struct RenditionRequest: Sendable, Hashable {
    /// The box in pixels (the slot's frame × the profile's scale), 1…8192 each.
    public var width: Int
    public var height: Int
    public var mode: RenditionMode
    public var format: RenditionFormat
    /// Where to write the file; the daemon moves it into place afterwards.
    public var output: String

    public init(width: Int, height: Int, mode: RenditionMode, format: RenditionFormat, output: String) {
        self.width = width
        self.height = height
        self.mode = mode
        self.format = format
        self.output = output
    }
}

/// One image: the original's path and the renditions wanted of it (possibly none, for the
/// header and the average colour alone).
public struct ThumbnailRequest: Sendable, Hashable {
    public var id: Int
    public var input: String
    public var renditions: [RenditionRequest]

    public init(id: Int, input: String, renditions: [RenditionRequest]) {
        self.id = id
        self.input = input
        self.renditions = renditions
    }
}

/// A rendition as written.
public struct RenditionResult: Sendable, Hashable {
    public var output: String
    /// The rendition's pixel size: the box, or less when the source is smaller or the mode is
    /// `fit`.
    public var width: Int
    public var height: Int
    /// `png` or `webp`.
    public var format: RenditionFormat
    public var bytes: Int

    public init(output: String, width: Int, height: Int, format: RenditionFormat, bytes: Int) {
        self.output = output
        self.width = width
        self.height = height
        self.format = format
        self.bytes = bytes
    }
}

/// What became of one request.
public enum ThumbnailResponse: Sendable, Hashable {
    /// The original decoded: its format (`png`, `jpeg`, `gif`, `webp`, `ico`), its pixel size
    /// (after EXIF rotation), its average colour `#rrggbb` and the renditions.
    case made(id: Int, format: String, width: Int, height: Int, averageColor: String, renditions: [RenditionResult])
    /// The image was refused or could not be decoded; `reason` is one line for `GetStatus`.
    case failed(id: Int, reason: String)
    /// The original could not be read or a rendition not written (a full disk, an I/O error):
    /// nothing is known to be wrong with the image, so the daemon tries it again later rather
    /// than remember it as undecodable.
    case interrupted(id: Int, reason: String)

    public var id: Int {
        switch self {
        case .made(let id, _, _, _, _, _), .failed(let id, _), .interrupted(let id, _): id
        }
    }
}

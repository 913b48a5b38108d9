/// An image an entry names, as a plain value: where it came from in the document, its
/// absolute URL and what the document declares about it.
///
/// `FeedEntry.images` lists them in the order homefeed prefers them (`docs/images.md`):
///
/// 1. an RSS `<enclosure>` of an image type;
/// 2. `media:thumbnail` and image `media:content` (also inside `media:group`), largest declared
///    size first, undeclared sizes after;
/// 3. `itunes:image`;
/// 4. an Atom `<link rel="enclosure">` of an image type;
/// 5. JSON Feed `image`, then `banner_image`;
/// 6. the first `<img>` of the entry's HTML (summary or content).
///
/// A consumer takes the first one that fits its own limits (declared bytes and pixels), so
/// "largest fitting" falls out of the order. URLs are resolved against `xml:base` and the
/// feed URL like every other link (`feed-parsing.md` §2); `data:` URLs are never listed.
///
/// Sendable: an immutable value. The optional properties are spelled `Optional<…>`, without a
/// default, so `init` stores each once and returns the value without a copy (see `FeedEntry`).
public struct FeedImage: Sendable, Equatable {
    /// The element or member an image came from.
    public enum Origin: String, Sendable, Equatable, CaseIterable {
        case enclosure
        case mediaThumbnail = "media:thumbnail"
        case mediaContent = "media:content"
        case itunesImage = "itunes:image"
        case atomEnclosure = "atom:enclosure"
        case jsonImage = "image"
        case jsonBannerImage = "banner_image"
        case contentImage = "img"
    }

    public var url: String
    public var origin: Origin
    /// The MIME type as written, when given.
    public var type: Optional<String>
    /// Declared pixel size (`width`/`height` attributes), when both are given and positive.
    public var width: Optional<Int>
    public var height: Optional<Int>
    /// Declared bytes (`length`, `fileSize`), when given.
    public var length: Optional<Int64>

    public init(
        url: String,
        origin: Origin,
        type: String? = nil,
        width: Int? = nil,
        height: Int? = nil,
        length: Int64? = nil
    ) {
        self.url = url
        self.origin = origin
        self.type = type
        self.width = width
        self.height = height
        self.length = length
    }

    /// Declared width × height, or nil.
    public var declaredPixels: Int? {
        guard let width, let height else { return nil }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : pixels
    }
}

/// The images of one entry as the parser meets them, put in the order of ``FeedImage`` at
/// the end. At most `limit` per entry: a feed that lists thousands of thumbnails per item
/// costs a bounded list.
struct ImageCandidates {
    static let limit = 16
    /// In document order; at most `limit`, so the scans below stay short. A flat array rather
    /// than a dictionary by origin: most entries have none or one, and the parse makes one
    /// `ImageCandidates` per entry (issue 17).
    private var images: [FeedImage] = []

    var hasContentImage: Bool { images.contains { $0.origin == .contentImage } }

    mutating func add(_ image: FeedImage) {
        guard images.count < Self.limit, !Self.hasPrefix(image.url, "data:") else { return }
        if image.origin == .contentImage, hasContentImage { return }
        images.append(image)
    }

    /// Preference order, each URL once.
    var ordered: [FeedImage] {
        // One image is already in order, and unique.
        guard images.count > 1 else { return images }
        let of = { (origin: FeedImage.Origin) in images.filter { $0.origin == origin } }
        let media = of(.mediaThumbnail) + of(.mediaContent)
        // Stable: among equal (or undeclared) sizes, document order.
        let largestFirst = media.enumerated().sorted { lhs, rhs in
            let (l, r) = (lhs.element.declaredPixels ?? -1, rhs.element.declaredPixels ?? -1)
            return l != r ? l > r : lhs.offset < rhs.offset
        }.map(\.element)
        var seen: Set<String> = []
        var result: [FeedImage] = []
        let sequence =
            of(.enclosure) + largestFirst + of(.itunesImage) + of(.atomEnclosure) + of(.jsonImage)
            + of(.jsonBannerImage) + of(.contentImage)
        for image in sequence where seen.insert(image.url).inserted { result.append(image) }
        return result
    }

    /// True for an image MIME type, or, without a type, a URL whose path ends like an image.
    /// Compared in the UTF-8 bytes without case (no lowercased copies: the words compared
    /// contain no letter whose Unicode lowercase differs from its ASCII one, such as K).
    static func isImage(type: String?, url: String, medium: String? = nil) -> Bool {
        if let medium, !medium.isEmpty { return medium.utf8.count == 5 && hasPrefix(medium, "image") }
        if let type, !type.isEmpty { return hasPrefix(type, "image/") }
        let bytes = url.utf8
        let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let path = bytes[..<end]
        return hasSuffix(path, ".png") || hasSuffix(path, ".jpg") || hasSuffix(path, ".jpeg")
            || hasSuffix(path, ".gif") || hasSuffix(path, ".webp") || hasSuffix(path, ".ico")
    }

    /// Whether `text` starts with `prefix` (lowercase ASCII), ignoring ASCII case.
    static func hasPrefix(_ text: String, _ prefix: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return text.withBorrowedUTF8 { bytes in
            bytes.count >= expected.count && zip(bytes, expected).allSatisfy { lowercased($0) == $1 }
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static func hasSuffix(_ path: Substring.UTF8View, _ suffix: StaticString) -> Bool {
        let length = suffix.utf8CodeUnitCount
        guard path.count >= length else { return false }
        return zip(path.suffix(length), UnsafeBufferPointer(start: suffix.utf8Start, count: length)).allSatisfy {
            lowercased($0) == $1
        }
    }

    /// A positive decimal attribute value, or nil.
    static func dimension(_ text: String?) -> Int? {
        guard let text, let value = Int(URIReference.trimASCIIAndNBSP(text)), value > 0 else { return nil }
        return value
    }
}

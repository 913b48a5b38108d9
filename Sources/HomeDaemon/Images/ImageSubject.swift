/// Where an item's picture comes from: an image URL (a notice's image, a link's `icon`), or a
/// service page whose `<head>` names the icon (a link without `icon`).
///
/// Identity is `key`: the same URL shown by two items is one image. `source` is the document
/// the item came from, for the per-source image cap; it is not part of the identity. The key is
/// made once, when the subject is: a version looks it up, hashes and compares it several times
/// per item and profile (callgrind, issue 17).
/// Sendable: an immutable value.
public struct ImageSubject: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case image
        case page
    }

    public let kind: Kind
    public let url: String
    public var source: String?
    /// `image:<url>` or `page:<url>`.
    public let key: String

    public init(kind: Kind, url: String, source: String? = nil) {
        self.kind = kind
        self.url = url
        self.source = source
        key = "\(kind.rawValue):\(url)"
    }

    public static func image(url: String, source: String?) -> ImageSubject {
        ImageSubject(kind: .image, url: url, source: source)
    }

    /// A link's icon: its `icon` when given, else its page when that is `http(s)`, else none.
    static func of(link: ServiceLink) -> ImageSubject? {
        if let icon = link.icon { return .image(url: icon, source: link.sourceURL) }
        let lower = link.url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        return ImageSubject(kind: .page, url: link.url, source: link.sourceURL)
    }

    public static func == (lhs: ImageSubject, rhs: ImageSubject) -> Bool { lhs.key == rhs.key }

    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

public import ThumbnailProtocol

/// What the manifest builder knows about images when it makes a version: per subject, the
/// average colour once the original is decoded and the renditions ready.
///
/// Sendable: an immutable value, read from the store for each version.
public struct ImageIndex: Sendable, Equatable {
    public struct RenditionKey: Sendable, Hashable {
        public var width: Int
        public var height: Int
        public var mode: RenditionMode

        public init(width: Int, height: Int, mode: RenditionMode) {
            self.width = width
            self.height = height
            self.mode = mode
        }
    }

    /// A rendition file clients can read.
    public struct Ready: Sendable, Equatable {
        /// `file:///…` under the cache directory.
        public var url: String
        public var pixelWidth: Int
        public var pixelHeight: Int

        public init(url: String, pixelWidth: Int, pixelHeight: Int) {
            self.url = url
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
        }
    }

    public struct Entry: Sendable, Equatable {
        public var averageColor: String?
        public var renditions: [RenditionKey: Ready]

        public init(averageColor: String? = nil, renditions: [RenditionKey: Ready] = [:]) {
            self.averageColor = averageColor
            self.renditions = renditions
        }
    }

    /// By ``ImageSubject/key``.
    public var entries: [String: Entry]

    public init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    public static let empty = ImageIndex()
}

extension ImageIndex.Entry {
    /// The rendition made for exactly `key`; with `nearest`, otherwise the smallest of the same
    /// mode whose box covers `key` or, failing that, the largest (an ad-hoc container's client
    /// scales it).
    func rendition(_ key: ImageIndex.RenditionKey, nearest: Bool) -> ImageIndex.Ready? {
        if let exact = renditions[key] { return exact }
        guard nearest else { return nil }
        let sameMode = renditions.filter { $0.key.mode == key.mode }
        let covering = sameMode.filter { $0.key.width >= key.width && $0.key.height >= key.height }
        func area(_ k: ImageIndex.RenditionKey) -> Int { k.width * k.height }
        if let best = covering.min(by: { (area($0.key), $0.value.url) < (area($1.key), $1.value.url) }) {
            return best.value
        }
        return sameMode.max(by: { (area($0.key), $0.value.url) < (area($1.key), $1.value.url) })?.value
    }
}

/// A rendition a version needs: the manifest builder lists one per item with an image, and the
/// image pipeline makes those not yet made.
///
/// Sendable: an immutable value.
public struct ImageRequirement: Sendable, Hashable {
    public var subject: ImageSubject
    public var key: ImageIndex.RenditionKey

    public init(subject: ImageSubject, key: ImageIndex.RenditionKey) {
        self.subject = subject
        self.key = key
    }
}

public import FoundationEssentials

/// The fetch state of one image URL (a notice's image, a service icon). Sendable: a plain value.
public struct ImageRecord: Sendable, Hashable {
    public var url: String
    public var validators: Validators
    /// The SHA-256 of the bytes last fetched (the ``ImageOriginal`` key); nil until fetched.
    public var contentHash: String?
    public var fetchedAt: Date?
    /// The last attempt, successful or not.
    public var checkedAt: Date?
    /// Not fetched again before this (revalidation interval or backoff).
    public var nextAttempt: Date?
    public var failures: Int
    /// Why the last attempt failed, one line; nil after a success.
    public var lastError: String?
    public var lastUsed: Date

    public init(
        url: String,
        validators: Validators = Validators(),
        contentHash: String? = nil,
        fetchedAt: Date? = nil,
        checkedAt: Date? = nil,
        nextAttempt: Date? = nil,
        failures: Int = 0,
        lastError: String? = nil,
        lastUsed: Date
    ) {
        self.url = url
        self.validators = validators
        self.contentHash = contentHash
        self.fetchedAt = fetchedAt
        self.checkedAt = checkedAt
        self.nextAttempt = nextAttempt
        self.failures = failures
        self.lastError = lastError
        self.lastUsed = lastUsed
    }
}

/// A fetched image as stored in the cache directory, by content: what decoding it showed.
/// Sendable: a plain value.
public struct ImageOriginal: Sendable, Hashable {
    public var contentHash: String
    /// The file, relative to the cache directory.
    public var file: String
    public var bytes: Int
    /// Set once `homefeed-thumbnail` decoded it: `png`, `jpeg`, `gif`, `webp`, `ico`.
    public var format: String?
    public var width: Int?
    public var height: Int?
    /// `#rrggbb`.
    public var averageColor: String?
    /// Why it could not be decoded (refused, damaged, too large); it is not tried again.
    public var decodeError: String?
    public var created: Date
    public var lastUsed: Date

    public init(
        contentHash: String,
        file: String,
        bytes: Int,
        format: String? = nil,
        width: Int? = nil,
        height: Int? = nil,
        averageColor: String? = nil,
        decodeError: String? = nil,
        created: Date,
        lastUsed: Date
    ) {
        self.contentHash = contentHash
        self.file = file
        self.bytes = bytes
        self.format = format
        self.width = width
        self.height = height
        self.averageColor = averageColor
        self.decodeError = decodeError
        self.created = created
        self.lastUsed = lastUsed
    }
}

/// One rendition of an original: made once per pixel box and mode, reused by every version and
/// profile that needs that box. Sendable: a plain value.
public struct ImageRendition: Sendable, Hashable {
    public var contentHash: String
    /// The box asked for, in pixels.
    public var boxWidth: Int
    public var boxHeight: Int
    /// `fill` or `fit`.
    public var mode: String
    /// `png` or `webp`.
    public var format: String
    /// The file, relative to the cache directory.
    public var file: String
    /// The rendition's own size (the box, or less for `fit` and small originals).
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var bytes: Int
    public var created: Date
    public var lastUsed: Date

    public init(
        contentHash: String,
        boxWidth: Int,
        boxHeight: Int,
        mode: String,
        format: String,
        file: String,
        pixelWidth: Int,
        pixelHeight: Int,
        bytes: Int,
        created: Date,
        lastUsed: Date
    ) {
        self.contentHash = contentHash
        self.boxWidth = boxWidth
        self.boxHeight = boxHeight
        self.mode = mode
        self.format = format
        self.file = file
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.bytes = bytes
        self.created = created
        self.lastUsed = lastUsed
    }
}

/// The icon found on a service's page (for links without an `icon` attribute).
/// Sendable: a plain value.
public struct PageIconRecord: Sendable, Hashable {
    public var pageURL: String
    /// The image chosen; nil until one was found.
    public var iconURL: String?
    public var checkedAt: Date?
    public var nextAttempt: Date?
    public var failures: Int
    public var lastError: String?
    public var lastUsed: Date

    public init(
        pageURL: String,
        iconURL: String? = nil,
        checkedAt: Date? = nil,
        nextAttempt: Date? = nil,
        failures: Int = 0,
        lastError: String? = nil,
        lastUsed: Date
    ) {
        self.pageURL = pageURL
        self.iconURL = iconURL
        self.checkedAt = checkedAt
        self.nextAttempt = nextAttempt
        self.failures = failures
        self.lastError = lastError
        self.lastUsed = lastUsed
    }
}

/// A file the cache evicted: the caller removes it from the disk.
public struct EvictedImageFile: Sendable, Hashable {
    /// Relative to the cache directory.
    public var file: String
    public var bytes: Int
}

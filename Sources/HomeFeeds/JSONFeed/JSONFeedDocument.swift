/// The top level of a JSON Feed, read with `JSONFeedCursor`: only the members homefeed reads,
/// and of `items` only the first `FeedParseLimits.maxEntries` objects. The rest are skipped
/// unbuilt, and the text limits apply as each string kept is read (ids, links and dates too, as
/// an XML feed's are).
///
/// Lenient like the format's readers: a member of the wrong type counts as missing instead of
/// failing the feed, and an item or attachment that is not an object is skipped.
struct JSONFeedDocument {
    var version: String?
    var title: String?
    var homePageURL: String?
    /// At most `maxEntries`, in document order.
    var items: [JSONFeedItem] = []
    /// One item at least has a member a feed item has (`JSONFeedItem.hasFeedMember`): without a
    /// `version`, this tells a feed from other JSON with an `items` array.
    var hasFeedItems = false
    /// Items past `maxEntries` were skipped.
    var isTruncated = false
    /// Members of `items` (before the entry limit) that are no object, by their index in
    /// `items`: the first `WarningLog.limit`, as no more can be listed among the warnings.
    var nonObjectItems: [(index: Int, kind: JSONFeedCursor.Kind)] = []
    /// All of them.
    var nonObjectItemCount = 0

    /// Reads the document at `cursor`, which must be a JSON object.
    static func read(_ cursor: inout JSONFeedCursor, limits: FeedParseLimits) throws(FeedParseError) -> JSONFeedDocument
    {
        var document = JSONFeedDocument()
        var text = JSONFeedTextBudget(limits: limits)
        try cursor.members { (cursor, key) throws(FeedParseError) in
            switch key {
            case "version": document.version = try text.counted(cursor.string(), at: cursor)
            case "title": document.title = try text.counted(cursor.string(), at: cursor)
            case "home_page_url": document.homePageURL = try text.counted(cursor.string(), at: cursor)
            case "items": try document.readItems(&cursor, limits: limits, text: &text)
            default: try cursor.skip()
            }
        }
        try cursor.end()
        return document
    }

    private mutating func readItems(
        _ cursor: inout JSONFeedCursor,
        limits: FeedParseLimits,
        text: inout JSONFeedTextBudget
    ) throws(FeedParseError) {
        // A repeated `items` member replaces the first, as any repeated member does.
        var read: [JSONFeedItem] = []
        var truncated = false
        var index = 0
        nonObjectItems = []
        nonObjectItemCount = 0
        hasFeedItems = false
        try cursor.elements { (cursor) throws(FeedParseError) in
            defer { index += 1 }
            guard read.count < limits.maxEntries else {
                // Checked at the item's start: past the limit nothing of it is built.
                if try cursor.kind() == .object { truncated = true }
                try cursor.skip()
                return
            }
            let kind = try cursor.kind()
            var item = JSONFeedItem(index: index)
            if try item.read(&cursor, text: &text) {
                if item.hasFeedMember { hasFeedItems = true }
                read.append(item)
            } else {
                nonObjectItemCount += 1
                if nonObjectItems.count < WarningLog.limit { nonObjectItems.append((index, kind)) }
            }
        }
        items = read
        isTruncated = truncated
    }
}

/// One JSON Feed item. `id` may be a string or a number ("12345"), per §3 rule 1.
struct JSONFeedItem {
    /// Where the item is in `items`, for warnings (items that are no object are not kept).
    let index: Int
    var id: String?
    var url: String?
    var title: String?
    var summary: String?
    var contentHTML: String?
    var contentText: String?
    var datePublished: String?
    var dateModified: String?
    var attachments: [JSONFeedAttachment] = []
    var image: String?
    var bannerImage: String?
    /// The item has an `id`, `url`, `title`, `content_html` or `content_text` member, of any
    /// type: what tells a feed item from another list's member.
    var hasFeedMember = false

    init(index: Int) {
        self.index = index
    }

    /// Reads the item at `cursor`; false, the value skipped, when it is no object.
    mutating func read(_ cursor: inout JSONFeedCursor, text: inout JSONFeedTextBudget) throws(FeedParseError) -> Bool {
        try cursor.members { (cursor, key) throws(FeedParseError) in
            switch key {
            case "id", "url", "title", "content_html", "content_text": hasFeedMember = true
            default: break
            }
            switch key {
            case "id":
                let value = try cursor.kind() == .number ? try cursor.numberText() : try cursor.string()
                id = try text.counted(value, at: cursor)
            case "url": url = try text.counted(cursor.string(), at: cursor)
            case "title": title = try text.counted(cursor.string(), at: cursor)
            case "summary": summary = try text.counted(cursor.string(), at: cursor)
            case "content_html": contentHTML = try text.counted(cursor.string(), at: cursor)
            case "content_text": contentText = try text.counted(cursor.string(), at: cursor)
            case "date_published": datePublished = try text.counted(cursor.string(), at: cursor)
            case "date_modified": dateModified = try text.counted(cursor.string(), at: cursor)
            case "image": image = try text.counted(cursor.string(), at: cursor)
            case "banner_image": bannerImage = try text.counted(cursor.string(), at: cursor)
            case "attachments":
                // The first `FeedEnclosure.limitPerEntry` with a URL not seen before; the rest
                // are skipped unbuilt.
                var read: [JSONFeedAttachment] = []
                var urls: Set<String> = []
                var index = 0
                try cursor.elements { (cursor) throws(FeedParseError) in
                    defer { index += 1 }
                    guard read.count < FeedEnclosure.limitPerEntry else { return try cursor.skip() }
                    var attachment = JSONFeedAttachment(index: index)
                    guard try attachment.read(&cursor, text: &text), let url = attachment.url, urls.insert(url).inserted
                    else {
                        return
                    }
                    read.append(attachment)
                }
                attachments = read
            default: try cursor.skip()
            }
        }
    }
}

struct JSONFeedAttachment {
    /// Where the attachment is in the item's `attachments`, for warnings.
    let index: Int
    var url: String?
    var mimeType: String?
    var size: Int64?

    /// Reads the attachment at `cursor`; false, the value skipped, when it is no object.
    mutating func read(_ cursor: inout JSONFeedCursor, text: inout JSONFeedTextBudget) throws(FeedParseError) -> Bool {
        try cursor.members { (cursor, key) throws(FeedParseError) in
            switch key {
            case "url": url = try text.counted(cursor.string(), at: cursor)
            case "mime_type": mimeType = try text.counted(cursor.string(), at: cursor)
            case "size_in_bytes":
                let number = try cursor.numberText().flatMap { Int64($0) }
                size = number.flatMap { $0 >= 0 ? $0 : nil }
            default: try cursor.skip()
            }
        }
    }
}

import JSONCore

/// The output JSON of `feed-parsing.md` §1 (feeds) and §4 (OPML), as printed by
/// `homefeedctl feed parse` and compared by the conformance tests.
extension FeedDocument {
    /// The document in the contract's JSON shape, keys in the spec's order, deterministic.
    ///
    /// - Parameter pretty: two-space indentation and one field per line (for people), or
    ///   compact (for machines).
    public func jsonString(pretty: Bool = true) -> String {
        var writer = JSONWriter.feedOutput(pretty: pretty)
        switch self {
        case .feed(let feed): feed.write(to: &writer)
        case .opml(let opml): opml.write(to: &writer)
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

extension ParsedFeed {
    fileprivate func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("format", format.rawValue)
        writer.key("error")
        writer.bool(false)
        writer.key("wellFormed")
        writer.bool(isWellFormed)
        writer.field("feed_url", feedURL)
        writer.key("feed")
        writer.beginObject()
        writer.field("title", title)
        writer.field("link", link)
        writer.endObject()
        writer.key("entries")
        writer.beginArray()
        for entry in entries {
            writer.beginObject()
            writer.field("id", entry.id)
            writer.field("id_source", entry.idSource.rawValue)
            writer.field("title", entry.title)
            writer.field("link", entry.link)
            writer.field("published", entry.published?.rfc3339)
            writer.field("summary", entry.summary)
            writer.key("enclosures")
            writer.beginArray()
            for enclosure in entry.enclosures {
                writer.beginObject()
                writer.field("url", enclosure.url)
                writer.field("type", enclosure.type)
                writer.key("length")
                writer.int(enclosure.length)
                writer.endObject()
            }
            writer.endArray()
            writer.images(entry.images)
            writer.endObject()
        }
        writer.endArray()
        writer.warnings(warnings)
        writer.endObject()
    }
}

extension OPMLDocument {
    fileprivate func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("format", "opml")
        writer.key("error")
        writer.bool(false)
        writer.key("wellFormed")
        writer.bool(isWellFormed)
        writer.field("title", title)
        writer.key("outlines")
        writer.beginArray()
        for outline in outlines {
            writer.beginObject()
            writer.field("text", outline.text)
            writer.field("title", outline.title)
            writer.field("type", outline.type)
            writer.field("xmlUrl", outline.xmlURL)
            writer.field("htmlUrl", outline.htmlURL)
            writer.field("url", outline.url)
            writer.field("icon", outline.icon)
            writer.key("categories")
            writer.beginArray()
            for category in outline.categories { writer.string(category) }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.warnings(warnings)
        writer.endObject()
    }
}

extension JSONWriter {
    /// The feed output's writer: keys in the spec's order as called, `nil` as an explicit
    /// `null`, `/` unescaped, and U+2028/U+2029 escaped as well (the output may be pasted into
    /// a script).
    fileprivate static func feedOutput(pretty: Bool) -> JSONWriter {
        JSONWriter(pretty: pretty, escapingLineSeparators: true)
    }

    /// `"name": "text"`, or `"name": null` when nil.
    fileprivate mutating func field(_ name: StaticString, _ text: String?) {
        key(name)
        string(text)
    }

    /// An integer, or `null` when nil.
    fileprivate mutating func int(_ value: (some BinaryInteger)?) {
        // Int(exactly:) is nil only past Int's 64 bits, which a length or position never is.
        if let value, let exact = Int(exactly: value) { int(exact) } else { null() }
    }

    /// `"images": [{"url", "origin", "type", "width", "height", "length"}]`: an entry's image
    /// candidates in homefeed's order (`docs/images.md`), unknown values null.
    fileprivate mutating func images(_ images: [FeedImage]) {
        key("images")
        beginArray()
        for image in images {
            beginObject()
            field("url", image.url)
            field("origin", image.origin.rawValue)
            field("type", image.type)
            key("width")
            int(image.width)
            key("height")
            int(image.height)
            key("length")
            int(image.length)
            endObject()
        }
        endArray()
    }

    /// `"warnings": [{"line": …, "column": …, "message": …}]`, positions null when unknown.
    fileprivate mutating func warnings(_ warnings: [FeedParseWarning]) {
        key("warnings")
        beginArray()
        for warning in warnings {
            beginObject()
            key("line")
            int(warning.line)
            key("column")
            int(warning.column)
            field("message", warning.message)
            endObject()
        }
        endArray()
    }
}

extension FeedParseError {
    /// `{"error": true, "message": …, "line": …, "column": …}`: what `homefeedctl feed parse`
    /// prints for a document that cannot be parsed. `message` is the one-line `description`;
    /// `line` and `column` are present when the error has a position.
    public func jsonString(pretty: Bool = true) -> String {
        var writer = JSONWriter.feedOutput(pretty: pretty)
        writer.beginObject()
        writer.key("error")
        writer.bool(true)
        writer.field("message", description)
        if let line {
            writer.key("line")
            writer.int(line)
            writer.key("column")
            writer.int(column)
        }
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

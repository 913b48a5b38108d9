internal import FoundationEssentials

/// JSON Feed 1.0/1.1 (https://jsonfeed.org/version/1.1) → `ParsedFeed`.
///
/// Decoded leniently with `JSONDecoder`: a field of the wrong type counts as missing instead of
/// failing the feed, and an item that is not an object is skipped. Text rules of
/// `feed-parsing.md` §2: `title`, `summary` and `content_text` are literal; `content_html` is HTML.
struct JSONFeedReader {
    let url: String
    let limits: FeedParseLimits

    func read(_ body: [UInt8]) throws(FeedParseError) -> FeedDocument {
        var warnings = WarningLog()
        // Invalid UTF-8 becomes U+FFFD in place, as in XML, instead of failing the whole feed.
        var sanitizer = UTF8Sanitizer(.json)
        var repaired: [UInt8] = []
        body.withUnsafeBytes { sanitizer.process($0, isFinal: true, warnings: &warnings) { repaired += $0 } }
        let document: JSONFeedDocument
        do {
            document = try JSONDecoder().decode(JSONFeedDocument.self, from: Data(repaired))
        } catch {
            throw FeedParseError(
                kind: .malformedJSON,
                source: url,
                message: "not a JSON Feed object: \(Self.describe(error))"
            )
        }
        let isJSONFeed =
            document.version?.hasPrefix("https://jsonfeed.org/version/") == true
            || document.version?.hasPrefix("http://jsonfeed.org/version/") == true
        guard isJSONFeed || document.hasItems else {
            throw FeedParseError(
                kind: .unsupportedFormat,
                source: url,
                message: "JSON document is not a JSON Feed (no version, no items)"
            )
        }
        var policy = LinkPolicy(documentURL: url)
        func allowed(_ link: String, _ purpose: LinkPolicy.Purpose, _ path: String) -> String? {
            guard let reason = policy.refusal(link, purpose: purpose) else { return link }
            warnings.add(line: nil, column: nil, LinkPolicy.message(link, reason, what: path))
            return nil
        }
        var plain = PlainText()
        var entries: [FeedEntry] = []
        var disambiguator = EntryDisambiguator()
        var totalText = 0
        for (index, item) in document.items.prefix(limits.maxEntries).enumerated() {
            for field in [item.title, item.summary, item.contentHTML, item.contentText] {
                let size = field?.utf8.count ?? 0
                totalText += size
                if size > limits.maxFieldBytes {
                    throw FeedParseError(
                        kind: .limitExceeded(.fieldBytes),
                        source: url,
                        message: "a text field exceeds \(limits.maxFieldBytes) bytes"
                    )
                }
            }
            if totalText > limits.maxTotalTextBytes {
                throw FeedParseError(
                    kind: .limitExceeded(.totalTextBytes),
                    source: url,
                    message: "text exceeds \(limits.maxTotalTextBytes) bytes"
                )
            }
            let summary =
                item.summary.flatMap { plain.normalize($0, mode: .literal) }
                ?? item.contentHTML.flatMap { plain.normalize($0, mode: .html) }
                ?? item.contentText.flatMap { plain.normalize($0, mode: .literal) }
            var enclosures: [FeedEnclosure] = []
            var seen: Set<String> = []
            for (position, attachment) in item.attachments.enumerated() {
                guard let raw = attachment.url, let resolved = URIReference.resolve(raw, against: url),
                    let absolute = allowed(resolved, .resource, "items[\(index)].attachments[\(position)].url"),
                    seen.insert(absolute).inserted
                else { continue }
                let type = attachment.mimeType.map { String(URIReference.trimASCIIAndNBSP($0)) }
                enclosures.append(
                    FeedEnclosure(url: absolute, type: type?.isEmpty == false ? type : nil, length: attachment.size)
                )
            }
            let published = [item.datePublished, item.dateModified].lazy.compactMap { $0 }
                .compactMap { FeedTimestamp(parsing: $0) }.first
            let entry = EntryIdentity.entry(
                nativeID: item.id.flatMap { id -> String? in
                    let trimmed = URIReference.trimASCIIAndNBSP(id)
                    return trimmed.isEmpty ? nil : String(trimmed)
                },
                nativeSource: .jsonID,
                title: item.title.flatMap { plain.normalize($0, mode: .literal) },
                link: item.url.flatMap { URIReference.resolve($0, against: url) }.flatMap {
                    allowed($0, .page, "items[\(index)].url")
                },
                summary: summary,
                published: published,
                enclosures: enclosures
            )
            guard var entry else {
                warnings.add(line: nil, column: nil, "items[\(index)] dropped: it has no id, url, title or content")
                continue
            }
            entry.images = Self.images(of: item, base: url) { allowed($0, .resource, "items[\(index)].\($1)") }
            if let id = disambiguator.append(entry, to: &entries) {
                warnings.add(
                    line: nil,
                    column: nil,
                    "items[\(index)] \"\(excerpt(id))\" dropped: it repeats an earlier item exactly"
                )
            }
        }
        if document.items.count > limits.maxEntries {
            warnings.add(line: nil, column: nil, "stopped after \(limits.maxEntries) items (the entry limit)")
        }
        return .feed(
            ParsedFeed(
                format: .jsonFeed11,
                feedURL: url,
                title: document.title.flatMap { plain.normalize($0, mode: .literal) },
                link: document.homePageURL.flatMap { URIReference.resolve($0, against: url) }.flatMap {
                    allowed($0, .page, "home_page_url")
                },
                entries: entries,
                isTruncated: document.items.count > limits.maxEntries,
                isWellFormed: !sanitizer.hasRecovered,
                warnings: warnings.sorted,
                warningCount: warnings.count
            )
        )
    }

    private static func describe(_ error: any Error) -> String {
        if let decoding = error as? DecodingError {
            switch decoding {
            case .dataCorrupted(let context): return context.underlyingError.map { "\($0)" } ?? context.debugDescription
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
                return context.debugDescription
            @unknown default: return "invalid JSON"
            }
        }
        return "invalid JSON"
    }
}

/// The top level of a JSON Feed; only the fields homefeed reads.
struct JSONFeedDocument: Decodable {
    var version: String?
    var title: String?
    var homePageURL: String?
    var items: [JSONFeedItem]
    var hasItems: Bool

    private enum CodingKeys: String, CodingKey {
        case version, title, items
        case homePageURL = "home_page_url"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try? container.decodeIfPresent(String.self, forKey: .version)
        title = try? container.decodeIfPresent(String.self, forKey: .title)
        homePageURL = try? container.decodeIfPresent(String.self, forKey: .homePageURL)
        let list = try? container.decodeIfPresent(LenientList<JSONFeedItem>.self, forKey: .items)
        items = list?.elements ?? []
        hasItems = list != nil
    }
}

/// One JSON Feed item. `id` may be a string or a number ("12345"), per §3 rule 1.
struct JSONFeedItem: Decodable {
    var id: String?
    var url: String?
    var title: String?
    var summary: String?
    var contentHTML: String?
    var contentText: String?
    var datePublished: String?
    var dateModified: String?
    var attachments: [JSONFeedAttachment]
    var image: String?
    var bannerImage: String?

    private enum CodingKeys: String, CodingKey {
        case id, url, title, summary, attachments, image
        case bannerImage = "banner_image"
        case contentHTML = "content_html"
        case contentText = "content_text"
        case datePublished = "date_published"
        case dateModified = "date_modified"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try? container.decodeIfPresent(String.self, forKey: .id) {
            id = text
        } else if let integer = try? container.decodeIfPresent(Int64.self, forKey: .id) {
            id = String(integer)
        } else if let number = try? container.decodeIfPresent(Double.self, forKey: .id), number.isFinite {
            id = String(number)
        } else {
            id = nil
        }
        url = try? container.decodeIfPresent(String.self, forKey: .url)
        title = try? container.decodeIfPresent(String.self, forKey: .title)
        summary = try? container.decodeIfPresent(String.self, forKey: .summary)
        contentHTML = try? container.decodeIfPresent(String.self, forKey: .contentHTML)
        contentText = try? container.decodeIfPresent(String.self, forKey: .contentText)
        datePublished = try? container.decodeIfPresent(String.self, forKey: .datePublished)
        dateModified = try? container.decodeIfPresent(String.self, forKey: .dateModified)
        image = try? container.decodeIfPresent(String.self, forKey: .image)
        bannerImage = try? container.decodeIfPresent(String.self, forKey: .bannerImage)
        attachments =
            (try? container.decodeIfPresent(LenientList<JSONFeedAttachment>.self, forKey: .attachments))?
            .elements ?? []
    }
}

struct JSONFeedAttachment: Decodable {
    var url: String?
    var mimeType: String?
    var size: Int64?

    private enum CodingKeys: String, CodingKey {
        case url
        case mimeType = "mime_type"
        case size = "size_in_bytes"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try? container.decodeIfPresent(String.self, forKey: .url)
        mimeType = try? container.decodeIfPresent(String.self, forKey: .mimeType)
        let size = try? container.decodeIfPresent(Int64.self, forKey: .size)
        self.size = size.flatMap { $0 >= 0 ? $0 : nil }
    }
}

/// An array whose elements that fail to decode are skipped rather than failing the array.
struct LenientList<Element: Decodable>: Decodable {
    var elements: [Element] = []

    private struct Skip: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            if let element = try? container.decode(Element.self) {
                elements.append(element)
            } else if (try? container.decode(Skip.self)) == nil {
                break
            }
        }
    }
}

internal import Glibc

/// The XML namespaces the feed formats use, recognised by URI.
enum XMLNamespace: UInt8 {
    /// No namespace, or one of the RSS core namespaces: RSS 0.90, RSS 1.0, and the default
    /// namespaces RSS 2.0 feeds were given by UserLand and Harvard (`backend.userland.com/rss`,
    /// `/rss2`, `/rss2.1`, `blogs.law.harvard.edu/tech/rss`), as feedparser reads them.
    case rssCore
    case rdf
    case atom
    case content
    case dublinCore
    case dcTerms
    case media
    case itunes
    case xml
    case other

    static func classify(_ uri: UnsafePointer<UInt8>?) -> XMLNamespace {
        guard let uri else { return .rssCore }
        let length = strlen(uri)
        if XMLName.equals(uri, length, "http://purl.org/rss/1.0/") { return .rssCore }
        if XMLName.equals(uri, length, "http://www.w3.org/2005/Atom") { return .atom }
        if XMLName.equals(uri, length, "http://purl.org/atom/ns#") { return .atom }
        if XMLName.equals(uri, length, "http://www.w3.org/1999/02/22-rdf-syntax-ns#") { return .rdf }
        if XMLName.equals(uri, length, "http://purl.org/rss/1.0/modules/content/") { return .content }
        if XMLName.equals(uri, length, "http://purl.org/dc/elements/1.1/") { return .dublinCore }
        if XMLName.equals(uri, length, "http://purl.org/dc/terms/") { return .dcTerms }
        if XMLName.equals(uri, length, "http://search.yahoo.com/mrss/") { return .media }
        if XMLName.equals(uri, length, "http://search.yahoo.com/mrss") { return .media }
        if XMLName.equals(uri, length, "http://www.w3.org/XML/1998/namespace") { return .xml }
        if XMLName.equals(uri, length, "http://www.itunes.com/dtds/podcast-1.0.dtd") { return .itunes }
        if XMLName.equals(uri, length, "http://my.netscape.com/rdf/simple/0.9/") { return .rssCore }
        if XMLName.equals(uri, length, "http://backend.userland.com/rss2") { return .rssCore }
        if XMLName.equals(uri, length, "http://backend.userland.com/rss") { return .rssCore }
        if XMLName.equals(uri, length, "http://backend.userland.com/rss2.1") { return .rssCore }
        if XMLName.equals(uri, length, "http://blogs.law.harvard.edu/tech/rss") { return .rssCore }
        // Atom's names before Atom 0.3 (2003 drafts: Echo, Pie, Necho), still in old feeds.
        if XMLName.equals(uri, length, "http://purl.org/echo/") { return .atom }
        if XMLName.equals(uri, length, "http://purl.org/pie/") { return .atom }
        if XMLName.equals(uri, length, "http://example.com/necho") { return .atom }
        if XMLName.equals(uri, length, "http://example.com/newformat#") { return .atom }
        return .other
    }
}

/// Local names the feed state machine reacts to; everything else is `.other`.
enum XMLName: UInt8 {
    case other
    case rss, rdf, feed, opml
    case channel, item, entry
    case title, link, guid, description, encoded, pubDate, date, enclosure
    case content, group, id, summary, published, updated
    /// Atom 0.3 dates (`issued`, `created`, `modified`), also the `dcterms:` names.
    case issued, created, modified
    case head, body, outline
    case thumbnail, image

    /// An element whose own text the builder never reads, in any namespace, as long as every
    /// element around it is one too: the document and entry containers, where text is only
    /// the whitespace between child elements. No field is captured under such a name
    /// (`XMLFeedBuilder.begin`), so a text directly inside a chain of them is read by no one,
    /// and `SAXRecorder` does not record it.
    var isTextFreeContainer: Bool {
        switch self {
        case .rss, .rdf, .feed, .opml, .channel, .item, .entry, .group, .head, .body, .outline: true
        default: false
        }
    }

    /// Classifies a NUL-terminated libxml2 name by length, then bytes: no String is made.
    static func classify(_ name: UnsafePointer<UInt8>) -> XMLName {
        let length = strlen(name)
        switch length {
        case 2: if equals(name, length, "id") { return .id }
        case 3:
            if equals(name, length, "rss") { return .rss }
            if equals(name, length, "RDF") { return .rdf }
        case 4:
            if equals(name, length, "item") { return .item }
            if equals(name, length, "link") { return .link }
            if equals(name, length, "guid") { return .guid }
            if equals(name, length, "date") { return .date }
            if equals(name, length, "feed") { return .feed }
            if equals(name, length, "opml") { return .opml }
            if equals(name, length, "head") { return .head }
            if equals(name, length, "body") { return .body }
        case 5:
            if equals(name, length, "title") { return .title }
            if equals(name, length, "entry") { return .entry }
            if equals(name, length, "group") { return .group }
            if equals(name, length, "image") { return .image }
        case 6:
            if equals(name, length, "issued") { return .issued }
        case 7:
            if equals(name, length, "pubDate") { return .pubDate }
            if equals(name, length, "created") { return .created }
            if equals(name, length, "encoded") { return .encoded }
            if equals(name, length, "channel") { return .channel }
            if equals(name, length, "content") { return .content }
            if equals(name, length, "summary") { return .summary }
            if equals(name, length, "updated") { return .updated }
            if equals(name, length, "outline") { return .outline }
        case 8:
            if equals(name, length, "modified") { return .modified }
        case 9:
            if equals(name, length, "enclosure") { return .enclosure }
            if equals(name, length, "published") { return .published }
            if equals(name, length, "thumbnail") { return .thumbnail }
        case 11: if equals(name, length, "description") { return .description }
        default: break
        }
        return .other
    }

    @inline(__always)
    static func equals(_ bytes: UnsafePointer<UInt8>, _ length: Int, _ literal: StaticString) -> Bool {
        literal.utf8CodeUnitCount == length && bytes[0] == literal.utf8Start[0]
            && memcmp(bytes, literal.utf8Start, length) == 0
    }
}

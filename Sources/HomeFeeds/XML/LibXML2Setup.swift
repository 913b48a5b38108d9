internal import CLibXML2

/// Process-wide libxml2 set-up (`feed-parsing.md` §5.1): `xmlInitParser()`, the deny-all external
/// entity loader and the cached HTML5 entities handed out by the `getEntity` hook.
///
/// Runs exactly once, on first use, guarded by Swift's lazy `static let` (swift_once), so it is
/// safe even when two threads parse their first documents at the same moment. The daemon still
/// calls `FeedParser.prepare()` from its main thread at start-up, as the spec asks.
enum LibXML2Setup {
    static let done: Bool = {
        xmlInitParser()
        xmlSetExternalEntityLoader(denyAllLoader)
        // Errors raised without a parser context (iconv conversion failures in encoding.c) go
        // to libxml2's generic handler, which prints to stderr: a hostile feed could fill the
        // daemon's journal. Context errors still reach each parse's `serror`. This is the
        // generic (unstructured) handler, not the structured one feed-parsing.md §5.3 rules
        // out; the Def variant covers threads that touch libxml2 later.
        cxml_silence_generic_errors()
        _ = EntityCache.shared
        return true
    }()

    static func ensure() {
        _ = done
    }
}

/// Refuses every external resource: `file://`, `http://`, `ftp://`, and the catalog lookups the
/// default loader makes. libxml2 then treats the entity or DTD as unavailable.
private let denyAllLoader: xmlExternalEntityLoader = { _, _, _ in nil }

/// One `xmlEntity` per HTML5 name, of type `XML_INTERNAL_PREDEFINED_ENTITY`, so libxml2 passes its
/// UTF-8 straight to `characters()` and never re-parses it (`feed-parsing.md` §5.2, §5.5 item 6).
/// Not inside attribute values, where libxml2 would copy one byte of them: `AttributeEntities`.
///
/// `@unchecked Sendable`: filled once in `init` and never mutated; libxml2 only reads
/// predefined-type entities (its own predefined `&amp;` entities are shared statics in the same way).
final class EntityCache: @unchecked Sendable {
    static let shared = EntityCache()

    private let entities: [String: UnsafeMutablePointer<xmlEntity>]
    /// Returned for unknown names: an empty entity, never NULL, so a document-declared entity
    /// (XXE, billion laughs, quadratic blow-up) can never be looked up by libxml2.
    let empty: UnsafeMutablePointer<xmlEntity>?
    /// `&`, for `AmpersandRepair`'s marker of a bare ampersand.
    let ampersand: UnsafeMutablePointer<xmlEntity>?

    private init() {
        var entities: [String: UnsafeMutablePointer<xmlEntity>] = [:]
        entities.reserveCapacity(HTMLEntities.table.count)
        let type = Int32(XML_INTERNAL_PREDEFINED_ENTITY.rawValue)
        for (name, utf8) in HTMLEntities.table {
            let entity = name.withCString { cName in
                (utf8 + [0]).withUnsafeBufferPointer { content in
                    xmlNewEntity(
                        nil,
                        UnsafeRawPointer(cName).assumingMemoryBound(to: xmlChar.self),
                        type,
                        nil,
                        nil,
                        content.baseAddress
                    )
                }
            }
            if let entity { entities[name] = entity }
        }
        self.entities = entities
        empty = Self.make(name: AttributeEntities.unknownName, content: [0], type: type)
        ampersand = Self.make(name: "homefeed-amp", content: [UInt8(ascii: "&"), 0], type: type)
    }

    private static func make(name: String, content: [UInt8], type: Int32) -> UnsafeMutablePointer<xmlEntity>? {
        name.withCString { cName in
            content.withUnsafeBufferPointer { content in
                xmlNewEntity(
                    nil,
                    UnsafeRawPointer(cName).assumingMemoryBound(to: xmlChar.self),
                    type,
                    nil,
                    nil,
                    content.baseAddress
                )
            }
        }
    }

    /// The entity for `&name;` when `name` is an HTML5 character reference, else nil.
    func entity(named name: UnsafePointer<xmlChar>) -> UnsafeMutablePointer<xmlEntity>? {
        entities[String(cString: name)]
    }
}

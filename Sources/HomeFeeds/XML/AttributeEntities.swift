internal import CLibXML2

/// The entities `getEntity` hands libxml2 for references inside attribute values: general-type
/// entities, so that libxml2 writes the reference itself into the value.
///
/// `EntityCache`'s HTML5 entities are predefined-type, so that libxml2 passes their whole UTF-8
/// to `characters()`. In an attribute value libxml2 2.9.14 copies only the first byte of a
/// predefined-type entity (`xmlParseAttValueComplex`, written for the one-byte `&lt;` and its
/// kin): `&eacute;` became a lone lead byte and the empty entity for an unknown name a NUL. For
/// a general entity, and without entity substitution (we never set NOENT), it writes `&name;`
/// into the value as it wrote `&#38;` for `&amp;`; `XMLAttributes.decode` then reads the name
/// with the HTML5 table, and drops ``unknownName``, which stands for every name HTML5 does not
/// know. libxml2 never reads their content (`checked` is set, so it neither parses it again nor
/// writes to the entity); it is their own name, text with no `<` nor `&`.
///
/// One per parse, each name made on its first reference in an attribute: HTML5's 2 125 names
/// at most, and few in any document. Not Sendable: owned by the parse's `SAXRecorder`.
struct AttributeEntities: ~Copyable {
    /// The name written for a name HTML5 does not know: not one of HTML5's (no `-` in them).
    static let unknownName = "homefeed-unknown"

    private var entities: [String: UnsafeMutablePointer<xmlEntity>] = [:]

    init() {}

    deinit {
        for entity in entities.values {
            entity.pointee.name.map { UnsafeMutablePointer(mutating: $0).deallocate() }
            entity.deallocate()
        }
    }

    /// The entity for `&name;` in an attribute value: one of that name when HTML5 knows it
    /// (`isHTML5`), else the one named ``unknownName``.
    mutating func entity(named name: UnsafePointer<UInt8>, isHTML5: Bool) -> UnsafeMutablePointer<xmlEntity> {
        let key = isHTML5 ? String(cString: name) : Self.unknownName
        if let entity = entities[key] { return entity }
        let utf8 = Array(key.utf8)
        let copy = UnsafeMutablePointer<xmlChar>.allocate(capacity: utf8.count + 1)
        copy.initialize(from: utf8, count: utf8.count)
        copy[utf8.count] = 0
        let entity = UnsafeMutablePointer<xmlEntity>.allocate(capacity: 1)
        entity.initialize(to: xmlEntity())
        entity.pointee.type = XML_ENTITY_DECL
        entity.pointee.name = UnsafePointer(copy)
        entity.pointee.etype = XML_INTERNAL_GENERAL_ENTITY
        entity.pointee.content = copy
        entity.pointee.length = Int32(utf8.count)
        entity.pointee.checked = 2
        entities[key] = entity
        return entity
    }
}

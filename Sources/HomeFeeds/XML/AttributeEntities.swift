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
/// with the HTML5 table, and drops ``unknownName``, the name of `EntityCache`'s empty entity,
/// which stands for every name HTML5 does not know.
///
/// Each is the twin of one of `EntityCache`'s entities, which live as long as the process: it
/// borrows that entity's name, and the name serves as its content too, which libxml2 never reads
/// (`checked` is set, so it neither parses it again nor writes to the entity). One per parse,
/// each made on its first reference in an attribute: HTML5's 2 125 names at most, and few in any
/// document. Not Sendable: owned by the parse's `SAXRecorder`.
struct AttributeEntities: ~Copyable {
    /// The name of the entity that stands for a name HTML5 does not know (HTML5 has no such name).
    static let unknownName = "homefeedUnknown"

    /// Twins by the `EntityCache` entity they stand for.
    private var twins: [UnsafeMutablePointer<xmlEntity>: UnsafeMutablePointer<xmlEntity>] = [:]

    init() {}

    deinit {
        for twin in twins.values { twin.deallocate() }
    }

    /// The general-type twin of `entity`, one of `EntityCache`'s.
    mutating func twin(of entity: UnsafeMutablePointer<xmlEntity>) -> UnsafeMutablePointer<xmlEntity> {
        if let twin = twins[entity] { return twin }
        let twin = UnsafeMutablePointer<xmlEntity>.allocate(capacity: 1)
        twin.initialize(to: xmlEntity())
        twin.pointee.type = XML_ENTITY_DECL
        twin.pointee.name = entity.pointee.name
        twin.pointee.etype = XML_INTERNAL_GENERAL_ENTITY
        twin.pointee.content = entity.pointee.name.map { UnsafeMutablePointer(mutating: $0) }
        twin.pointee.length = xmlStrlen(entity.pointee.name)
        twin.pointee.checked = 2
        twins[entity] = twin
        return twin
    }
}

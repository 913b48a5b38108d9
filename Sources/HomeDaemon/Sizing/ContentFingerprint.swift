import FoundationEssentials

/// A 64-bit fingerprint of what an element shows: its kind and every content field a client
/// draws. A measured size is kept with the fingerprint it was measured for, so a changed title
/// makes it stale; `changes.updated` lists the elements whose fingerprint (or picture) changed.
///
/// FNV-1a over a tagged encoding (each field: a presence byte, its UTF-8, a 0xFF terminator), so
/// `("ab", nil)` and `("a", "b")` differ. Stored in the database: the function must never change
/// for content it already covers. A new content field is added at the end and only when
/// present, so older fingerprints stay valid: the item's image came that way.
enum ContentFingerprint {
    /// The fingerprint of an element without content (a footer, a badge's own frame …).
    static let empty = of(nil)

    static func of(_ content: ItemContent?) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        func field(_ text: String?) {
            guard let text else {
                mix(0)
                return
            }
            mix(1)
            for byte in text.utf8 { mix(byte) }
            mix(0xFF)
        }
        guard let content else { return hash }
        field(content.kind)
        field(content.title)
        field(content.subtitle)
        field(content.link)
        field(content.date.map(ISO8601.string))
        field(content.source)
        field(content.icon)
        // Added after the fields above, and only for content with an image, so fingerprints
        // stored before images existed stay valid. The image's identity (`image:URL` or
        // `page:URL`), not its rendition: the rendition's box follows the measured frame.
        if let image = content.image { field(image.key) }
        return hash
    }
}

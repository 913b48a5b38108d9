internal import CLibXML2

/// What the builder hears about besides elements and text: libxml2's errors, entity lookups,
/// and the positions warnings are reported at.
extension XMLFeedBuilder {
    /// Records a libxml2 error or warning for this parse only (the `serror` hook). Errors
    /// (level ≥ `XML_ERR_ERROR`) mean libxml2 recovered from a broken document.
    ///
    /// - Parameter endTag: for XML_ERR_TAG_NAME_MISMATCH, the end tag as written.
    mutating func record(_ error: SAXEventTape.RecordedError, endTag: UnsafePointer<UInt8>?) {
        var message = error.message
        while message.last == "\n" || message.last == " " { message.removeLast() }
        if firstError == nil { firstError = (error.code, error.line, error.column, message) }
        // Before the elements it closes: their fields' text is no longer trusted (`isTextTrusted`).
        if error.isError { isWellFormed = false }
        if let endTag { closeOpenElements(named: endTag) }
        warnings.add(
            line: error.line > 0 ? error.line : nil,
            column: error.column > 0 ? error.column : nil,
            // libxml2 quotes names from the document, which may be long.
            (error.isError ? "recovered: " : "") + excerpt(message, maxCharacters: 200)
        )
    }

    /// The HTML5 entity `name` names, or nil; the last one found is kept, since a feed tends
    /// to repeat the same few (`&nbsp;` in every title), which skips making a String and
    /// hashing it per reference.
    mutating func htmlEntity(named name: UnsafePointer<UInt8>) -> UnsafeMutablePointer<xmlEntity>? {
        if let recentEntity, strcmpUInt8(recentEntity.name, name) { return recentEntity.entity }
        guard let entity = EntityCache.shared.entity(named: name) else { return nil }
        // The cache's own copy of the name: libxml2's may be freed after the call.
        if let cachedName = entity.pointee.name {
            recentEntity = (cachedName, entity)
        }
        return entity
    }

    /// A bare `&` (`AmpersandRepair`'s marker reached `getEntity`): read as a literal `&`.
    mutating func recordBareAmpersand() {
        isWellFormed = false
        // libxml2 stands after the marker `&_amp;`; the `&` was where the marker starts.
        let (line, column) = position(back: 6)
        warnings.add(line: line, column: column, "recovered: a bare '&' (no entity or character reference) read as '&'")
    }

    /// A reference to an entity that is neither XML's nor HTML5's: dropped. One the document
    /// declares is well-formed XML, but document-declared entities are never expanded (§5.2).
    mutating func recordUnknownEntity(_ name: UnsafePointer<UInt8>) {
        // Before the root element, references are inside the DTD's own declarations.
        guard root != nil else { return }
        let length = strlenUInt8(name)
        let shown = String(decoding: UnsafeBufferPointer(start: name, count: min(length, 40)), as: UTF8.self)
        let (line, column) = position(back: length + 2)
        if declaredEntities.contains(shown) {
            warnings.add(line: line, column: column, "entity &\(shown); declared by the document not expanded")
        } else {
            isWellFormed = false
            warnings.add(line: line, column: column, "recovered: undefined entity &\(shown); dropped")
        }
    }

    /// Notes the name of an entity the document declares (at most 1 000 names are kept).
    mutating func noteDeclaredEntity(_ name: UnsafePointer<UInt8>) {
        guard declaredEntities.count < 1000 else { return }
        declaredEntities.insert(
            String(decoding: UnsafeBufferPointer(start: name, count: min(strlenUInt8(name), 40)), as: UTF8.self)
        )
    }

    /// libxml2's line and column when it reported the event being replayed, or its current
    /// ones between replays (less `back` characters on the same line), for warnings raised
    /// from the builder.
    func position(back: Int = 0) -> (line: Int?, column: Int?) {
        let line: Int
        let column: Int
        if let replayedPosition {
            (line, column) = (Int(replayedPosition.line), Int(replayedPosition.column))
        } else if let context {
            (line, column) = (Int(xmlSAX2GetLineNumber(context)), Int(xmlSAX2GetColumnNumber(context)))
        } else {
            return (nil, nil)
        }
        return (line > 0 ? line : nil, column > 0 ? max(1, column - back) : nil)
    }
}

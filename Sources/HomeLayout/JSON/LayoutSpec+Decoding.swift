extension LayoutSpec {
    /// Decodes a spec from JSON bytes (`layout-spec-format.md`).
    ///
    /// - Throws: ``LayoutSpecError`` naming the JSON path (and line/column for syntax errors).
    public init(json bytes: some Collection<UInt8>) throws(LayoutSpecError) {
        // Placeholder until the decoder lands.
        throw LayoutSpecError(path: "", reason: "decoder not implemented yet")
    }
}

extension JSONScanner {
    /// The 1-based line and column of the byte at `offset`, as an editor shows them, for error
    /// messages: columns count Unicode scalars (bytes that are not UTF-8 continuation bytes),
    /// lines end at `\n`. An offset past the end is the position after the last byte.
    public static func lineAndColumn(of offset: Int, in bytes: some Collection<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(max(0, offset)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}

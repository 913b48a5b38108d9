/// HTML element names that matter to `PlainText`, compared without allocating.
enum HTMLTagNames {
    /// Block elements that count as whitespace (§2 rule 1: `p div br li ul ol h1-h6 tr td
    /// blockquote pre hr table`), plus `th` as the sibling of `td` and the other elements a
    /// browser lays out as blocks (HTML's rendering section): `dl dt dd`, the sectioning
    /// elements, figures, `address`, `caption` and the table row groups.
    static func isBlock(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name.count {
        case 1: return (name[0] | 0x20) == UInt8(ascii: "p")
        case 2:
            let first = name[0] | 0x20
            let second = name[1] | 0x20
            switch first {
            case UInt8(ascii: "b"): return second == UInt8(ascii: "r")
            case UInt8(ascii: "l"): return second == UInt8(ascii: "i")
            case UInt8(ascii: "u"), UInt8(ascii: "o"): return second == UInt8(ascii: "l")
            case UInt8(ascii: "h"):
                return (second >= UInt8(ascii: "1") && second <= UInt8(ascii: "6")) || second == UInt8(ascii: "r")
            case UInt8(ascii: "t"):
                return second == UInt8(ascii: "r") || second == UInt8(ascii: "d") || second == UInt8(ascii: "h")
            case UInt8(ascii: "d"):
                return second == UInt8(ascii: "l") || second == UInt8(ascii: "t") || second == UInt8(ascii: "d")
            default: return false
            }
        case 3:
            return equalsIgnoringCase(name, "div") || equalsIgnoringCase(name, "pre") || equalsIgnoringCase(name, "nav")
        case 4: return equalsIgnoringCase(name, "main")
        case 5:
            return equalsIgnoringCase(name, "table") || equalsIgnoringCase(name, "aside")
                || equalsIgnoringCase(name, "thead") || equalsIgnoringCase(name, "tbody")
                || equalsIgnoringCase(name, "tfoot")
        case 6:
            return equalsIgnoringCase(name, "header") || equalsIgnoringCase(name, "footer")
                || equalsIgnoringCase(name, "figure")
        case 7:
            return equalsIgnoringCase(name, "section") || equalsIgnoringCase(name, "article")
                || equalsIgnoringCase(name, "address") || equalsIgnoringCase(name, "caption")
                || equalsIgnoringCase(name, "details")
        case 10: return equalsIgnoringCase(name, "blockquote") || equalsIgnoringCase(name, "figcaption")
        default: return false
        }
    }

    /// `</script` or `</style` for the elements whose content is dropped, else nil.
    static func rawTextCloser(_ name: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        if name.count == 6 && equalsIgnoringCase(name, "script") { return scriptCloser }
        if name.count == 5 && equalsIgnoringCase(name, "style") { return styleCloser }
        return nil
    }

    private static let scriptCloser = Array("</script".utf8)
    private static let styleCloser = Array("</style".utf8)

    /// ASCII case-insensitive comparison with a lowercase literal.
    static func equalsIgnoringCase(_ name: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard name.count == literal.utf8CodeUnitCount else { return false }
        let bytes = literal.utf8Start
        for index in 0..<name.count where (name[index] | 0x20) != bytes[index] {
            return false
        }
        return true
    }
}

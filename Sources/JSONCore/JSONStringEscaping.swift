private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

/// Appends `value` in double quotes, escaped per RFC 8259 §7: quote, backslash and the C0
/// controls (short forms where JSON has them, `\u00XX` otherwise). A NUL becomes `\u0000`, so
/// encoded text never contains Varlink's frame byte. Shared by both JSON writers.
package func appendJSONString(_ value: String, to bytes: inout [UInt8]) {
    var value = value
    value.withUTF8 { utf8 in
        bytes.append(UInt8(ascii: "\""))
        // Runs of bytes that need no escape are copied at once (most strings are one run).
        var runStart = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            runStart = index + 1
            appendEscape(byte, to: &bytes)
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        bytes.append(UInt8(ascii: "\""))
    }
}

/// The escape of one byte that JSON does not allow raw in a string.
private func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
    case 0x0A: bytes.append(UInt8(ascii: "n"))
    case 0x0D: bytes.append(UInt8(ascii: "r"))
    case 0x09: bytes.append(UInt8(ascii: "t"))
    case 0x08: bytes.append(UInt8(ascii: "b"))
    case 0x0C: bytes.append(UInt8(ascii: "f"))
    default:
        bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
        bytes.append(hexDigits[Int(byte >> 4)])
        bytes.append(hexDigits[Int(byte & 0xF)])
    }
}

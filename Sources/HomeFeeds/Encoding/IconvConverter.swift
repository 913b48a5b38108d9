internal import Glibc
internal import Synchronization

/// Streaming conversion of one document to UTF-8 with glibc iconv (`iconv(3)`), for every
/// encoding `UTF8Sanitizer` does not decode itself.
///
/// A byte sequence that is not valid in the source encoding becomes the byte 0xFF in the
/// output: never valid UTF-8, so `UTF8Sanitizer` replaces it with U+FFFD in place and reports
/// where. The converter then skips one code unit and goes on, so one bad byte never loses the
/// rest of the document (libxml2's own iconv use stops at the first one). A sequence cut by
/// the end of a chunk is kept for the next one.
///
/// Not Sendable: one converter per document; an `iconv_t` must not be shared between threads.
final class IconvConverter {
    /// The marker for an invalid sequence in the output; see the type's comment.
    static let invalidMarker: UInt8 = 0xFF

    private let handle: iconv_t
    private let codeUnitSize: Int
    private var carry: [UInt8] = []

    init?(iconvName: String, codeUnitSize: Int) {
        guard let handle = Self.open(iconvName) else { return nil }
        self.handle = handle
        self.codeUnitSize = max(1, codeUnitSize)
    }

    deinit {
        iconv_close(handle)
    }

    /// Appends the UTF-8 form of `input` to `out`; at `isFinal`, a cut sequence becomes a marker.
    func convert(_ input: UnsafeRawBufferPointer, isFinal: Bool, into out: inout [UInt8]) {
        if carry.isEmpty {
            run(input, isFinal: isFinal, into: &out)
        } else {
            var joined = carry
            joined.append(contentsOf: input)
            carry.removeAll()
            joined.withUnsafeBytes { run($0, isFinal: isFinal, into: &out) }
        }
        if isFinal {
            // Return a stateful encoding (ISO-2022-JP) to its initial state.
            _ = convertStep(nil, nil, into: &out)
        }
    }

    /// Output room for one `iconv` call; a call that runs out of it (E2BIG) is simply repeated.
    private var scratch = [UInt8](repeating: 0, count: 16 << 10)

    /// One `iconv` call into `scratch`, appended to `out`; returns `errno` on failure, else 0.
    private func convertStep(
        _ inPointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        _ inLeft: UnsafeMutablePointer<Int>?,
        into out: inout [UInt8]
    ) -> Int32 {
        var failure: Int32 = 0
        var produced = 0
        scratch.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            var outPointer: UnsafeMutablePointer<CChar>? = base.assumingMemoryBound(to: CChar.self)
            var outLeft = raw.count
            if iconv(handle, inPointer, inLeft, &outPointer, &outLeft) == -1 { failure = errno }
            produced = raw.count - outLeft
        }
        out.append(contentsOf: scratch[0..<produced])
        return failure
    }

    private func run(_ input: UnsafeRawBufferPointer, isFinal: Bool, into out: inout [UInt8]) {
        guard let base = input.baseAddress, input.count > 0 else { return }
        var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(
            mutating: base.assumingMemoryBound(to: CChar.self)
        )
        var inLeft = input.count
        while inLeft > 0 {
            switch convertStep(&inPointer, &inLeft, into: &out) {
            case 0, E2BIG:
                continue
            case EINVAL where !isFinal && inLeft <= 8:
                // A sequence cut by the end of the chunk: wait for the rest.
                carry = Array(UnsafeRawBufferPointer(start: inPointer, count: inLeft))
                return
            default:
                // EILSEQ (or a cut sequence at the end of the body): mark it, skip one unit.
                out.append(Self.invalidMarker)
                let skip = min(codeUnitSize, inLeft)
                inPointer = inPointer.map { $0 + skip }
                inLeft -= skip
            }
        }
    }

    private static func open(_ name: String) -> iconv_t? {
        let handle = iconv_open("UTF-8", name)
        guard let handle, handle != iconv_t(bitPattern: -1) else { return nil }
        return handle
    }

    // MARK: Probes (cached per name, process-wide)

    private static let probes = Mutex<[String: (available: Bool, asciiCompatible: Bool)]>([:])

    /// True when glibc iconv can convert from `name` to UTF-8.
    static func isAvailable(_ name: String) -> Bool {
        probe(name).available
    }

    /// True when `name` decodes ASCII text (with `<`, `&`, `+` and digits) to the same bytes:
    /// the encodings a document whose first bytes are ASCII may be declared in.
    static func decodesASCIIUnchanged(_ name: String) -> Bool {
        probe(name).asciiCompatible
    }

    private static func probe(_ name: String) -> (available: Bool, asciiCompatible: Bool) {
        if let known = probes.withLock({ $0[name] }) { return known }
        var result = (available: false, asciiCompatible: false)
        if let converter = IconvConverter(iconvName: name, codeUnitSize: 1) {
            let sample = Array("<?xml version=\"1.0\"?>\n<a b='c'>d&amp;e+f-g;#0</a>".utf8)
            var out: [UInt8] = []
            sample.withUnsafeBytes { converter.convert($0, isFinal: true, into: &out) }
            result = (true, out == sample)
        }
        probes.withLock { $0[name] = result }
        return result
    }
}

import JSONCore

#if canImport(Glibc)
    internal import Glibc
#endif

/// A service's implemented methods by fully qualified name, matched against the raw bytes of a
/// call's `method`, so that the server's decoding (``VarlinkCall/decoding(_:routes:)``) hands a
/// call over already routed: its `method` is the route's own `String` (no string is made and
/// validated for it) and no hashed look-up follows (issue 17: about 1 000 instructions a call).
///
/// Sendable: immutable after init.
struct MethodRoutes: Sendable {
    /// A class: a decoded call carries its route as one reference, cheap to copy.
    final class Route: Sendable {
        let name: String
        let method: VarlinkMethod
        /// ``VarlinkMethod/requiresMore`` and ``VarlinkMethod/immediateHandler``, read from the
        /// route by the loop thread without copying the whole method (issue 17).
        let requiresMore: Bool
        let immediateHandler: VarlinkImmediateHandler?
        /// The parameter names the method declares (its interface's IDL), at most
        /// ``maxDeclaredParameters``; see ``declaredParameter(at:)``.
        let parameters: [DeclaredName]
        fileprivate let utf8: [UInt8]

        fileprivate init(name: String, method: VarlinkMethod, parameters: [String], utf8: [UInt8]) {
            self.name = name
            self.method = method
            self.requiresMore = method.requiresMore
            self.immediateHandler = method.immediateHandler
            self.parameters = parameters.prefix(MethodRoutes.maxDeclaredParameters).compactMap(DeclaredName.init)
            self.utf8 = utf8
        }

        /// The index in ``parameters`` and the string of the declared name that the JSON string
        /// at the scanner's `"` spells exactly, the scanner then after its closing quote; nil
        /// (the scanner unmoved) for any other string, escaped ones included.
        func declaredParameter(at scanner: inout JSONScanner) -> (index: Int, name: String)? {
            guard let (start, count) = MethodRoutes.plainString(at: scanner), count <= DeclaredName.maxCount,
                let base = scanner.bytes.baseAddress
            else { return nil }
            let words = DeclaredName.words(UnsafeRawBufferPointer(start: base + start, count: count))
            for index in parameters.indices {
                let declared = parameters[index]
                if declared.count == count, declared.words == words {
                    scanner.index = start + count + 1
                    return (index, declared.name)
                }
            }
            return nil
        }
    }

    /// A declared parameter name and its bytes packed in two words (compared as two integers,
    /// no loop or `memcmp` per name); only names of at most ``maxCount`` ASCII letters, digits
    /// and `_`, so equal bytes are an equal string and no other spelling matches by bytes.
    struct DeclaredName: Sendable {
        static let maxCount = 16
        let name: String
        let count: Int
        let words: (UInt64, UInt64)

        init?(_ name: String) {
            let utf8 = Array(name.utf8)
            guard utf8.allSatisfy(VarlinkInterface.isIdentifierByte), !utf8.isEmpty, utf8.count <= Self.maxCount else {
                return nil
            }
            self.name = name
            self.count = utf8.count
            self.words = utf8.withUnsafeBytes(Self.words)
        }

        /// At most ``maxCount`` bytes in two words, zero-padded.
        static func words(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
            var words: (UInt64, UInt64) = (0, 0)
            // copyMemory traps if `bytes` is longer than the 16 bytes of the words; callers
            // check the count first.
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
            return words
        }
    }

    /// The most declared parameters a route matches by bytes (a bit each in the decoding's set
    /// of seen names); a method declaring more has the rest decoded as any other name.
    static let maxDeclaredParameters = 64

    private let routes: [Route]

    /// - Parameters:
    ///   - methods: by fully qualified name (`io.homefeed.GetManifest`). A name with a quote,
    ///     backslash or control character is left out (its raw bytes would not be its JSON
    ///     text); such a call is routed by its decoded name instead.
    ///   - parameters: the declared parameter names by fully qualified method name.
    init(_ methods: [String: VarlinkMethod], parameters: [String: [String]] = [:]) {
        routes = methods.sorted { $0.key < $1.key }.compactMap { name, method in
            let utf8 = Array(name.utf8)
            let plain = !utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            return plain ? Route(name: name, method: method, parameters: parameters[name] ?? [], utf8: utf8) : nil
        }
    }

    /// The offset and length of the bytes between the quote at the scanner and the next quote
    /// (escaped or not: a plain name cannot contain one), nil without a next quote.
    fileprivate static func plainString(at scanner: JSONScanner) -> (start: Int, count: Int)? {
        let bytes = scanner.bytes
        let start = scanner.index + 1
        guard start < bytes.count, let base = bytes.baseAddress,
            let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), bytes.count - start)
        else { return nil }
        return (start, UnsafeRawPointer(quote) - UnsafeRawPointer(base + start))
    }

    /// The route named by the JSON string at the scanner's `"`, the scanner then after its
    /// closing quote; nil (the scanner unmoved) for any other name, and for a string with an
    /// escape, which the general string decoding handles.
    func route(at scanner: inout JSONScanner) -> Route? {
        guard let (start, count) = Self.plainString(at: scanner), let base = scanner.bytes.baseAddress else {
            return nil
        }
        let name = UnsafeRawPointer(base + start)
        // A route's name has no backslash or control byte, so equal bytes mean an equal name.
        for route in routes where route.utf8.count == count {
            let equal = route.utf8.withUnsafeBytes { expected in
                expected.baseAddress.map { memcmp($0, name, count) == 0 } ?? false
            }
            if equal {
                scanner.index = start + count + 1
                return route
            }
        }
        return nil
    }
}

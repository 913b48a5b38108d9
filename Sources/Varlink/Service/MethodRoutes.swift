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
        fileprivate let utf8: [UInt8]

        fileprivate init(name: String, method: VarlinkMethod, utf8: [UInt8]) {
            self.name = name
            self.method = method
            self.utf8 = utf8
        }
    }

    private let routes: [Route]

    /// - Parameter methods: by fully qualified name (`io.homefeed.GetManifest`).
    ///   A name with a quote, backslash or control character is left out (its raw bytes would
    ///   not be its JSON text); such a call is routed by its decoded name instead.
    init(_ methods: [String: VarlinkMethod]) {
        routes = methods.sorted { $0.key < $1.key }.compactMap { name, method in
            let utf8 = Array(name.utf8)
            let plain = !utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            return plain ? Route(name: name, method: method, utf8: utf8) : nil
        }
    }

    /// The route named by the JSON string at the scanner's `"`, the scanner then after its
    /// closing quote; nil (the scanner unmoved) for any other name, and for a string with an
    /// escape, which the general string decoding handles.
    func route(at scanner: inout JSONScanner) -> Route? {
        let bytes = scanner.bytes
        let start = scanner.index + 1
        guard start < bytes.count, let base = bytes.baseAddress,
            let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), bytes.count - start)
        else { return nil }
        let name = UnsafeRawPointer(base + start)
        let count = UnsafeRawPointer(quote) - name
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

#if canImport(Glibc)
    internal import Glibc
#endif

/// The last call a connection decoded, with the bytes it came from, so that a client sending
/// the same message again gets the same decoded call without a second decoding.
///
/// Why: the usual client of a Varlink service polls, and polls with the same message (an app
/// asking for the manifest with the `ifNoneMatch` it holds, a monitor asking for the status);
/// decoding it again is most of what the loop thread spends on such a call: the strings and the
/// dictionary of `parameters`, about 5 000 of 13 700 instructions (callgrind, issue 17). Decoding
/// is a pure function of the bytes and of the service's fixed ``MethodRoutes``, so the memo
/// changes nothing the client can see; a message that fails to decode is never remembered.
///
/// Memory: one message of at most ``maxBytes`` bytes per connection. A miss costs a copy of the
/// message.
///
/// Not thread-safe: a value owned by one ``Connection`` on its loop thread.
struct CallMemo {
    /// Longer messages are decoded every time: polls are small.
    static let maxBytes = 512

    private var bytes: [UInt8] = []
    private var call: VarlinkCall?
    private var route: MethodRoutes.Route?

    /// The call in `message` (``VarlinkCall/decoding(_:routes:)``), remembered if it is small.
    ///
    /// - Throws: as ``VarlinkCall/init(decoding:)``.
    mutating func decode(
        _ message: UnsafeBufferPointer<UInt8>,
        routes: MethodRoutes
    ) throws(VarlinkProtocolError) -> (call: VarlinkCall, route: MethodRoutes.Route?) {
        if let call, matches(message) { return (call, route) }
        let fresh = try VarlinkCall.decoding(message, routes: routes)
        if message.count <= Self.maxBytes {
            bytes = Array(message)
            (call, route) = fresh
        } else {
            bytes = []
            (call, route) = (nil, nil)
        }
        return fresh
    }

    private func matches(_ message: UnsafeBufferPointer<UInt8>) -> Bool {
        guard message.count == bytes.count else { return false }
        guard let base = message.baseAddress else { return bytes.isEmpty }
        return bytes.withUnsafeBytes { remembered in
            remembered.baseAddress.map { memcmp($0, base, message.count) == 0 } ?? false
        }
    }
}

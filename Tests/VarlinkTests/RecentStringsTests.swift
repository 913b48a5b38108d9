import Testing

@testable import Varlink

/// A connection's recent long string values (``RecentStrings``): a call that repeats one is
/// given the string already made, and every call still decodes to what the general decoding
/// makes of it.
@Suite("Recent strings")
struct RecentStringsTests {
    /// The `ifNoneMatch` of a polling client: 18 bytes, escaped quotes, as the daemon's etags.
    static let etag = #"\"0123456789abcdef\""#

    private static func message(_ ifNoneMatch: String) -> String {
        #"{"method":"io.homefeed.GetManifest","parameters":{"profile":"phone","ifNoneMatch":""#
            + ifNoneMatch + #""}}"#
    }

    /// Decodes `texts` in turn as one connection does, through one `RecentStrings`.
    private static func decodeInTurn(_ texts: [String]) throws -> [VarlinkCall] {
        var spare: [VarlinkCall.Member] = []
        var recent = RecentStrings()
        return try texts.map { text in
            try Array(text.utf8).withUnsafeBufferPointer { bytes in
                try VarlinkCall.decoding(bytes, routes: MethodRoutes([:]), reusing: &spare, recent: &recent).call
            }
        }
    }

    private static func storage(_ value: JSONValue?) -> UnsafeRawPointer? {
        guard var string = value?.stringValue else { return nil }
        return string.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("a repeated long value is the string made for its first call")
    func repeatedValueIsShared() throws {
        let calls = try Self.decodeInTurn([Self.message(Self.etag), Self.message(Self.etag)])
        #expect(calls[0].parameter("ifNoneMatch") == #""0123456789abcdef""#)
        #expect(calls[1] == calls[0])
        // Both calls are alive, so equal storage is the same string, not a reused address.
        #expect(Self.storage(calls[1].parameter("ifNoneMatch")) == Self.storage(calls[0].parameter("ifNoneMatch")))
    }

    @Test("values that share a remembered token's first bytes decode as themselves")
    func lookalikesDecodeAsThemselves() throws {
        let texts = [
            Self.etag,
            #"\"0123456789abcdeX\""#,  // differs in its last character
            #"\"0123456789abcdef\"\"tail"#,  // the remembered text, then more
            #"\"0123456789abcdef"#,  // a prefix of it
            Self.etag,
        ].map(Self.message)
        let calls = try Self.decodeInTurn(texts)
        for (call, text) in zip(calls, texts) {
            #expect(call == (try VarlinkCall(decodingGenerally: Array(text.utf8))), "\(text)")
        }
        #expect(calls[4].parameter("ifNoneMatch") == #""0123456789abcdef""#)
    }

    @Test("only strings that need an allocation and tokens of at most 256 bytes are kept")
    func whatIsKept() {
        var recent = RecentStrings()
        func token(_ text: String) -> [UInt8] { Array("\"\(text)\"".utf8) }
        func found(_ text: String) -> String? {
            token(text).withUnsafeBufferPointer { recent.value(at: 0, in: $0)?.value }
        }
        func remember(_ text: String) {
            token(text).withUnsafeBufferPointer { recent.remember(token: $0, value: text) }
        }
        let fifteen = String(repeating: "a", count: 15)
        let sixteen = String(repeating: "b", count: 16)
        let long = String(repeating: "c", count: RecentStrings.maxTokenLength - 2)
        let tooLong = String(repeating: "d", count: RecentStrings.maxTokenLength - 1)
        for text in [fifteen, sixteen, long, tooLong] { remember(text) }
        #expect(found(fifteen) == nil)  // small: inline in its String
        #expect(found(sixteen) == sixteen)
        #expect(found(long) == long)
        #expect(found(tooLong) == nil)
        // Full: the oldest goes first.
        let third = String(repeating: "e", count: 20)
        remember(third)
        #expect(found(sixteen) == nil && found(long) == long && found(third) == third)
    }

    @Test("a remembered token longer than the bytes left is not read past them")
    func shortInput() {
        var recent = RecentStrings()
        let token = Array(#""0123456789abcdefgh""#.utf8)
        token.withUnsafeBufferPointer { recent.remember(token: $0, value: "0123456789abcdefgh") }
        let cut = Array(token.dropLast())
        #expect(cut.withUnsafeBufferPointer { recent.value(at: 0, in: $0) } == nil)
        #expect(token.withUnsafeBufferPointer { recent.value(at: 0, in: $0)?.length } == token.count)
    }
}

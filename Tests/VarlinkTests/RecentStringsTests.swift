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

    /// Decodes `texts` in turn as one connection does, through one `RecentStrings`, in the
    /// one-pass form only (nil where it declines: the general decoding would hide its errors).
    private static func decodeInTurn(_ texts: [String]) -> [VarlinkCall?] {
        var spare: [VarlinkCall.Member] = []
        var recent = RecentStrings()
        return texts.map { text in
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                VarlinkCall.decodingUsualForm(bytes, routes: MethodRoutes([:]), reusing: &spare, recent: &recent)?.call
            }
        }
    }

    private static func storage(_ value: JSONValue?) -> UnsafeRawPointer? {
        guard var string = value?.stringValue else { return nil }
        return string.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("a repeated long value is the string made for its first call")
    func repeatedValueIsShared() throws {
        let calls = Self.decodeInTurn([Self.message(Self.etag), Self.message(Self.etag)])
        let first = try #require(calls[0])
        let second = try #require(calls[1])
        #expect(first.parameter("ifNoneMatch") == #""0123456789abcdef""#)
        #expect(second == first)
        // Both calls are alive, so equal storage is the same string, not a reused address.
        #expect(Self.storage(second.parameter("ifNoneMatch")) == Self.storage(first.parameter("ifNoneMatch")))
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
        let calls = Self.decodeInTurn(texts)
        for (call, text) in zip(calls, texts) {
            #expect(try #require(call) == (try VarlinkCall(decodingGenerally: Array(text.utf8))), "\(text)")
        }
        #expect(calls[4]?.parameter("ifNoneMatch") == #""0123456789abcdef""#)
    }

    @Test("only strings that need an allocation and tokens of at most 256 bytes are kept")
    func whatIsKept() {
        var recent = RecentStrings()
        let fifteen = String(repeating: "a", count: 15)
        let sixteen = String(repeating: "b", count: 16)
        let long = String(repeating: "c", count: RecentStrings.maxTokenLength - 2)
        let tooLong = String(repeating: "d", count: RecentStrings.maxTokenLength - 1)
        for text in [fifteen, sixteen, long, tooLong] { Self.remember(text, in: &recent) }
        #expect(Self.found(fifteen, in: &recent) == nil)  // small: inline in its String
        #expect(Self.found(sixteen, in: &recent) == sixteen)
        #expect(Self.found(long, in: &recent) == long)
        #expect(Self.found(tooLong, in: &recent) == nil)
    }

    @Test("the entry replaced is the one least recently found or remembered")
    func replacement() {
        var recent = RecentStrings()
        let values = ["a", "b", "c", "d"].map { String(repeating: $0, count: 20) }
        let (a, b, c, d) = (values[0], values[1], values[2], values[3])
        Self.remember(a, in: &recent)
        Self.remember(b, in: &recent)
        #expect(Self.found(a, in: &recent) == a)  // a is used: b goes next
        Self.remember(c, in: &recent)
        #expect(Self.found(b, in: &recent) == nil)
        #expect(Self.found(a, in: &recent) == a && Self.found(c, in: &recent) == c)  // c used last
        Self.remember(d, in: &recent)
        #expect(Self.found(a, in: &recent) == nil)
        #expect(Self.found(c, in: &recent) == c && Self.found(d, in: &recent) == d)
    }

    @Test("a remembered token longer than the bytes left is not read past them")
    func shortInput() {
        var recent = RecentStrings()
        let token = Array(#""0123456789abcdefgh""#.utf8)
        token.withUnsafeBufferPointer { recent.remember(token: $0, value: "0123456789abcdefgh") }
        // The same storage without its closing quote: a read one byte past the end would match.
        token.withUnsafeBufferPointer { whole in
            #expect(recent.value(at: 0, in: UnsafeBufferPointer(rebasing: whole.dropLast())) == nil)
            #expect(recent.value(at: 0, in: whole)?.length == token.count)
        }
    }

    private static func remember(_ text: String, in recent: inout RecentStrings) {
        Array("\"\(text)\"".utf8).withUnsafeBufferPointer { recent.remember(token: $0, value: text) }
    }

    private static func found(_ text: String, in recent: inout RecentStrings) -> String? {
        Array("\"\(text)\"".utf8).withUnsafeBufferPointer { recent.value(at: 0, in: $0)?.value }
    }
}

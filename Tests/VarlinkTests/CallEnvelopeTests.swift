import Testing

@testable import Varlink

/// The one-pass decoding of the usual call (`VarlinkCall.decodingUsualForm`) against the
/// general decoding it stands in for: where the fast one answers, both give the same call; it
/// declines everything unusual, so errors always come from the general one.
@Suite("Call envelope")
struct CallEnvelopeTests {
    /// Messages the fast decoding must answer, each as the general one decodes it.
    static let usual = [
        #"{"method":"io.homefeed.GetManifest","parameters":{"profile":"phone","ifNoneMatch":"\"e1\""}}"#,
        #"{"method":"a.B"}"#,
        #" { "parameters" : null , "method" : "a.B" } "#,
        #"{"more":true,"oneway":false,"upgrade":null,"method":"a.B","parameters":{}}"#,
        "{\"method\":\"a.\\u0042\",\n\t\"parameters\":{\"k\":[1,2.5,{\"x\":null}]}}",
        #"{"upgrade":true,"method":"é.B","oneway":true}"#,
    ]

    /// Messages the fast decoding must decline: the general decoding then accepts a few (an
    /// unknown key, an escaped key, a byte-order mark) and refuses the rest.
    static let unusual = [
        #"{"method":"a.B","io.vendor":{"x":1}}"#,  // unknown key: ignored by the general way
        #"{"\u006dethod":"a.B"}"#,  // escaped key
        "\u{FEFF}{\"method\":\"a.B\"}",  // byte-order mark
        #"{"method":"a.B","method":"a.C"}"#,  // duplicate key
        #"{"method":"a.B",}"#,  // trailing comma
        #"{"method":"a.B"} x"#,  // garbage after the object
        #"{"method":"a.B""#,  // unterminated
        #"{"method":""}"#,  // empty method
        #"{"method":1}"#,  // method not a string
        #"{"parameters":{}}"#,  // no method
        #"{}"#,
        #"[]"#,
        #"{"method":"a.B","more":"yes"}"#,  // flag not a Boolean
        #"{"method":"a.B","more":truex}"#,  // bad literal
        #"{"method":"a.B","parameters":[]}"#,  // parameters not an object
        #"{"method":"a.B","parameters":{"a":1,"a":2}}"#,  // duplicate parameter
        "{\"method\":\"a.B\",\"parameters\":{\"s\":\"\u{01}\"}}",  // raw control character
    ]

    private func fast(_ text: String) -> VarlinkCall? {
        Array(text.utf8).withUnsafeBufferPointer { VarlinkCall.decodingUsualForm($0) }
    }

    private func general(_ text: String) -> Result<VarlinkCall, VarlinkProtocolError> {
        do throws(VarlinkProtocolError) {
            return .success(try VarlinkCall(decodingGenerally: Array(text.utf8)))
        } catch {
            return .failure(error)
        }
    }

    @Test("the usual calls decode in one pass, exactly as the general decoding has them", arguments: usual)
    func usualForm(_ text: String) throws {
        let call = try #require(fast(text))
        #expect(general(text) == .success(call))
        #expect(try VarlinkCall(decoding: Array(text.utf8)) == call)
    }

    @Test("anything unusual is left to the general decoding, which accepts or names the problem", arguments: unusual)
    func unusualForm(_ text: String) {
        #expect(fast(text) == nil)
        let decoded: Result<VarlinkCall, VarlinkProtocolError>
        do throws(VarlinkProtocolError) {
            decoded = .success(try VarlinkCall(decoding: Array(text.utf8)))
        } catch {
            decoded = .failure(error)
        }
        #expect(decoded == general(text))
    }

    @Test("the fields of the usual call")
    func fields() throws {
        let call = try #require(fast(Self.usual[3]))
        #expect(call == VarlinkCall(method: "a.B", more: true))
        let manifest = try #require(fast(Self.usual[0]))
        #expect(manifest.parameters == ["profile": "phone", "ifNoneMatch": #""e1""#])
        let escaped = try #require(fast(Self.usual[4]))
        #expect(escaped.method == "a.B")
        #expect(escaped.parameters == ["k": [1, 2.5, ["x": nil]]])
        let upgrade = try #require(fast(Self.usual[5]))
        #expect(upgrade.upgrade && upgrade.oneway && !upgrade.more && upgrade.method == "é.B")
    }

    @Test("parameters nest no deeper than the general decoding allows")
    func depth() throws {
        func message(arrays n: Int) -> String {
            #"{"method":"a.B","parameters":{"x":"# + String(repeating: "[", count: n)
                + String(repeating: "]", count: n) + "}}"
        }
        // Levels: the message 1, parameters 2, the arrays 3 ... n + 2; n + 2 <= maxDepth (256)
        // allows n = 254 and refuses 255.
        let fits = message(arrays: JSONParser.maxDepth - 2)
        let deep = message(arrays: JSONParser.maxDepth - 1)
        let call = try #require(fast(fits))
        #expect(general(fits) == .success(call))
        #expect(fast(deep) == nil)
        guard case .failure(.malformedJSON(let error)) = general(deep) else {
            Issue.record("\(general(deep)) for parameters too deep")
            return
        }
        #expect(error.message.contains("deeper than 256"))
    }
}

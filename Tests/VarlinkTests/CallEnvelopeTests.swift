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
        #"{"method":"a.B","parameters":{ "a" : {"b":[]} , "c" : "d\té\"x\u00e9 \\" }}"#,
        #"{"method":"a.B","parameters":{ }}"#,
        // Nine parameters: the ninth moves them from the list to a dictionary.
        #"{"method":"a.B","parameters":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}}"#,
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
        #"{"method":"a.B","parameters":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":0}}"#,  // past 8
        #"{"method":"a.B","parameters":{"é":1,"e\u0301":2}}"#,  // the same name, canonically equivalent
        "{\"method\":\"a.B\",\"parameters\":{\"s\":\"\u{01}\"}}",  // raw control character
        "{\"method\":\"a.B\",\"parameters\":{\"s\":\"\\n\u{01}\"}}",  // control character after an escape
        #"{"method":"a.B","parameters":{"a":1,}}"#,  // trailing comma in parameters
        #"{"method":"a.B","parameters":{"a" 1}}"#,  // no colon
        #"{"method":"a.B","parameters":{a:1}}"#,  // unquoted key
        #"{"method":"a.B","parameters":nul}"#,  // bad literal
        #"{"method":"a.B","parameters":{"a":1"#,  // unterminated parameters
    ]

    private func fast(_ text: String) -> VarlinkCall? {
        Array(text.utf8).withUnsafeBufferPointer { VarlinkCall.decodingUsualForm($0) }
    }

    /// Routes for `a.B` and `io.homefeed.GetManifest` that declare the parameter names the
    /// messages above use (and `K`), so the server's decoding matches those names by their
    /// bytes.
    static let declaringRoutes: MethodRoutes = {
        let method = VarlinkMethod { _ throws(VarlinkError) in .reply(VarlinkReply()) }
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "k", "s", "K", "profile", "ifNoneMatch"]
        return MethodRoutes(
            ["a.B": method, "io.homefeed.GetManifest": method],
            parameters: ["a.B": names, "io.homefeed.GetManifest": names]
        )
    }()

    /// The server's decoding with ``declaringRoutes``, when it takes the one-pass way.
    private func routed(_ text: String) -> VarlinkCall? {
        var spare: [VarlinkCall.Member] = []
        var recent = RecentStrings()
        return Array(text.utf8).withUnsafeBufferPointer { bytes in
            VarlinkCall.decodingUsualForm(bytes, routes: Self.declaringRoutes, reusing: &spare, recent: &recent)?.call
        }
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
        // Names matched against declared ones by their bytes: the same call.
        #expect(routed(text) == call)
    }

    @Test("anything unusual is left to the general decoding, which accepts or names the problem", arguments: unusual)
    func unusualForm(_ text: String) {
        #expect(fast(text) == nil)
        #expect(routed(text) == nil)
        let decoded: Result<VarlinkCall, VarlinkProtocolError>
        do throws(VarlinkProtocolError) {
            decoded = .success(try VarlinkCall(decoding: Array(text.utf8)))
        } catch {
            decoded = .failure(error)
        }
        #expect(decoded == general(text))
    }

    @Test("an unpaired surrogate escape fails a call: only the JSON Feed reader reads one as U+FFFD")
    func unpairedSurrogate() {
        let text = #"{"method":"a.B","parameters":{"s":"\ud83d x"}}"#
        #expect(fast(text) == nil)
        guard case .failure(let error) = general(text) else {
            Issue.record("decoded an unpaired surrogate")
            return
        }
        #expect("\(error)".contains("unpaired surrogate"), "\(error)")
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

    @Test("a string with escapes decodes its plain runs and escapes in order")
    func escapedString() throws {
        let call = try #require(fast(Self.usual[6]))
        // "d\té\"x\u00e9 \\": d, tab, é, quote, x, é (escaped), space, backslash.
        #expect(call.parameters["c"] == .string("d\té\"xé \\"))
        #expect(call.parameters["a"] == ["b": []])
        #expect(try #require(fast(Self.usual[7])).parameters.isEmpty)
    }

    @Test("the server's decoding routes a registered method by its bytes, and only an exact one")
    func routing() throws {
        let method = VarlinkMethod { _ throws(VarlinkError) in .reply(VarlinkReply()) }
        let routes = MethodRoutes(["io.x.Get": method, "io.x.GetAll": method, "io.x.\"Q": method])
        func decode(_ text: String) throws -> (call: VarlinkCall, routed: Bool) {
            var spare: [VarlinkCall.Member] = []
            var recent = RecentStrings()
            let decoded = try Array(text.utf8).withUnsafeBufferPointer { bytes in
                try VarlinkCall.decoding(bytes, routes: routes, reusing: &spare, recent: &recent)
            }
            return (decoded.call, decoded.route != nil)
        }
        let get = try decode(#"{"method":"io.x.Get"}"#)
        #expect(get.routed && get.call.method == "io.x.Get")
        #expect(try decode(#"{"method":"io.x.GetAll","parameters":{"a":1}}"#).routed)
        // Same length as a route, other bytes; a prefix; a longer name: decoded, not routed.
        for other in ["io.x.Gex", "io.x.Ge", "io.x.GetAllX"] {
            let decoded = try decode(#"{"method":""# + other + #""}"#)
            #expect(!decoded.routed && decoded.call.method == other)
        }
        // An escape in the name: decoded the general string way, so not routed here (the
        // service still finds it by name); a route with a quote is never matched by bytes.
        let escaped = try decode(#"{"method":"io.x.G\u0065t"}"#)
        #expect(!escaped.routed && escaped.call.method == "io.x.Get")
        let quoted = try decode(#"{"method":"io.x.\"Q"}"#)
        #expect(!quoted.routed && quoted.call.method == #"io.x."Q"#)
        // Malformed messages throw as ever.
        #expect(throws: VarlinkProtocolError.self) { try decode(#"{"method":"io.x.Get""#) }
    }

    /// A declared name repeated under another spelling: escaped, or canonically equivalent
    /// (U+212A KELVIN SIGN is `K`), in either order.
    static let respelledDuplicates = [
        #"{"method":"a.B","parameters":{"a":1,"\u0061":2}}"#,
        #"{"method":"a.B","parameters":{"\u0061":1,"a":2}}"#,
        #"{"method":"a.B","parameters":{"K":1,"\u212a":2}}"#,
        "{\"method\":\"a.B\",\"parameters\":{\"\u{212A}\":1,\"K\":2}}",
        #"{"method":"a.B","parameters":{"profile":"p","b":2,"profile":"q"}}"#,
    ]

    @Test(
        "a declared name matched by its bytes is still a duplicate of any other spelling of it",
        arguments: respelledDuplicates
    )
    func declaredDuplicates(_ text: String) {
        #expect(routed(text) == nil)
        guard case .failure(.malformedJSON(let error)) = general(text) else {
            Issue.record("\(general(text)) for \(text)")
            return
        }
        #expect(error.message.contains("duplicate"))
    }

    @Test("a declared name is the route's own string; others are decoded as before")
    func declaredNames() throws {
        let text = #"{"method":"a.B","parameters":{"K":1,"ifNoneMatch":"x","other":true,"a":[]}}"#
        let call = try #require(routed(text))
        #expect(call == (try general(text).get()))
        var names: [String] = []
        call.forEachParameter { name, _ in names.append(name) }
        #expect(names == ["K", "ifNoneMatch", "other", "a"])
        // The parameters before `method`: no route yet, the names decoded as strings.
        let reordered = #"{"parameters":{"a":1},"method":"a.B"}"#
        #expect(routed(reordered) == (try general(reordered).get()))
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

    @Test("a decoded call's parameters read the same from its list, from a dictionary and as a dictionary")
    func parameterAccess() throws {
        let decoded = try #require(fast(Self.usual[0]))
        let built = VarlinkCall(method: decoded.method, parameters: decoded.parameters)
        for call in [decoded, built] {
            #expect(call.parameter("profile") == "phone")
            #expect(call.parameter("ifNoneMatch") == #""e1""#)
            #expect(call.parameter("other") == nil)
            var seen: [String: JSONValue] = [:]
            call.forEachParameter { name, value in seen[name] = value }
            #expect(seen == ["profile": "phone", "ifNoneMatch": #""e1""#])
        }
        #expect(decoded == built)
        // Nine parameters (usual[8]): the same through the dictionary they are kept in.
        let nine = try #require(fast(Self.usual[8]))
        #expect(nine.parameters.count == 9 && nine.parameter("i") == 9 && nine.parameter("a") == 1)
    }

    @Test("the storage of a call's parameters is emptied for the next decoding, which fills it anew")
    func recycledParameters() throws {
        var first = try #require(fast(Self.usual[0]))
        var spare = first.recycleParameters()
        #expect(spare.isEmpty && spare.capacity >= 2)
        #expect(first.parameters.isEmpty)
        let text = #"{"method":"a.B","parameters":{"x":[true]}}"#
        var recent = RecentStrings()
        let second = try Array(text.utf8).withUnsafeBufferPointer { bytes in
            try VarlinkCall.decoding(bytes, routes: MethodRoutes([:]), reusing: &spare, recent: &recent).call
        }
        #expect(spare.isEmpty)
        #expect(second.parameters == ["x": [true]])
        // A call built with a dictionary has no list to give back.
        var built = VarlinkCall(method: "a.B", parameters: ["x": 1])
        #expect(built.recycleParameters().capacity == 0 && built.parameters == ["x": 1])
    }

    /// Strings with escapes whose end must be found past escaped quotes and backslashes, and
    /// the text each decodes to.
    static let escapedStrings: [(json: String, text: String)] = [
        (#""a\\""#, #"a\"#),  // an escaped backslash right before the closing quote
        (#""\\\"""#, #"\""#),  // an escaped backslash, then an escaped quote
        (#""x\"\\\"y""#, #"x"\"y"#),
        (#""é\n""#, "é\n"),  // non-ASCII before the escape
        (#""\u00e9""#, "é"),  // non-ASCII only from an escape
        (#""\n""#, "\n"),
        (#""\ud83d\ude00!""#, "😀!"),
        // 400 × 5 raw bytes, longer than a small stack buffer: decoded to 400 × 3 characters.
        (#"""# + String(repeating: #"ab\""#, count: 400) + #"""#, String(repeating: #"ab""#, count: 400)),
    ]

    @Test("escaped strings decode up to their real closing quote", arguments: escapedStrings.indices)
    func escapedStringEnds(_ index: Int) throws {
        let (json, text) = Self.escapedStrings[index]
        let call = try #require(fast(#"{"method":"a.B","parameters":{"s":"# + json + #","t":1}}"#))
        #expect(call.parameter("s") == .string(text))
        #expect(call.parameter("t") == 1)
    }
}

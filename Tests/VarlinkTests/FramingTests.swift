import Testing
import Varlink

@Suite("Framing")
struct FramingTests {
    static let messages: [[UInt8]] = [
        Array(#"{"method":"org.varlink.service.GetInfo"}"#.utf8),
        Array(#"{"method":"org.example.test.Echo","parameters":{"text":"héllo \u0000 wörld"}}"#.utf8),
        Array("{}".utf8),
        Array(#"{"parameters":{"list":[1,2.5,true,null,"x"]},"continues":true}"#.utf8),
    ]

    static var stream: [UInt8] { messages.flatMap { $0 + [0] } }

    private func split(_ chunks: [ArraySlice<UInt8>], max: Int = 1024) throws -> [[UInt8]] {
        var splitter = VarlinkFrameSplitter(maxMessageSize: max)
        var out: [[UInt8]] = []
        for chunk in chunks {
            splitter.append(chunk)
            while let message = try splitter.next() { out.append(message) }
        }
        #expect(splitter.bufferedByteCount == 0)
        return out
    }

    @Test("every message split at every byte boundary")
    func everyBoundary() throws {
        let stream = Self.stream
        for cut in 0...stream.count {
            let messages = try split([stream[..<cut], stream[cut...]])
            #expect(messages == Self.messages, "cut at \(cut)")
        }
        for first in 0...stream.count {
            for second in first...stream.count where second - first < 24 {
                let messages = try split([stream[..<first], stream[first..<second], stream[second...]])
                #expect(messages == Self.messages, "cuts at \(first), \(second)")
            }
        }
    }

    @Test("one byte at a time")
    func byteByByte() throws {
        let stream = Self.stream
        let messages = try split(stream.indices.map { stream[$0...$0] })
        #expect(messages == Self.messages)
    }

    @Test("messages of many sizes, arriving in uneven pieces and taken now and then, come out whole")
    func unevenPieces() throws {
        // A fixed generator: the same sizes and pieces every run. Messages from empty to 70 kB,
        // several buffered at once, so the buffer both moves its unread bytes to the front and
        // grows with a partial message in it.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let messages: [[UInt8]] = (0..<300).map { index in
            let size = index % 10 == 0 ? next(70_000) : next(300)
            return (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) | 1 }
        }
        let stream: [UInt8] = messages.flatMap { $0 + [0] }
        var splitter = VarlinkFrameSplitter(maxMessageSize: 70_000)
        var out: [[UInt8]] = []
        var at = 0
        while at < stream.count {
            let piece = min(stream.count - at, 1 + next(next(4) == 0 ? 65_536 : 512))
            splitter.append(stream[at..<at + piece])
            at += piece
            if next(3) == 0 {
                while let message = try splitter.next() { out.append(message) }
            }
        }
        while let message = try splitter.next() { out.append(message) }
        #expect(out == messages)
        #expect(splitter.bufferedByteCount == 0)

        // The unread part of a message moves into the larger buffer a long piece needs.
        var growing = VarlinkFrameSplitter(maxMessageSize: 70_000)
        growing.append(Array("ab\0cd".utf8))
        #expect(try growing.next() == Array("ab".utf8))
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 5000)
        growing.append(long + [0])
        #expect(try growing.next() == Array("cd".utf8) + long)
    }

    @Test("a message longer than the limit is an error before its NUL arrives")
    func oversize() throws {
        var splitter = VarlinkFrameSplitter(maxMessageSize: 16)
        splitter.append(Array(repeating: UInt8(ascii: "x"), count: 16))
        #expect(try splitter.next() == nil)
        splitter.append([UInt8(ascii: "x")])
        #expect(throws: VarlinkProtocolError.messageTooLarge(limit: 16)) { try splitter.next() }

        var complete = VarlinkFrameSplitter(maxMessageSize: 4)
        complete.append(Array("12345\0".utf8))
        #expect(throws: VarlinkProtocolError.messageTooLarge(limit: 4)) { try complete.next() }

        var exact = VarlinkFrameSplitter(maxMessageSize: 4)
        exact.append(Array("1234\0".utf8))
        #expect(try exact.next() == Array("1234".utf8))
    }

    @Test("calls decode tolerant of absent parameters, strict about method and flags")
    func callDecoding() throws {
        for text in [
            #"{"method":"a.B"}"#, #"{"method":"a.B","parameters":null}"#, #"{"method":"a.B","parameters":{}}"#,
        ] {
            let call = try VarlinkCall(decoding: Array(text.utf8))
            #expect(call == VarlinkCall(method: "a.B"))
        }
        let full = try VarlinkCall(
            decoding: Array(#"{"method":"x.y.Z","parameters":{"a":1},"more":true,"oneway":false,"io.vendor":{}}"#.utf8)
        )
        #expect(full.interface == "x.y")
        #expect(full.memberName == "Z")
        // No dot: no interface. Multi-byte characters: the split is at the last dot's byte.
        let bare = VarlinkCall(method: "GetInfo")
        #expect(bare.interface == "" && bare.memberName == "GetInfo")
        let wide = VarlinkCall(method: "한.국.어")
        #expect(wide.interface == "한.국" && wide.memberName == "어")
        #expect(full.more && !full.oneway)
        #expect(full.parameters == ["a": 1])
        #expect(throws: VarlinkProtocolError.missingMethod) {
            try VarlinkCall(decoding: Array(#"{"parameters":{}}"#.utf8))
        }
        #expect(throws: VarlinkProtocolError.missingMethod) { try VarlinkCall(decoding: Array(#"{"method":1}"#.utf8)) }
        #expect(throws: VarlinkProtocolError.notAnObject) { try VarlinkCall(decoding: Array("[]".utf8)) }
        #expect(throws: VarlinkProtocolError.invalidField("more")) {
            try VarlinkCall(decoding: Array(#"{"method":"a.B","more":"yes"}"#.utf8))
        }
        #expect(throws: VarlinkProtocolError.moreAndOneway) {
            try VarlinkCall(decoding: Array(#"{"method":"a.B","oneway":true,"more":true}"#.utf8))
        }
        #expect(throws: VarlinkProtocolError.self) { try VarlinkCall(decoding: Array("{nope}".utf8)) }
        // Round trip.
        let call = VarlinkCall(method: "a.B", parameters: ["z": 1, "a": "x"], oneway: true)
        #expect(
            String(decoding: call.encoded, as: UTF8.self)
                == #"{"method":"a.B","oneway":true,"parameters":{"a":"x","z":1}}"#
        )
        #expect(try VarlinkCall(decoding: call.encoded) == call)
    }

    @Test("replies encode deterministically, with pre-encoded parameters spliced in")
    func replyEncoding() throws {
        let reply = VarlinkReply(parameters: ["b": [1, 2], "a": ["y": 1.5, "x": nil], "é": "\n"], continues: true)
        let text = String(decoding: reply.framed().framedBytes, as: UTF8.self)
        #expect(
            text == "{\"continues\":true,\"parameters\":{\"a\":{\"x\":null,\"y\":1.5},\"b\":[1,2],\"é\":\"\\n\"}}\0"
        )
        let error = VarlinkReply(error: .invalidParameter("bogus")).framed()
        #expect(
            String(decoding: error.framedBytes, as: UTF8.self)
                == "{\"error\":\"org.varlink.service.InvalidParameter\",\"parameters\":{\"parameter\":\"bogus\"}}\0"
        )
        #expect(!error.continues)
        let raw = VarlinkReply(encodedParameters: Array(#"{"manifest":{"v":1}}"#.utf8)).framed()
        #expect(String(decoding: raw.framedBytes, as: UTF8.self) == "{\"parameters\":{\"manifest\":{\"v\":1}}}\0")
        let decoded = try VarlinkReply(decoding: raw.framedBytes.dropLast())
        #expect(decoded.parameters.object == ["manifest": ["v": 1]])
        #expect(!decoded.continues && decoded.error == nil)
    }

    @Test("JSON numbers keep integers exact")
    func numbers() throws {
        #expect(try JSONValue(parsing: "9007199254740993") == .int(9_007_199_254_740_993))
        #expect(try JSONValue(parsing: "-12") == .int(-12))
        #expect(try JSONValue(parsing: "1.5e3") == .double(1500))
        #expect(try JSONValue(parsing: "123456789012345678901234") == .double(1.2345678901234568e23))
        #expect(JSONValue.double(2).encodedString == "2")
        #expect(JSONValue.double(0.1).encodedString == "0.1")
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: #"{"a":1,"a":2}"#) }
    }
}

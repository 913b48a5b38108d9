import Testing
import Varlink

/// The service alone, no sockets: routing, standard errors, org.varlink.service.
@Suite("Service")
struct ServiceTests {
    let service = makeTestService(hub: Hub())
    let peer = VarlinkPeer(pid: 1, uid: 1000, gid: 1000, groups: [27, 100])

    private func replies(_ call: VarlinkCall) async -> [VarlinkReply] {
        var out: [VarlinkReply] = []
        for await reply in service.replies(to: call, peer: peer) { out.append(reply) }
        return out
    }

    private func error(_ call: VarlinkCall) async -> VarlinkError? {
        await replies(call).last?.varlinkError
    }

    @Test("GetInfo lists org.varlink.service and the registered interfaces")
    func getInfo() async throws {
        let all = await replies(VarlinkCall(method: "org.varlink.service.GetInfo"))
        let reply = try #require(all.first)
        #expect(all.count == 1)
        #expect(
            reply.parameters.object == [
                "vendor": "homefeed", "product": "varlink-tests", "version": "1.0",
                "url": "https://example.org/homefeed", "interfaces": ["org.varlink.service", "org.example.test"],
            ]
        )
    }

    @Test("GetInterfaceDescription returns the IDL verbatim")
    func getInterfaceDescription() async throws {
        let call = VarlinkCall(
            method: "org.varlink.service.GetInterfaceDescription",
            parameters: ["interface": "org.example.test"]
        )
        #expect(await replies(call).first?.parameters.object?["description"] == .string(testIDL))
        let own = VarlinkCall(
            method: "org.varlink.service.GetInterfaceDescription",
            parameters: ["interface": "org.varlink.service"]
        )
        let description = await replies(own).first?.parameters.object?["description"]?.stringValue
        #expect(description?.contains("interface org.varlink.service") == true)
        let missing = VarlinkCall(
            method: "org.varlink.service.GetInterfaceDescription",
            parameters: ["interface": "org.example.nope"]
        )
        #expect(await error(missing) == .interfaceNotFound("org.example.nope"))
        let wrong = VarlinkCall(method: "org.varlink.service.GetInterfaceDescription", parameters: ["interface": 1])
        #expect(await error(wrong) == .invalidParameter("interface"))
    }

    @Test("standard errors")
    func standardErrors() async {
        #expect(await error(VarlinkCall(method: "org.example.nope.Echo")) == .interfaceNotFound("org.example.nope"))
        #expect(await error(VarlinkCall(method: "org.example.test.Nope")) == .methodNotFound("org.example.test.Nope"))
        #expect(
            await error(VarlinkCall(method: "org.example.test.Unimplemented"))
                == .methodNotImplemented("org.example.test.Unimplemented")
        )
        #expect(
            await error(VarlinkCall(method: "org.example.test.Echo", parameters: ["text": "a", "bogus": 2]))
                == .invalidParameter("bogus")
        )
        #expect(await error(VarlinkCall(method: "org.example.test.Subscribe")) == .expectedMore)
        #expect(
            await error(VarlinkCall(method: "org.varlink.service.GetInfo", parameters: ["x": 1]))
                == .invalidParameter("x")
        )
        #expect(
            await error(VarlinkCall(method: "org.example.test.Echo", parameters: ["text": "fail"]))
                == VarlinkError("org.example.test.Failed", parameters: ["reason": "asked to"])
        )
    }

    @Test("a more call streams replies; without more only the final one counts")
    func more() async {
        let streamed = await replies(VarlinkCall(method: "org.example.test.Count", parameters: ["n": 3], more: true))
        #expect(streamed.map(\.continues) == [true, true, false])
        #expect(streamed.map { $0.parameters.object?["i"] } == [1, 2, 3])
        let plain = await replies(VarlinkCall(method: "org.example.test.Count", parameters: ["n": 3]))
        #expect(plain.count == 1)
        #expect(plain.first?.continues == false)
    }

    @Test("the peer reaches the handler")
    func peerReachesHandler() async {
        let reply = await replies(VarlinkCall(method: "org.example.test.Whoami")).first
        #expect(reply?.parameters.object == ["pid": 1, "uid": 1000, "gid": 1000, "groups": [27, 100]])
    }

    @Test("handle tries the immediate handler first, then the async one")
    func immediateThenAsync() async throws {
        let now = await replies(VarlinkCall(method: "org.example.test.Cached", parameters: ["text": "now"]))
        #expect(now.count == 1)
        #expect(now.first?.parameters.object?["answered"] == "immediate")
        let later = await replies(VarlinkCall(method: "org.example.test.Cached", parameters: ["text": "later"]))
        #expect(later.count == 1)
        #expect(later.first?.parameters.object?["answered"] == "async")
        let missing = await error(VarlinkCall(method: "org.example.test.Cached"))
        #expect(missing == .invalidParameter("text"))
    }

    @Test("IDL declarations are read from the description")
    func declarations() {
        let interface = VarlinkInterface(name: "org.example.test", description: testIDL, methods: [:])
        #expect(interface.name == "org.example.test")
    }
}

import Foundation
import Synchronization
import Testing

@testable import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// Connection and streaming-call limits: the counting alone, then over real sockets.
@Suite("Admission")
struct AdmissionTests {
    static func limits(
        connections: Int = 100,
        perUID: Int = 100,
        reserved: Int = 0,
        streaming: Int = 100,
        streamingPerUID: Int = 100
    ) -> VarlinkServerConfiguration {
        var configuration = VarlinkServerConfiguration()
        configuration.maxConnections = connections
        configuration.maxConnectionsPerUID = perUID
        configuration.reservedConnections = reserved
        configuration.maxStreamingCalls = streaming
        configuration.maxStreamingCallsPerUID = streamingPerUID
        return configuration
    }

    @Test("the last reserved slots go to privileged peers only; the total caps everyone")
    func reservedSlots() {
        // 4 slots, 1 reserved: unprivileged peers get 4 − 1 = 3.
        var admission = ConnectionAdmission(configuration: Self.limits(connections: 4, reserved: 1))
        for uid: UInt32 in [1000, 1001, 1002] {
            #expect(admission.admitConnection(uid: uid) { false } == nil)
        }
        #expect(admission.admitConnection(uid: 1003) { false } == .reservedConnections(limit: 4, reserved: 1))
        #expect(admission.admitConnection(uid: 0) { true } == nil)
        #expect(admission.admitConnection(uid: 0) { true } == .connections(limit: 4))
        #expect(admission.connections == 4)
        admission.releaseConnection(uid: 1001)
        #expect(admission.admitConnection(uid: 1003) { false } == .reservedConnections(limit: 4, reserved: 1))
        admission.releaseConnection(uid: 0)
        #expect(admission.admitConnection(uid: 1003) { false } == nil)
    }

    @Test("the privilege predicate is asked only once the unreserved slots are full")
    func lazyPredicate() {
        var admission = ConnectionAdmission(configuration: Self.limits(connections: 3, reserved: 1))
        var asked = 0
        _ = admission.admitConnection(uid: 5) {
            asked += 1
            return false
        }
        _ = admission.admitConnection(uid: 5) {
            asked += 1
            return false
        }
        #expect(asked == 0)
        // 2 open = 3 − 1: now it matters.
        _ = admission.admitConnection(uid: 5) {
            asked += 1
            return false
        }
        #expect(asked == 1)
    }

    @Test("each uid has its own connection and streaming-call counts")
    func perUID() {
        var admission = ConnectionAdmission(configuration: Self.limits(perUID: 2, streamingPerUID: 1))
        #expect(admission.admitConnection(uid: 7) { false } == nil)
        #expect(admission.admitConnection(uid: 7) { false } == nil)
        #expect(admission.admitConnection(uid: 7) { false } == .connectionsPerUID(uid: 7, limit: 2))
        #expect(admission.admitConnection(uid: 8) { false } == nil)
        #expect(admission.admitStreamingCall(uid: 7) == nil)
        #expect(admission.admitStreamingCall(uid: 7) == .streamingCallsPerUID(uid: 7, limit: 1))
        #expect(admission.admitStreamingCall(uid: 8) == nil)
        admission.releaseStreamingCall(uid: 7)
        admission.releaseConnection(uid: 7)
        #expect(admission.streamingCalls(of: 7) == 0)
        #expect(admission.connections(of: 7) == 1)
        #expect(admission.admitStreamingCall(uid: 7) == nil)
        #expect(admission.admitConnection(uid: 7) { false } == nil)
    }

    @Test("streaming calls have a total of their own, below the connections'")
    func streamingTotal() {
        var admission = ConnectionAdmission(configuration: Self.limits(streaming: 2))
        #expect(admission.admitStreamingCall(uid: 1) == nil)
        #expect(admission.admitStreamingCall(uid: 2) == nil)
        #expect(admission.admitStreamingCall(uid: 3) == .streamingCalls(limit: 2))
        #expect(admission.streamingCalls == 2)
        admission.releaseStreamingCall(uid: 1)
        #expect(admission.admitStreamingCall(uid: 3) == nil)
    }

    static let subscribe = Array(#"{"method":"org.example.test.Subscribe","more":true}"#.utf8) + [0]

    @Test("a streaming call beyond the limit gets the configured error, then its connection closes; calls go on")
    func streamingRefusedWithError() async throws {
        var configuration = Self.limits(streaming: 1)
        configuration.streamingLimitError = VarlinkError("org.example.test.Failed", parameters: ["reason": "busy"])
        try await withServer(configuration: configuration) { server, address, _ in
            var first: RawSocket? = try RawSocket(address)
            first?.write(Self.subscribe)
            #expect(await first?.readReply()?.continues == true)
            let second = try RawSocket(address)
            second.write(Self.subscribe)
            #expect(await second.readReply()?.error == "org.example.test.Failed")
            #expect(await second.readUntilClosed())
            let client = try await VarlinkClient.connect(to: address)
            #expect(try await client.call("org.example.test.Echo", parameters: ["text": "hi"]) == ["text": "hi"])
            #expect(server.statistics.refusedStreamingCalls == 1)
            #expect(server.statistics.openStreamingCalls == 1)

            // The slot comes back when the subscriber leaves.
            first = nil  // closes it
            var subscribed = false
            for _ in 0..<500 where !subscribed {
                let next = try RawSocket(address)
                next.write(Self.subscribe)
                subscribed = await next.readReply()?.continues == true
                if !subscribed { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(subscribed)
        }
    }

    @Test("a subscriber that closes with a message's worth of input unread frees its slot at once")
    func closedWhileNotRead() async throws {
        // Review finding: with more than a message buffered behind the active call, reading
        // stopped and the fd was watched for nothing, so the close went unseen until a push.
        var configuration = Self.limits(streaming: 4)
        configuration.maxMessageSize = 1024
        try await withServer(configuration: configuration) { server, address, _ in
            let subscriber = try RawSocket(address)
            subscriber.write(Self.subscribe)
            #expect(await subscriber.readReply()?.continues == true)
            // More than a message, no NUL: reading stops behind the active call.
            subscriber.write(Array(repeating: UInt8(ascii: " "), count: 4096))
            #expect(server.statistics.openStreamingCalls == 1)
            Glibc.shutdown(subscriber.fd, Int32(SHUT_RDWR))
            var open = 1
            for _ in 0..<500 where open > 0 {
                try await Task.sleep(for: .milliseconds(10))
                open = server.statistics.openStreamingCalls
            }
            #expect(open == 0)
        }
    }

    @Test("without a configured error a refused streaming call is closed without a reply")
    func streamingRefusedWithClose() async throws {
        try await withServer(configuration: Self.limits(streamingPerUID: 1)) { _, address, _ in
            let first = try RawSocket(address)
            first.write(Self.subscribe)
            #expect(await first.readReply()?.continues == true)
            let second = try RawSocket(address)
            second.write(Self.subscribe)
            #expect(await second.readMessage() == nil)
            #expect(await second.readUntilClosed())  // EOF, not a timeout
        }
    }

    @Test("once the unreserved slots are taken, only peers the predicate accepts get in")
    func reservedOverSockets() async throws {
        let privileged = Mutex(false)
        let predicate: VarlinkPeerPredicate = { _ in privileged.withLock { $0 } }
        try await withServer(configuration: Self.limits(connections: 2, reserved: 1), privilegedPeers: predicate) {
            server,
            address,
            _ in
            let first = try await VarlinkClient.connect(to: address)
            _ = try await first.call("org.varlink.service.GetInfo")
            // 1 open = 2 − 1 reserved: an unprivileged client is closed at once.
            let refused = try RawSocket(address)
            #expect(await refused.readUntilClosed())
            #expect(server.statistics.rejectedConnections == 1)
            privileged.withLock { $0 = true }
            let admitted = try await VarlinkClient.connect(to: address)
            #expect(try await admitted.call("org.example.test.Echo", parameters: ["text": "in"]) == ["text": "in"])
        }
    }

    @Test("connections beyond the per-uid limit are closed at once")
    func perUIDOverSockets() async throws {
        try await withServer(configuration: Self.limits(perUID: 2)) { server, address, _ in
            let clients = try await [VarlinkClient.connect(to: address), VarlinkClient.connect(to: address)]
            for client in clients { _ = try await client.call("org.varlink.service.GetInfo") }
            let third = try RawSocket(address)
            #expect(await third.readUntilClosed())
            #expect(server.statistics.rejectedConnections == 1)
            #expect(server.statistics.openConnections == 2)
        }
    }

    @Test(
        "SO_PEERGROUPS: a client run as another user with chosen groups is seen with exactly those",
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        )
    )
    func peerGroups() async throws {
        try await withServer { _, address, _ in
            guard case .path(let path) = address else {
                Issue.record("expected a path address, got \(address)")
                return
            }
            chmod(URL(fileURLWithPath: path).deletingLastPathComponent().path, 0o711)
            chmod(path, 0o666)
            let script = """
                import socket, sys
                s = socket.socket(socket.AF_UNIX)
                s.settimeout(10)
                s.connect(sys.argv[1])
                s.sendall(b'{"method":"org.example.test.Whoami"}\\0')
                data = b""
                while b"\\0" not in data:
                    data += s.recv(4096)
                print(data.split(b"\\0")[0].decode())
                """
            let outcome = try await run(
                "/usr/bin/setpriv",
                [
                    "--reuid", "65534", "--regid", "4242", "--groups", "4343,4444", "/usr/bin/python3", "-c", script,
                    path,
                ]
            )
            #expect(outcome.status == 0, "\(outcome.error)")
            let reply = try VarlinkReply(decoding: Array(outcome.output.trimmingCharacters(in: .newlines).utf8))
            let me = try #require(reply.parameters.object)
            #expect(me["uid"] == 65534)
            #expect(me["gid"] == 4242)
            #expect(me["groups"] == [4343, 4444])
        }
    }
}

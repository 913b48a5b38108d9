import Foundation
import TestSupport
import Testing
import Varlink

/// The real `homefeedd` against crowds of clients: subscriptions are limited apart from calls,
/// per uid, and slots stay reserved for peers with the mutating right. A refused client sees an
/// error or a clean close, never a hang (every read here gives up after 10 s and counts as one).
@Suite(.timeLimit(.minutes(3)))
struct ConnectionLimitTests {
    /// What a client saw first after sending its call.
    enum FirstReply: Hashable {
        case reply(continues: Bool)
        case error(String)
        case closed
        case hung
    }

    /// A blocking client socket with 10 s send and receive timeouts. `@unchecked Sendable`:
    /// used by one thread at a time.
    final class Client: @unchecked Sendable {
        let fd: Int32

        init?(_ path: String) {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard connected == 0 else {
                close(fd)
                return nil
            }
        }

        deinit { close(fd) }

        func send(_ message: String) {
            let bytes = Array(message.utf8) + [0]
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        func first() -> FirstReply {
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while !buffer.contains(0) {
                let count = recv(fd, &chunk, chunk.count, 0)
                if count == 0 { return .closed }
                if count < 0 { return errno == ECONNRESET ? .closed : .hung }
                buffer += chunk[..<count]
            }
            guard let end = buffer.firstIndex(of: 0), let reply = try? VarlinkReply(decoding: buffer[..<end]) else {
                return .hung
            }
            if let error = reply.error { return .error(error) }
            return .reply(continues: reply.continues)
        }
    }

    static let subscribe = #"{"method":"io.homefeed.GetManifest","parameters":{"profile":"phone"},"more":true}"#

    @Test(
        "500 subscribers from one uid: 32 subscribe, the rest get TooManySubscriptions or a clean close, calls still work"
    )
    func crowdOfSubscribers() async throws {
        let root = try ScratchRoot()
        let daemon = FaultDaemon(root: root)
        try await daemon.start()
        let socket = daemon.socket
        var (held, seen) = await offPool { () -> ([Client], [FirstReply: Int]) in
            var held: [Client] = []
            var seen: [FirstReply: Int] = [:]
            for _ in 0..<500 {
                guard let client = Client(socket) else {
                    seen[.closed, default: 0] += 1
                    continue
                }
                client.send(Self.subscribe)
                let first = client.first()
                seen[first, default: 0] += 1
                if first == .reply(continues: true) { held.append(client) }
            }
            return (held, seen)
        }
        // The default max-subscriptions-per-uid.
        #expect(held.count == 32)
        #expect(seen[.hung] == nil)
        #expect((seen[.error("io.homefeed.TooManySubscriptions")] ?? 0) + (seen[.closed] ?? 0) == 500 - 32, "\(seen)")
        #expect((seen[.error("io.homefeed.TooManySubscriptions")] ?? 0) > 0)

        // The subscribers stay; every kind of call still gets through for the same uid.
        for command in [["status"], ["refresh"], ["history", "add", "붐빔"], ["reload"], ["store", "check"]] {
            let outcome = try await offPool {
                try CommandRunner(executable: "homefeedctl").run(command + ["--socket", socket])
            }
            #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
        }
        #expect(try await daemon.call("io.homefeed.GetStatus")["subscribers"]?.intValue == 32)
        held.removeAll()
        seen.removeAll()
        #expect(await daemon.stop() == 0)
    }

    /// Runs as another user: subscribes 500 times, then opens plain-call connections (kept open)
    /// until one is closed on it; prints what it got as JSON, then on each "probe" line tries
    /// one more call and prints how it ended; exits when stdin closes.
    static let crowdScript = """
        import json, socket, sys, time
        path = sys.argv[1]
        def attempt(call):
            try:
                s = socket.socket(socket.AF_UNIX)
                s.settimeout(10)
                s.connect(path)
                s.sendall(json.dumps(call).encode() + b"\\0")
                data = b""
                while b"\\0" not in data:
                    chunk = s.recv(65536)
                    if not chunk:
                        return s, "closed"
                    data += chunk
            except (BrokenPipeError, ConnectionResetError):
                return None, "closed"
            except socket.timeout:
                return None, "hung"
            reply = json.loads(data.split(b"\\0")[0])
            return s, reply.get("error") or ("subscribed" if reply.get("continues") else "reply")
        held, seen = [], {}
        for _ in range(500):
            s, how = attempt({"method": "io.homefeed.GetManifest", "more": True})
            seen[how] = seen.get(how, 0) + 1
            if how == "subscribed":
                held.append(s)
        calls, tries = 0, 0
        while tries < 40:
            s, how = attempt({"method": "io.homefeed.GetStatus"})
            if how == "reply":
                held.append(s)
                calls += 1
            else:
                tries += 1  # a refused subscription's slot may not be free yet
                time.sleep(0.05)
        print(json.dumps({"seen": seen, "calls": calls}), flush=True)
        for line in sys.stdin:
            print(attempt({"method": "io.homefeed.GetStatus"})[1], flush=True)
        """

    @Test(
        "a crowd without the mutating right fills only the unreserved slots; root still gets Refresh, RecordHistory and Reload through",
        .enabled(if: Host.canSwitchUser && Host.has(Host.python))
    )
    func reservedSlots() async throws {
        let root = try ScratchRoot()
        let daemon = FaultDaemon(root: root)
        // 20 connections, 4 kept for the mutating right: nobody gets 20 − 4 = 16, of which at
        // most 9 subscriptions (max-subscriptions-per-uid).
        try daemon.configure(
            """
            max-connections = 20
            reserved-connections = 4
            max-connections-per-uid = 20
            max-subscriptions = 10
            max-subscriptions-per-uid = 9

            """
        )
        try await daemon.start()
        chmod(root.url.path, 0o711)
        chmod(daemon.socket, 0o666)
        let crowd = try HelperProcess(
            Host.setpriv,
            [
                "--reuid", "65534", "--regid", "65534", "--clear-groups", Host.python, "-c", Self.crowdScript,
                daemon.socket,
            ]
        )
        let report = try #require(await offPool { crowd.readLine() }, "the crowd printed nothing: \(root.log())")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        let seen = parsed["seen"] as? [String: Int] ?? [:]
        #expect(seen["subscribed"] == 9, "\(report)")
        #expect(seen["hung"] == nil)
        // 16 unreserved slots − 9 subscriptions = 7 plain connections.
        #expect(parsed["calls"] as? Int == 7, "\(report)")

        let socket = daemon.socket
        for command in [["status"], ["refresh"], ["history", "add", "예약석"], ["reload"]] {
            let outcome = try await offPool {
                try CommandRunner(executable: "homefeedctl").run(command + ["--socket", socket])
            }
            #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
        }
        crowd.write("probe\n")
        #expect(await offPool { crowd.readLine() } == "closed")
        #expect(await offPool { crowd.finish() } == 0)
        #expect(await daemon.stop() == 0)
    }
}

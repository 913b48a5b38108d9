import Foundation
import LogCore
import Synchronization
import TestSupport
import Testing

@testable import HomeDaemon
@testable import Varlink

/// The `GetManifest` subscribers: a client that goes away is dropped without a task per sink.
@Suite(.timeLimit(.minutes(1)))
struct SubscriptionHubTests {
    let sample: SampleConfiguration

    init() throws {
        sample = try SampleConfiguration(prefix: "hf-hub")
    }

    func start() async throws -> HomeService {
        try await HomeService(
            configuration: try await LoadedConfiguration.load(directory: sample.configDirectory),
            stateDirectory: sample.stateDirectory,
            logger: Logger(label: "test", level: .error, sink: { _ in })
        )
    }

    /// Runs `body` with a hub on a started service, which is stopped afterwards.
    func withHub(_ body: (HomeService, SubscriptionHub) async throws -> Void) async throws {
        let service = try await start()
        defer { Task { await service.stop() } }
        try await body(service, SubscriptionHub(service: service))
    }

    /// Counts what reaches the "connection" of one sink, and keeps the replies.
    final class Recorder: ReplyTransport {
        let delivered = Atomic<Int>(0)
        let replies = Mutex<[VarlinkEncodedReply]>([])
        func deliver(
            _ reply: VarlinkEncodedReply?,
            isFinal: Bool,
            policy: VarlinkBacklogPolicy,
            callID: UInt64,
            streaming: Bool
        ) {
            delivered.add(1, ordering: .relaxed)
            if let reply { replies.withLock { $0.append(reply) } }
        }

        /// The replies' messages, without their NUL.
        var messages: [String] {
            replies.withLock { $0.map { String(decoding: $0.framedBytes.dropLast(), as: UTF8.self) } }
        }
    }

    static let subscribe = VarlinkCall(
        method: "io.homefeed.GetManifest",
        parameters: ["profile": "phone"],
        more: true
    )

    func subscribers(_ count: Int) -> [(sink: VarlinkReplySink, recorder: Recorder)] {
        (0..<count).map { _ in
            let recorder = Recorder()
            return (VarlinkReplySink(call: Self.subscribe, transport: recorder, callID: 1), recorder)
        }
    }

    @Test("a closed subscriber stops counting at once and is dropped by the next push")
    func closedSubscriberIsDropped() async throws {
        try await withHub { _, hub in
            let clients = subscribers(3)
            for client in clients { await hub.add(client.sink, target: .profile("phone")) }
            #expect(await hub.count == 3)

            clients[0].sink.markClosed()  // the client went away
            #expect(await hub.count == 2)
            #expect(await hub.heldCount == 3)

            await hub.publish()
            #expect(await hub.heldCount == 2)
            // Added without an initial manifest, the two open ones get the current one; the closed
            // one gets nothing.
            #expect(clients.map { $0.recorder.delivered.load(ordering: .relaxed) } == [0, 1, 1])
        }
    }

    @Test("subscribers of targets that take turns in the list each get their own target's push, once")
    func interleavedTargetsGetTheirOwnPush() async throws {
        try await withHub { _, hub in
            let clients = subscribers(5)
            let profiles = ["phone", "tablet", "tablet", "phone", "kiosk"]
            for (client, profile) in zip(clients, profiles) { await hub.add(client.sink, target: .profile(profile)) }

            await hub.publish()
            for (client, profile) in zip(clients, profiles) {
                let messages = client.recorder.messages
                #expect(messages.count == 1)
                #expect(messages.first?.contains("\"profile\":\"\(profile)\"") == true, "\(profile)")
            }
            // Each has this version now: publishing it again sends nothing.
            await hub.publish()
            #expect(clients.map { $0.recorder.delivered.load(ordering: .relaxed) } == [1, 1, 1, 1, 1])
        }
    }

    @Test("a target's changes are made once per previous version, however its subscribers are spread")
    func changesAreMadeOncePerTarget() async throws {
        try await withHub { _, hub in
            let clients = subscribers(3)
            // Two phone subscribers parted by a tablet one: two runs of the same target.
            for (client, profile) in zip(clients, ["phone", "tablet", "phone"]) {
                await hub.add(client.sink, target: .profile(profile), changes: true)
            }
            await hub.publish()
            let phoneReplies = [clients[0], clients[2]].map { $0.recorder.replies.withLock { $0.first } }
            let storage = phoneReplies.map { $0?.framedBytes.withUnsafeBufferPointer { $0.baseAddress } }
            #expect(storage[0] != nil)
            #expect(storage[0] == storage[1], "one reply, framed once, shared by both phone subscribers")
            #expect(clients[1].recorder.messages.first?.contains("\"profile\":\"tablet\"") == true)
        }
    }

    @Test("a subscriber that joins holding an older version is caught up with the changes since its own")
    func changesFollowEachSubscribersVersion() async throws {
        try await withHub { service, hub in
            let first = try #require(service.servedManifest(profile: "phone").manifest)
            _ = try await service.recordHistory(title: "도서관", link: nil, kind: nil, at: nil)
            let second = try #require(service.servedManifest(profile: "phone").manifest)
            #expect(second.version > first.version)
            // One run of three phone subscribers: the outer two joined holding the first version,
            // made before the second was published (review finding: they waited for a third).
            let clients = subscribers(3)
            for (client, held) in zip(clients, [first, second, first]) {
                await hub.add(client.sink, target: .profile("phone"), changes: true, initial: held)
            }
            let caughtUp = clients.map { $0.recorder.messages }
            #expect(caughtUp.map(\.count) == [1, 0, 1])
            #expect(caughtUp[0].first?.contains("\"since\":\(first.version),") == true)
            #expect(caughtUp[0].first?.contains("\"version\":\(second.version)") == true)

            _ = try await service.recordHistory(title: "체육관", link: nil, kind: nil, at: nil)
            await hub.publish()
            let messages = clients.map { $0.recorder.messages }
            #expect(messages.map(\.count) == [2, 1, 2])
            for message in messages {
                #expect(message.last?.contains("\"since\":\(second.version),") == true)
            }
            // All three hold the same version now: one reply for the run.
            let storage = clients.map { client in
                client.recorder.replies.withLock { $0.last?.framedBytes.withUnsafeBufferPointer { $0.baseAddress } }
            }
            #expect(storage[0] == storage[1] && storage[1] == storage[2])
        }
    }

    @Test("a subscriber that joins after the next version was published gets it at once")
    func versionPublishedWhileJoining() async throws {
        try await withHub { service, hub in
            let held = try #require(service.servedManifest(profile: "phone").manifest)
            let early = subscribers(1)[0]
            await hub.add(early.sink, target: .profile("phone"), initial: held)
            // The version is published while the late subscriber's call is on its way: its
            // first reply carried `held`, and the publish's list did not hold it yet.
            _ = try await service.recordHistory(title: "도서관", link: nil, kind: nil, at: nil)
            await hub.publish()
            let late = subscribers(1)[0]
            await hub.add(late.sink, target: .profile("phone"), initial: held)
            let current = try #require(service.servedManifest(profile: "phone").manifest)
            for client in [early, late] {
                #expect(client.recorder.messages.count == 1)
                #expect(client.recorder.messages.first?.contains("\"version\":\(current.version)") == true)
            }
            // Nothing twice: the next publish of the same version sends nothing.
            await hub.publish()
            #expect(late.recorder.messages.count == 1)
        }
    }

    @Test("a target that no longer resolves ends each of its subscriptions once, wherever they are in the list")
    func unresolvedTargetEndsItsSubscriptions() async throws {
        try await withHub { _, hub in
            let clients = subscribers(4)
            // Two runs of a profile the configuration does not have, parted by a phone subscriber;
            // the last one's client has gone.
            for (client, profile) in zip(clients, ["nope", "phone", "nope", "nope"]) {
                await hub.add(client.sink, target: .profile(profile))
            }
            clients[3].sink.markClosed()

            await hub.publish()
            #expect(await hub.heldCount == 1)
            for client in [clients[0], clients[2]] {
                let messages = client.recorder.messages
                #expect(messages.count == 1)
                #expect(messages.first?.contains("io.homefeed.UnknownProfile") == true)
                #expect(client.sink.isClosed)
            }
            #expect(clients[3].recorder.delivered.load(ordering: .relaxed) == 0)
            #expect(clients[1].recorder.messages.first?.contains("\"profile\":\"phone\"") == true)
        }
    }

    @Test("a closed subscriber that already holds the current version is dropped by the next push")
    func closedSubscriberWithTheVersionIsDropped() async throws {
        try await withHub { service, hub in
            let current = try #require(service.servedManifest(profile: "phone").manifest)
            let client = subscribers(1)[0]
            await hub.add(client.sink, target: .profile("phone"), initial: current)
            client.sink.markClosed()
            #expect(await hub.heldCount == 1)

            await hub.publish()
            #expect(await hub.heldCount == 0)
            #expect(client.recorder.delivered.load(ordering: .relaxed) == 0)
        }
    }

    @Test("subscribers that come and go between versions do not pile up")
    func closedSubscribersArePrunedOnAdd() async throws {
        try await withHub { _, hub in
            let threshold = SubscriptionHub.minimumPruneThreshold
            // `threshold` subscribers arrive and leave with no version published in between.
            for client in subscribers(threshold) {
                await hub.add(client.sink, target: .profile("phone"))
                client.sink.markClosed()
            }
            #expect(await hub.heldCount == threshold)
            #expect(await hub.count == 0)
            // The next one finds the table at the threshold: the 64 closed ones go, it stays.
            let next = subscribers(1)[0]
            await hub.add(next.sink, target: .profile("phone"))
            #expect(await hub.heldCount == 1)
            #expect(await hub.count == 1)
            // A sink that closed before it was added is not held at all.
            let gone = subscribers(1)[0]
            gone.sink.markClosed()
            await hub.add(gone.sink, target: .profile("phone"))
            #expect(await hub.heldCount == 1)
        }
    }
}

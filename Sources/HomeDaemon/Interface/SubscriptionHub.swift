import Foundation
import HomeLayout
import Varlink

/// The `GetManifest` subscribers (`"more": true`): one entry per open call, pushed each new
/// version's manifest for its profile or container.
///
/// A version's reply is encoded and framed once per target and the same bytes go to every
/// subscriber of that target. Pushes use `.replacePending`, so a slow subscriber holds at most
/// the latest unsent manifest (the Varlink server coalesces) and one stuck past the server's
/// stalled-write timeout is dropped. Sendable: an actor.
actor SubscriptionHub {
    enum Target: Hashable {
        case profile(String)
        case container(width: Double, height: Double, scale: Double)

        var environment: LayoutEnvironment? {
            if case .container(let width, let height, let scale) = self {
                return LayoutEnvironment(width: width, height: height, scale: scale)
            }
            return nil
        }
    }

    private struct Subscriber {
        var sink: VarlinkReplySink
        var target: Target
    }

    private var subscribers: [UUID: Subscriber] = [:]
    private let service: HomeService

    init(service: HomeService) {
        self.service = service
    }

    var count: Int { subscribers.count }

    func add(_ sink: VarlinkReplySink, target: Target) {
        let id = UUID()
        subscribers[id] = Subscriber(sink: sink, target: target)
        sink.onClose { [weak self] in
            Task { await self?.remove(id) }
        }
    }

    func remove(_ id: UUID) {
        subscribers[id] = nil
    }

    /// Pushes the current version to every subscriber, encoded and framed once per target. A
    /// target that no longer resolves (a profile removed by a reload, a container the new layout
    /// cannot be solved for) ends its subscriptions with the error a new call would get.
    func publish() async {
        var framed: [Target: VarlinkEncodedReply] = [:]
        for (id, subscriber) in subscribers {
            if framed[subscriber.target] == nil {
                framed[subscriber.target] = await reply(for: subscriber.target)
            }
            guard let reply = framed[subscriber.target] else { continue }
            if subscriber.sink.send(reply, ifBacklogged: .replacePending) == .closed || !reply.continues {
                subscribers[id] = nil
            }
        }
    }

    private func reply(for target: Target) async -> VarlinkEncodedReply {
        switch target {
        case .profile(let name):
            guard let manifest = await service.manifest(profile: name) else {
                return VarlinkReply(
                    error: VarlinkError("io.homefeed.UnknownProfile", parameters: ["profile": .string(name)])
                )
                .framed()
            }
            return VarlinkReply(encodedParameters: manifest.replyParameters, continues: true).framed()
        case .container:
            guard let environment = target.environment else {
                return VarlinkReply(
                    error: VarlinkError("io.homefeed.InvalidContainer", parameters: ["reason": "no container"])
                )
                .framed()
            }
            do throws(LayoutSolveError) {
                let manifest = try await service.manifest(for: environment)
                return VarlinkReply(encodedParameters: manifest.replyParameters, continues: true).framed()
            } catch {
                return VarlinkReply(
                    error: VarlinkError("io.homefeed.InvalidContainer", parameters: ["reason": .string(error.message)])
                ).framed()
            }
        }
    }

    /// Ends every subscription with a final reply (the current manifest, no `continues`), so
    /// subscribers see a clean end rather than a dropped connection when the daemon stops.
    func finish() async {
        for (id, subscriber) in subscribers {
            if let manifest = await manifest(for: subscriber.target) {
                subscriber.sink.send(VarlinkReply(encodedParameters: manifest.replyParameters))
            }
            subscribers[id] = nil
        }
    }

    private func manifest(for target: Target) async -> EncodedManifest? {
        switch target {
        case .profile(let name):
            return await service.manifest(profile: name)
        case .container:
            guard let environment = target.environment else { return nil }
            return try? await service.manifest(for: environment)
        }
    }
}

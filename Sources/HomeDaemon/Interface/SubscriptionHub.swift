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

    /// Pushes the current version to every subscriber.
    func publish() async {
        var framed: [Target: VarlinkEncodedReply] = [:]
        for (id, subscriber) in subscribers {
            if framed[subscriber.target] == nil {
                guard let manifest = await manifest(for: subscriber.target) else { continue }
                framed[subscriber.target] =
                    VarlinkReply(encodedParameters: manifest.replyParameters, continues: true).framed()
            }
            guard let reply = framed[subscriber.target] else { continue }
            if subscriber.sink.send(reply, ifBacklogged: .replacePending) == .closed {
                subscribers[id] = nil
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

import HomeLayout
import Varlink

/// The `GetManifest` subscribers (`"more": true`): one entry per open call, pushed each new
/// version's manifest for its profile or container.
///
/// A version's reply is encoded and framed once per target and the same bytes go to every
/// subscriber of that target. Pushes use `.replacePending`, so a slow subscriber holds at most
/// the latest unsent manifest (the Varlink server coalesces) and one stuck past the server's
/// stalled-write timeout is dropped.
///
/// Subscribers that asked for `changes` get, with each version, what changed since the
/// manifest last sent to them: computed and framed once per target and pair of versions. Their
/// pushes are queued, never coalesced, so `since` is always the version they hold; one that
/// falls past the server's output limits is dropped instead.
///
/// A subscriber whose client went away is dropped by the next ``publish()`` (its send reports
/// `closed`) or ``add(_:target:changes:initial:)`` (see ``pruneThreshold``), on the actor: no task
/// is started per closed sink. Sendable: an actor.
actor SubscriptionHub {
    enum Target: Hashable {
        case profile(String)
        case container(LayoutEnvironment)
    }

    /// One open call. A class, so that a push updates ``last`` in place while ``publish()``
    /// walks the list, without copying the list or hashing a key per subscriber.
    private final class Subscriber {
        let sink: VarlinkReplySink
        /// Its target, shared with every subscriber of the same target: ``publish()`` tells
        /// neighbours' targets apart by identity, without copying or comparing them.
        let slot: TargetSlot
        var target: Target { slot.target }
        /// Whether the call asked for `changes`.
        let wantsChanges: Bool
        /// The manifest last sent: a version is pushed once, and `changes` are counted from it.
        /// Shared by every subscriber it went to, so recording a push is one reference, not a
        /// copy of the manifest's fields.
        var last: Pushed?
        /// Ended (its client went away, or its target no longer resolves): dropped at the end
        /// of the publish that found out.
        var isGone = false

        init(sink: VarlinkReplySink, slot: TargetSlot, wantsChanges: Bool, last: Pushed?) {
            self.sink = sink
            self.slot = slot
            self.wantsChanges = wantsChanges
            self.last = last
        }
    }

    /// One target, referenced by all its subscribers.
    private final class TargetSlot {
        let target: Target

        init(_ target: Target) {
            self.target = target
        }
    }

    /// A manifest as sent to subscribers: one instance per target and version, referenced by
    /// every subscriber it went to.
    private final class Pushed {
        let manifest: EncodedManifest

        init(_ manifest: EncodedManifest) {
            self.manifest = manifest
        }

        /// Whether `other` holds the same version (the etag tells a re-made version apart).
        func isSameVersion(as other: Pushed) -> Bool {
            self === other || (manifest.version == other.manifest.version && manifest.etag == other.manifest.etag)
        }
    }

    private var subscribers: [Subscriber] = []
    /// The slot of each target that has subscribers (and, until the next drop, of some that
    /// had): ``add(_:target:changes:initial:)`` hashes the target once, here.
    private var slots: [Target: TargetSlot] = [:]
    /// ``add(_:target:changes:initial:)`` drops closed subscribers once the list reaches this
    /// size, then sets it to twice the open ones (at least ``minimumPruneThreshold``): clients
    /// that subscribe and leave between versions cost amortised O(1) each and never pile up.
    private var pruneThreshold = SubscriptionHub.minimumPruneThreshold
    static let minimumPruneThreshold = 64
    private let service: HomeService

    init(service: HomeService) {
        self.service = service
    }

    /// Open subscriptions: a subscriber whose client has gone is not counted, even before the
    /// next ``publish()`` or ``add(_:target:changes:initial:)`` drops it.
    var count: Int { subscribers.count { !$0.sink.isClosed } }

    /// Entries held, open or not yet dropped: for tests of the pruning.
    var heldCount: Int { subscribers.count }

    /// - Parameters:
    ///   - changes: push `changes` with each version.
    ///   - initial: the manifest the call's first reply carried. A later version, made while
    ///     the call was on its way here, went to a ``publish()`` whose list did not hold this
    ///     subscriber yet: it is pushed now, or the subscriber would wait for the next version.
    func add(
        _ sink: VarlinkReplySink,
        target: Target,
        changes: Bool = false,
        initial: EncodedManifest? = nil
    ) async {
        if subscribers.count >= pruneThreshold {
            drop { $0.sink.isClosed }
            pruneThreshold = max(Self.minimumPruneThreshold, subscribers.count * 2)
        }
        guard !sink.isClosed else { return }
        let slot: TargetSlot
        if let found = slots[target] {
            slot = found
        } else {
            slot = TargetSlot(target)
            slots[target] = slot
        }
        let subscriber = Subscriber(sink: sink, slot: slot, wantsChanges: changes, last: initial.map { Pushed($0) })
        subscribers.append(subscriber)
        if let initial { await catchUp(subscriber, from: initial.version) }
    }

    /// Pushes the current version to `subscriber` when it is newer than `version`, unless a
    /// ``publish()`` that ran meanwhile did (it updates ``Subscriber/last``).
    private func catchUp(_ subscriber: Subscriber, from version: Int) async {
        let result = await manifestResult(subscriber.target)
        guard case .success(let current) = result, current.version > version,
            current.version > subscriber.last?.manifest.version ?? 0, !subscriber.isGone,
            case .manifest(let pushed, let framed) = TargetPush(result)
        else { return }
        var withChanges: [ChangesKey: VarlinkEncodedReply] = [:]
        handOver(pushed, framed: framed, to: [subscriber][...], of: subscriber.slot, withChanges: &withChanges)
        if subscriber.isGone { drop { $0 === subscriber } }
    }

    /// Drops the subscribers `isDropped` picks, and the slots of targets left without any.
    private func drop(where isDropped: (Subscriber) -> Bool) {
        subscribers.removeAll(where: isDropped)
        var kept = Set<ObjectIdentifier>()
        for subscriber in subscribers { kept.insert(ObjectIdentifier(subscriber.slot)) }
        if kept.count < slots.count { slots = slots.filter { kept.contains(ObjectIdentifier($0.value)) } }
    }

    /// What one ``publish()`` sends to the subscribers of one target: its manifest with the
    /// plain push (no `changes`) encoded and framed once for all of them, or the error that
    /// ends their subscriptions, also framed once.
    private enum TargetPush {
        case manifest(Pushed, framed: VarlinkEncodedReply)
        case failure(VarlinkEncodedReply)

        init(_ result: Result<EncodedManifest, VarlinkError>) {
            switch result {
            case .success(let manifest):
                let framed = VarlinkReply(encodedParameters: manifest.replyParameters(), continues: true).framed()
                self = .manifest(Pushed(manifest), framed: framed)
            case .failure(let error):
                self = .failure(VarlinkReply(error: error).framed())
            }
        }
    }

    /// Pushes the current version to every subscriber that does not have it yet, encoded and
    /// framed once per target (and, with `changes`, once per target and previous version). A
    /// target that no longer resolves (a profile removed by a reload, a container the new layout
    /// cannot be solved for) ends its subscriptions with the error a new call would get.
    ///
    /// Every target is resolved first (the only suspensions); then one pass over the list, with
    /// no suspension and no per-subscriber hashing while neighbours share a target, hands every
    /// sink the same bytes.
    func publish() async {
        let snapshot = subscribers
        // Keyed by slot: the snapshot holds every slot for as long as this runs.
        var pushes: [ObjectIdentifier: TargetPush] = [:]
        var previous: TargetSlot?
        for subscriber in snapshot where subscriber.slot !== previous {
            previous = subscriber.slot
            let slot = ObjectIdentifier(subscriber.slot)
            if pushes[slot] == nil {
                pushes[slot] = TargetPush(await manifestResult(subscriber.target))
            }
        }
        // Handed over together: each server loop is woken once, with the whole fan-out in its
        // inbox (``VarlinkReplySink/sendingTogether(_:)``).
        VarlinkReplySink.sendingTogether { handOver(to: snapshot, pushes) }
        if snapshot.contains(where: \.isGone) { drop { $0.isGone } }
    }

    /// Sends each subscriber of `snapshot` its target's push from `pushes`, unless it has that
    /// version already; marks the subscribers that are gone. No suspension: one pass.
    private func handOver(to snapshot: [Subscriber], _ pushes: [ObjectIdentifier: TargetPush]) {
        var withChanges: [ChangesKey: VarlinkEncodedReply] = [:]
        // Neighbours usually share a target: each run of them is handed its push taken apart
        // once, so the dictionary is looked up and the push's references copied per run, not
        // per subscriber (callgrind, issue 17).
        var start = snapshot.startIndex
        while start < snapshot.endIndex {
            let slot = snapshot[start].slot
            var end = start + 1
            while end < snapshot.endIndex, snapshot[end].slot === slot { end += 1 }
            let run = snapshot[start..<end]
            switch pushes[ObjectIdentifier(slot)] {
            case .manifest(let pushed, let framed):
                handOver(pushed, framed: framed, to: run, of: slot, withChanges: &withChanges)
            case .failure(let ending):
                for subscriber in run {
                    subscriber.sink.send(ending)
                    subscriber.isGone = true
                }
            case nil:
                // Not reached (publish() resolves every slot of the snapshot); kept so that a
                // slot left out would only hold back its open subscribers, not keep the closed.
                for subscriber in run where subscriber.sink.isClosed { subscriber.isGone = true }
            }
            start = end
        }
    }

    /// Sends `pushed` to each subscriber of `run` (all of one target) that does not have it:
    /// the plain push `framed`, or its `changes` to one that asked for them; marks the
    /// subscribers that are gone.
    ///
    /// - Parameter withChanges: the `changes` replies made so far in this pass, by target and
    ///   previous version (a target's subscribers can come in more than one run).
    private func handOver(
        _ pushed: Pushed,
        framed: VarlinkEncodedReply,
        to run: ArraySlice<Subscriber>,
        of slot: TargetSlot,
        withChanges: inout [ChangesKey: VarlinkEncodedReply]
    ) {
        for subscriber in run {
            if let last = subscriber.last, last.isSameVersion(as: pushed) {
                // Has this version; a client gone meanwhile is dropped all the same.
                if subscriber.sink.isClosed { subscriber.isGone = true }
                continue
            }
            let sent: VarlinkSendResult
            if subscriber.wantsChanges {
                let key = ChangesKey(slot: ObjectIdentifier(slot), since: subscriber.last?.manifest.version)
                let reply: VarlinkEncodedReply
                if let made = withChanges[key] {
                    reply = made
                } else if subscriber.sink.isClosed {
                    // No diff made for a client that has gone.
                    subscriber.isGone = true
                    continue
                } else {
                    reply = Self.changesReply(pushed.manifest, since: subscriber.last?.manifest)
                    withChanges[key] = reply
                }
                sent = subscriber.sink.send(reply, ifBacklogged: .queue)
            } else {
                sent = subscriber.sink.send(framed, ifBacklogged: .replacePending)
            }
            // A closed sink takes nothing and says so: no separate look at it first.
            if sent == .closed {
                subscriber.isGone = true
            } else {
                subscriber.last = pushed
            }
        }
    }

    /// A subscriber's push of `manifest` with what changed since `previous` (`null` when the
    /// previous manifest's elements are unknown, e.g. it was restored from the store).
    private static func changesReply(_ manifest: EncodedManifest, since previous: EncodedManifest?)
        -> VarlinkEncodedReply
    {
        var changes: [UInt8] = []
        if let previous, let old = previous.elements, let new = manifest.elements {
            changes = new.changes(since: old).encoded(since: previous.version)
        }
        return VarlinkReply(encodedParameters: manifest.replyParameters(changes: changes), continues: true).framed()
    }

    /// Which `changes` reply: the same for every subscriber of a target that holds the same version.
    private struct ChangesKey: Hashable {
        var slot: ObjectIdentifier
        var since: Int?
    }

    /// The current manifest of a target, or the error a new call for it would get.
    private func manifestResult(_ target: Target) async -> Result<EncodedManifest, VarlinkError> {
        switch target {
        case .profile(let name):
            // Read from the served copy, with no hop to the service's actor: the publish that
            // follows a version does not queue behind (or delay) the calls that made it.
            guard let manifest = service.servedManifest(profile: name).manifest else {
                return .failure(HomefeedInterface.unknownProfile(name))
            }
            return .success(manifest)
        case .container(let environment):
            do throws(LayoutSolveError) {
                return .success(try await service.manifest(for: environment))
            } catch {
                return .failure(HomefeedInterface.invalidContainer(error.message))
            }
        }
    }

    /// Ends every subscription with a final reply (the current manifest, no `continues`), so
    /// subscribers see a clean end rather than a dropped connection when the daemon stops.
    func finish() async {
        let all = subscribers
        subscribers = []
        slots = [:]
        for subscriber in all {
            if case .success(let manifest) = await manifestResult(subscriber.target) {
                subscriber.sink.send(manifest.finalReply)
            }
        }
    }
}

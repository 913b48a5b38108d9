import Synchronization

/// A counter a service advances whenever a reply it marked repeatable
/// (``VarlinkOutcome/repeatable(_:while:)``) may have changed: a new version of what the reply
/// reads. Every reply stamped with an earlier generation stops being repeated.
///
/// Sendable: an atomic counter.
public final class VarlinkReplyGeneration: Sendable {
    private let counter = Atomic<UInt64>(0)

    public init() {}

    /// The current generation. Read it where the reply is read (under the same lock as what
    /// changes it), so the stamp belongs to the reply.
    public var current: UInt64 { counter.load(ordering: .acquiring) }

    /// Moves to the next generation. Advance it where what the replies read changes (under the
    /// same lock), so no reply read after the change carries an old stamp.
    public func advance() {
        counter.wrappingAdd(1, ordering: .acquiringAndReleasing)
    }

    /// A validity that lasts until the next ``advance()``.
    public var validity: VarlinkReplyValidity { VarlinkReplyValidity(generation: self, stamp: current) }
}

/// How long a repeatable reply stays the answer to its call: while its generation is still
/// the one it was read in.
public struct VarlinkReplyValidity: Sendable {
    public let generation: VarlinkReplyGeneration
    /// ``VarlinkReplyGeneration/current`` when the reply was read.
    public let stamp: UInt64

    public init(generation: VarlinkReplyGeneration, stamp: UInt64) {
        self.generation = generation
        self.stamp = stamp
    }

    /// The generation has not moved since the reply was read.
    var isCurrent: Bool { generation.current == stamp }
}

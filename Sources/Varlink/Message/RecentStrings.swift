#if canImport(Glibc)
    internal import Glibc
#endif

/// The last few long string values a connection's calls carried, each beside its JSON token
/// (the raw bytes from its opening quote to its closing one), so that a call repeating one is
/// given the same `String` without decoding or allocating it again.
///
/// Why: a client polling `GetManifest` sends the same `ifNoneMatch` in every call, and that
/// etag (18 bytes with its quotes, escaped in JSON) was decoded into a new heap string and freed
/// again each time: about 1.6 k of the loop thread's 7.4 k instructions a call (callgrind,
/// issue 17). Equal tokens are the same JSON string, and a token's bytes were validated when it
/// was first decoded, so a match needs no other check.
///
/// Only strings too long to be stored inline in a `String` (more than 15 UTF-8 bytes) are kept,
/// with tokens of at most ``maxTokenLength`` bytes; ``capacity`` of them, the least recently
/// found or remembered replaced first (its token's storage reused), so a value that repeats
/// stays while others come and go. A long value that never repeats costs a `memcmp` per entry
/// and a copy of its token.
/// A connection's decoding owns one (`ConnectionState`), used on the loop thread only.
struct RecentStrings {
    /// Entries kept: the usual call has one long string.
    static let capacity = 2
    /// The longest token kept, in bytes: a repeated value is an identifier, not a text.
    static let maxTokenLength = 256
    /// Strings of this many UTF-8 bytes or fewer are small (inline in the `String`, no
    /// allocation): decoding them is cheaper than looking them up.
    static let smallStringLength = 15

    private struct Entry {
        var token: [UInt8]
        var value: String
    }

    private var entries: [Entry] = []
    /// The entry ``remember(token:value:)`` replaces next once all are taken: the one not used
    /// last (with two, the other one).
    private var nextReplaced = 0

    init() {}

    /// The string whose JSON token starts at `start` (its opening quote), if one remembered
    /// has that token, and the token's length.
    mutating func value(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (value: String, length: Int)? {
        guard let base = bytes.baseAddress else { return nil }
        let available = bytes.count - start
        for index in entries.indices where entries[index].token.count <= available {
            let equal = entries[index].token.withUnsafeBufferPointer { token in
                token.baseAddress.map { memcmp(base + start, $0, token.count) == 0 } ?? false
            }
            if equal {
                nextReplaced = (index + 1) % Self.capacity
                return (entries[index].value, entries[index].token.count)
            }
        }
        return nil
    }

    /// Keeps `value`, decoded from `token`, if it is long enough to have cost an allocation
    /// and its token is short enough to keep.
    mutating func remember(token: UnsafeBufferPointer<UInt8>, value: String) {
        guard token.count <= Self.maxTokenLength, value.utf8.count > Self.smallStringLength else { return }
        let index = entries.count < Self.capacity ? entries.count : nextReplaced
        if index == entries.count {
            entries.append(Entry(token: Array(token), value: value))
        } else {
            entries[index].token.removeAll(keepingCapacity: true)
            entries[index].token.append(contentsOf: token)
            entries[index].value = value
        }
        nextReplaced = (index + 1) % Self.capacity
    }
}

/// What a transfer does with the body of its final `2xx` response: the bytes go to a consumer
/// as libcurl hands them over, already decompressed, on the fetch loop's thread.
///
/// The transfer has already counted each chunk against `FetchLimits.maxBodyBytes` before the
/// consumer sees it, so a consumer never holds more than the cap plus one chunk. A consumer
/// that returns a failure ends the transfer at once.
///
/// Not Sendable by itself: a consumer is confined to the fetch loop's thread from `begin` to
/// the transfer's completion.
protocol HTTPBodyConsumer: AnyObject {
    /// The final response's head arrived; `url` is where it came from (after redirects).
    ///
    /// - Returns: a failure to refuse the body, else nil.
    func begin(_ head: HTTPResponseHead, url: String) -> FetchError.Kind?

    /// The next decompressed bytes of the body.
    ///
    /// - Returns: a failure to end the transfer, else nil.
    func consume(_ bytes: UnsafeRawBufferPointer) -> FetchError.Kind?

    /// True once the consumer has all it needs (a page's `<head>`): the transfer then ends at
    /// once, as a complete exchange, without reading the rest.
    var isSatisfied: Bool { get }
}

extension HTTPBodyConsumer {
    var isSatisfied: Bool { false }
}

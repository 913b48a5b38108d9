/// The text limits of `FeedParseLimits` over every string of a JSON Feed that the parse keeps
/// (texts, ids, links, dates, attachments' types), applied as each is read: an XML feed's
/// element text and attribute values count the same way.
struct JSONFeedTextBudget {
    let limits: FeedParseLimits
    private var total = 0

    init(limits: FeedParseLimits) {
        self.limits = limits
    }

    /// `text`, once counted; throws past a limit.
    mutating func counted(_ text: String?, at cursor: JSONFeedCursor) throws(FeedParseError) -> String? {
        guard let text else { return nil }
        let size = text.utf8.count
        if size > limits.maxFieldBytes {
            throw cursor.limitError(.fieldBytes, "a text field exceeds \(limits.maxFieldBytes) bytes")
        }
        total += size
        if total > limits.maxTotalTextBytes {
            throw cursor.limitError(.totalTextBytes, "text exceeds \(limits.maxTotalTextBytes) bytes")
        }
        return text
    }
}

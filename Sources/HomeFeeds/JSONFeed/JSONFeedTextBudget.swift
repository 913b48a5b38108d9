/// The text limits of `FeedParseLimits` over a JSON Feed's texts (`title`, `summary`,
/// `content_html`, `content_text`), applied as each is read.
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

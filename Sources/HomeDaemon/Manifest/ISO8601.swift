import FoundationEssentials
import HomeFeeds

/// `YYYY-MM-DDTHH:MM:SSZ` in UTC: HomeFeeds' hand-written formatter (no formatter objects, no
/// ICU; swift-on-linux.md §9, §11), on whole seconds clamped to a range it can print.
enum ISO8601 {
    static func string(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let bounded = seconds.isFinite ? min(max(seconds, -62_135_596_800), 253_402_300_799) : 0
        return FeedTimestamp(secondsSince1970: Int64(bounded)).rfc3339
    }
}

/// The bounds `RecordHistory` puts on a user-history event, in bytes of UTF-8, the title and
/// kind once folded (``FoldedText``): the daemon enforces them, and homefeedctl checks them
/// before it connects, so that a mistake is a usage error (exit 64) there.
public enum HistoryEventLimits {
    public static let titleBytes = 1_024
    public static let kindBytes = 64
    public static let linkBytes = 4_096
}

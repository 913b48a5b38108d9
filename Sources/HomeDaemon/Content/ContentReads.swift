/// How much of the store a version's snapshot reads: what the runs of the laid-out sections
/// take, and no more. A history of hundreds of events, three of them on screen, is read three
/// rows at a time; a `notices@URL` run is given that source's own newest notices, however many
/// newer ones other sources hold.
///
/// A run without a limit takes ``SectionBinding/Source/maxLimit`` rows, as does a larger limit
/// set in code (the configuration refuses one).
public struct ContentReads: Sendable, Equatable {
    /// History entries, newest first: the longest history run (0 without one).
    public var history = 0
    /// Notices of every configured source, newest first: the longest `notices` run.
    public var notices = 0
    /// Notices of one source, by its URL: the longest `notices@URL` run of each source.
    public var sourceNotices: [String: Int] = [:]

    public init(history: Int = 0, notices: Int = 0, sourceNotices: [String: Int] = [:]) {
        self.history = history
        self.notices = notices
        self.sourceNotices = sourceNotices
    }

    /// What the sections `sectionIDs` take under `bindings` (the product's default for a
    /// section without one).
    public init(sectionIDs: [String], bindings: [SectionBinding]) {
        for id in sectionIDs {
            for source in HomeAssembler.binding(for: id, in: bindings).sources {
                let rows = min(source.limit ?? SectionBinding.Source.maxLimit, SectionBinding.Source.maxLimit)
                switch source.content {
                case .history: history = max(history, rows)
                case .notices(nil): notices = max(notices, rows)
                case .notices(let url?): sourceNotices[url] = max(sourceNotices[url] ?? 0, rows)
                case .services: continue
                }
            }
        }
    }
}

public import FoundationEssentials

/// The content of one item of the home screen, with an id stable across versions.
public struct ItemContent: Sendable, Equatable {
    /// `history`, `notice`, `service` or `placeholder`.
    public var kind: String
    /// Derived from the store's identities (history id; notice source + entry id; service URL),
    /// so clients can diff manifests.
    public var id: String
    public var title: String?
    public var subtitle: String?
    public var link: String?
    public var date: Date?
    public var source: String?
    public var icon: String?
    /// Where the item's picture comes from (a notice's image, a link's icon or its page), if
    /// anywhere; the manifest shows its rendition once one is ready.
    public var image: ImageSubject?

    public init(
        kind: String,
        id: String,
        title: String? = nil,
        subtitle: String? = nil,
        link: String? = nil,
        date: Date? = nil,
        source: String? = nil,
        icon: String? = nil,
        image: ImageSubject? = nil
    ) {
        self.kind = kind
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.link = link
        self.date = date
        self.source = source
        self.icon = icon
        self.image = image
    }
}

/// A section's content ready to be laid out.
///
/// Every text of its items and header is capped as it is made (``ItemContent/capped``), so the
/// layout, the text measurer, the fingerprints and the manifest all see the same strings. Its
/// content fingerprints are computed once, here: a version lays the same sections out for
/// every profile twice (to find the text slots, then for good), and each layout needs the
/// fingerprint of every element (callgrind, issue 17). The content is therefore read-only; only
/// an item's id, which the fingerprint does not cover, can change (``renameItem(at:to:)``).
public struct AssembledSection: Sendable, Equatable {
    public let id: String
    public private(set) var items: [ItemContent]
    /// The header's content: title and subtitle.
    public let header: ItemContent?
    /// Drop the section's boundary items too (empty state `hide` with no items).
    public let isHidden: Bool
    /// How the items show their images.
    public let imageSlot: ImageSlot
    /// `ContentFingerprint.of(items[i])`.
    let itemFingerprints: [UInt64]
    /// `ContentFingerprint.of(header)`.
    let headerFingerprint: UInt64

    init(id: String, items: [ItemContent], header: ItemContent?, isHidden: Bool, imageSlot: ImageSlot = ImageSlot()) {
        self.id = id
        self.items = items.map(\.capped)
        self.header = header?.capped
        self.isHidden = isHidden
        self.imageSlot = imageSlot
        itemFingerprints = self.items.map { ContentFingerprint.of($0) }
        headerFingerprint = ContentFingerprint.of(self.header)
    }

    /// The fingerprint of item `index`'s content, or of no content past the last item.
    func fingerprint(ofItem index: Int) -> UInt64 {
        index < itemFingerprints.count ? itemFingerprints[index] : ContentFingerprint.empty
    }

    /// Gives item `index` another id (`#2`, `#3` … for a repeated one).
    mutating func renameItem(at index: Int, to id: String) {
        items[index].id = id
    }
}

/// Fills the layout's sections from a content snapshot, following the section bindings.
///
/// Pure: the same content and bindings give the same sections, so versions only differ when
/// content does.
public enum HomeAssembler {
    public static func assemble(
        sectionIDs: [String],
        content: HomeContent,
        bindings: [SectionBinding]
    ) -> [AssembledSection] {
        var sections = sectionIDs.map { id in assemble(binding(for: id, in: bindings), content: content) }
        // Ids must be unique in the whole manifest (diffable clients require it): the same link
        // in two places, or a notice in two sections, gets `#2`, `#3` … in layout order, each
        // the first number no item has (a link of its own may end in `#2`).
        var taken: Set<String> = []
        var repeats: [(section: Int, item: Int)] = []
        for s in sections.indices {
            for i in sections[s].items.indices where !taken.insert(sections[s].items[i].id).inserted {
                repeats.append((s, i))
            }
        }
        var next: [String: Int] = [:]
        for (s, i) in repeats {
            let id = sections[s].items[i].id
            var occurrence = next[id] ?? 2
            while !taken.insert("\(id)#\(occurrence)").inserted { occurrence += 1 }
            next[id] = occurrence + 1
            sections[s].renameItem(at: i, to: "\(id)#\(occurrence)")
        }
        return sections
    }

    /// The binding of section `id`: the configured one, else the product's default for it, else
    /// none (an empty section).
    static func binding(for id: String, in bindings: [SectionBinding]) -> SectionBinding {
        bindings.first { $0.sectionID == id }
            ?? SectionBinding.defaults.first { $0.sectionID == id }
            ?? SectionBinding(sectionID: id, sources: [])
    }

    static func assemble(_ binding: SectionBinding, content: HomeContent) -> AssembledSection {
        var items: [ItemContent] = []
        var realItems = 0
        for (run, source) in binding.sources.enumerated() {
            var taken = Array(Self.items(of: source.content, in: content).prefix(source.limit ?? Int.max))
            realItems += taken.count
            if source.isExact, let limit = source.limit {
                while taken.count < limit {
                    taken.append(
                        ItemContent(
                            kind: "placeholder",
                            id: "placeholder:\(binding.sectionID):\(run):\(taken.count)",
                            title: binding.placeholder
                        )
                    )
                }
            }
            items += taken
        }
        var isHidden = false
        if realItems == 0 {
            switch binding.empty {
            case .headerOnly:
                items = []
            case .placeholder:
                items = [
                    ItemContent(kind: "placeholder", id: "placeholder:\(binding.sectionID)", title: binding.placeholder)
                ]
            case .hide:
                items = []
                isHidden = true
            }
        }
        let header: ItemContent?
        switch binding.header {
        case .none: header = nil
        case .profile:
            header = ItemContent(
                kind: "profile",
                id: "header:\(binding.sectionID)",
                title: content.user.name,
                subtitle: content.user.subtitle
            )
        case .title(let title):
            header = ItemContent(kind: "title", id: "header:\(binding.sectionID)", title: title)
        }
        return AssembledSection(
            id: binding.sectionID,
            items: items,
            header: header,
            isHidden: isHidden,
            imageSlot: binding.image
        )
    }

    static func items(of source: SectionBinding.Source.Content, in content: HomeContent) -> [ItemContent] {
        switch source {
        case .history:
            return content.history.map {
                ItemContent(
                    kind: "history",
                    id: "history:\($0.id)",
                    title: $0.title,
                    subtitle: $0.kind,
                    link: $0.link,
                    date: $0.at
                )
            }
        case .notices(let sourceURL):
            let notices = sourceURL.map { content.sourceNotices[$0] ?? [] } ?? content.notices
            return notices.map { notice in
                ItemContent(
                    kind: "notice",
                    id: "notice:\(StableID.hash(notice.sourceURL)):\(notice.entryID)",
                    title: notice.title,
                    subtitle: notice.summary,
                    link: notice.link,
                    date: notice.published,
                    source: notice.sourceTitle ?? notice.sourceURL,
                    image: notice.imageURL.map { ImageSubject.image(url: $0, source: notice.sourceURL) }
                )
            }
        case .services(let category):
            return (content.services[category] ?? []).map {
                ItemContent(
                    kind: "service",
                    id: "service:\($0.url)",
                    title: $0.title,
                    subtitle: $0.description,
                    link: $0.url,
                    icon: $0.icon,
                    image: ImageSubject.of(link: $0)
                )
            }
        }
    }
}

/// Short, stable identifiers: FNV-1a 64 in hex. Not for security; only to keep ids short.
enum StableID {
    static func hash(_ text: String) -> String { String(hash(text.utf8), radix: 16) }

    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

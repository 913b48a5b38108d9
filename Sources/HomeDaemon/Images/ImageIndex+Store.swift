import FoundationEssentials
import HomeFetch
import HomeStore
import ThumbnailProtocol

extension ImageIndex {
    /// What the store and the cache directory hold for `subjects`: a page's icon through the
    /// page record, each URL's content through its image record, then the original's average
    /// colour and the renditions whose files exist.
    static func load(_ subjects: [ImageSubject], store: Store, cache: ImageCache) async throws -> ImageIndex {
        let resolved = try await ImageLookup(subjects, store: store)
        var entries: [String: Entry] = [:]
        for subject in subjects {
            guard let hash = resolved.contentHash(of: subject) else { continue }
            var entry = Entry()
            if let original = resolved.originals[hash], original.format != nil {
                entry.averageColor = original.averageColor
            }
            for rendition in resolved.renditions[hash] ?? [] where cache.exists(rendition.file) {
                guard let mode = RenditionMode(rawValue: rendition.mode) else { continue }
                let key = RenditionKey(width: rendition.boxWidth, height: rendition.boxHeight, mode: mode)
                entry.renditions[key] = Ready(
                    url: cache.fileURL(rendition.file),
                    pixelWidth: rendition.pixelWidth,
                    pixelHeight: rendition.pixelHeight
                )
            }
            if entry.averageColor != nil || !entry.renditions.isEmpty { entries[subject.key] = entry }
        }
        return ImageIndex(entries: entries)
    }
}

/// The store's records behind a set of subjects, read in a few calls.
struct ImageLookup {
    var pages: [String: PageIconRecord] = [:]
    var images: [String: ImageRecord] = [:]
    var originals: [String: ImageOriginal] = [:]
    var renditions: [String: [ImageRendition]] = [:]

    /// A page whose URL has a user name or password has no icon here: it is never searched
    /// (``ImagePipeline/discoverIcons(_:budget:now:)``), and an icon an older version found for
    /// it was resolved against that URL, so it may carry them to the icon's host and into logs.
    init(_ subjects: [ImageSubject], store: Store) async throws {
        let pageURLs = subjects.filter { $0.kind == .page && SourceList.withoutUserinfo($0.url) == nil }.map(\.url)
        pages = pageURLs.isEmpty ? [:] : try await store.pageIcons(pageURLs: pageURLs)
        let urls = subjects.compactMap { subject -> String? in
            subject.kind == .image ? subject.url : pages[subject.url]?.iconURL
        }
        images = urls.isEmpty ? [:] : try await store.images(urls: urls)
        let hashes = images.values.compactMap(\.contentHash)
        guard !hashes.isEmpty else { return }
        originals = try await store.imageOriginals(hashes: hashes)
        for rendition in try await store.imageRenditions(hashes: hashes) {
            renditions[rendition.contentHash, default: []].append(rendition)
        }
    }

    /// The image URL a subject shows: its own, or its page's icon once found.
    func imageURL(of subject: ImageSubject) -> String? {
        subject.kind == .image ? subject.url : pages[subject.url]?.iconURL
    }

    func contentHash(of subject: ImageSubject) -> String? {
        imageURL(of: subject).flatMap { images[$0]?.contentHash }
    }
}

import FoundationEssentials
import HomeFeeds
import HomeFetch
import HomeStore

/// Connects the scheduler to the SQLite store: each fetched document is one ingest
/// transaction, each attempt's state one row update (so ETag and Last-Modified stay a pair).
///
/// Sendable: it only holds the store actor.
struct StoreIngestion: FetchedDocumentSink, FetchStatePersisting {
    let store: Store
    /// A notice's image is the first of its candidates (`FeedEntry.images`) whose declared size
    /// fits these; undeclared sizes fit until fetched.
    var maxImageBytes: Int
    var maxImagePixels: Int

    init(store: Store, maxImageBytes: Int = 4 << 20, maxImagePixels: Int = 40_000_000) {
        self.store = store
        self.maxImageBytes = maxImageBytes
        self.maxImagePixels = maxImagePixels
    }

    /// Registers the list's sources with the store and returns their saved fetch state, so a
    /// restarted daemon polls with its validators, backoff and redirects intact.
    func register(_ list: SourceList, now: Date = Date()) async throws -> [SourceFetchState] {
        let stored = try await store.upsertSources(
            list.sources.map {
                SourceInput(
                    url: $0.url,
                    kind: $0.kind == .notices ? .notices : .services,
                    title: $0.title,
                    section: $0.section?.key
                )
            },
            now: now
        )
        return stored.map(Self.state(of:))
    }

    /// The service links written directly in the list, stored under the list's own URL.
    func storeListLinks(_ list: SourceList, now: Date = Date()) async throws -> Bool {
        try await store.upsertSource(
            SourceInput(url: list.documentURL, kind: .services, title: list.title),
            now: now
        )
        return try await replaceLinks(sourceURL: list.documentURL, list.serviceLinks)
    }

    /// - Throws: ``DocumentKindMismatch`` for a feed where the sources list names a list of
    ///   links, or the reverse: the source's failure, not the store's (nothing is written).
    func ingest(_ document: FetchedDocument, from source: FeedSource) async throws -> Bool {
        switch (document.document, source.kind) {
        case (.feed, .services), (.opml, .notices):
            throw DocumentKindMismatch(expected: source.kind)
        case (.feed(let feed), .notices):
            let entries = feed.entries.map {
                NoticeInput(
                    entryID: $0.id,
                    title: $0.title,
                    link: $0.link,
                    published: $0.published.map { Date(timeIntervalSince1970: Double($0.secondsSince1970)) },
                    summary: $0.summary,
                    imageURL: Self.imageURL($0.images, maxBytes: maxImageBytes, maxPixels: maxImagePixels)
                )
            }
            let result = try await store.ingestNotices(sourceURL: source.url, entries: entries)
            return result.inserted + result.updated + result.pruned > 0
        case (.opml(let opml), .services):
            return try await replaceLinks(sourceURL: source.url, SourceList(opml: opml).serviceLinks)
        }
    }

    func persist(_ state: SourceFetchState, of source: FeedSource) async throws {
        let outcome: FetchRecord.Outcome
        if state.isGone {
            outcome = .gone(message: state.lastError ?? "gone")
        } else if let error = state.lastError {
            outcome = .failed(error: error)
        } else {
            outcome = .fetched(
                Validators(
                    etag: state.validators.etag,
                    lastModified: state.validators.lastModified,
                    contentDigest: state.validators.contentDigest
                )
            )
        }
        let record = FetchRecord(
            outcome: outcome,
            attemptedAt: state.lastAttempt ?? Date(),
            nextAttempt: state.isGone ? nil : state.nextAttempt,
            permanentRedirect: state.permanentRedirectURL
        )
        _ = try await store.recordFetch(sourceURL: source.url, record)
    }

    /// The first image that fits the limits by what the document declares: ``FeedImage``'s
    /// order makes this the preferred one, and among media thumbnails the largest that fits.
    /// Only `http:`, `https:` and `file:` URLs count.
    static func imageURL(_ images: [FeedImage], maxBytes: Int, maxPixels: Int) -> String? {
        images.first { image in
            let scheme = image.url.prefix(while: { $0 != ":" }).lowercased()
            guard scheme == "http" || scheme == "https" || scheme == "file" else { return false }
            if let length = image.length, length > Int64(maxBytes) { return false }
            if let pixels = image.declaredPixels, pixels > maxPixels { return false }
            return true
        }?.url
    }

    /// Replaces a source's links only when they differ, so an unchanged document makes no version.
    private func replaceLinks(sourceURL: String, _ links: [DirectServiceLink]) async throws -> Bool {
        let inputs = links.enumerated().map { order, link in
            ServiceLinkInput(
                title: link.title,
                url: link.url,
                section: link.section?.key ?? "",
                icon: link.icon,
                order: order
            )
        }
        let current = try await store.serviceLinks(sourceURL: sourceURL)
        let unchanged =
            current.count == inputs.count
            && zip(current, inputs).allSatisfy {
                $0.title == $1.title && $0.url == $1.url && $0.section == $1.section && $0.icon == $1.icon
            }
        if unchanged { return false }
        _ = try await store.replaceServiceLinks(sourceURL: sourceURL, links: inputs)
        return true
    }

    static func state(of source: Source) -> SourceFetchState {
        SourceFetchState(
            url: source.url,
            validators: HTTPValidators(
                etag: source.validators.etag,
                lastModified: source.validators.lastModified,
                contentDigest: source.validators.contentDigest
            ),
            lastAttempt: source.lastAttempt,
            lastSuccess: source.lastSuccess,
            nextAttempt: source.nextAttempt,
            consecutiveFailures: source.consecutiveFailures,
            lastError: source.lastError,
            permanentRedirectURL: source.permanentRedirect,
            isGone: source.isGone
        )
    }
}

extension HomeSection {
    /// The section key stored with service links: the category without its slash (`main-service`).
    var key: String { String(rawValue.drop { $0 == "/" }) }
}

/// A fetched document of the other kind than its outline says (an `rss` outline whose URL
/// serves an OPML list, a `link` outline's list that turned into a feed): shown as the
/// source's error, and not counted against the store, which is fine.
struct DocumentKindMismatch: Error, CustomStringConvertible {
    var expected: FeedSource.Kind

    var description: String {
        switch expected {
        case .notices: "the sources list names a feed (type=\"rss\") here, but the document is an OPML list"
        case .services: "the sources list names an OPML list of links (type=\"link\") here, but the document is a feed"
        }
    }
}

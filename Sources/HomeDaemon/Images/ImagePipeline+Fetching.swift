import FoundationEssentials
import HomeFeeds
import HomeFetch
import HomeStore
import ThumbnailProtocol

/// Finding service icons on their pages and fetching images: through the feed fetcher (same
/// politeness, limits and redirect rules), `concurrency` hosts at once and one image per host
/// at a time, within the pass's caps, with backoff on failure and conditional GET after
/// `revalidate-interval`.
extension ImagePipeline {
    /// Image candidates tried per page before it counts as having no icon.
    static let candidatesPerPage = 4
    /// A service page is read up to this many bytes for its `<head>`.
    static let pageBytes = 512 << 10

    /// Finds the icon of each page subject that has none yet (or is due for a new look).
    ///
    /// A page whose URL has a user name or password (an OPML link `https://user:pw@host/`) is
    /// never fetched: it would send them to that host and into every log line and error that
    /// names the page. It keeps no icon, as when a page declares none, and is logged once.
    func discoverIcons(_ subjects: [ImageSubject], budget: inout FetchBudget, now: Date) async throws -> Bool {
        var pages: [ImageSubject] = []
        for subject in subjects where subject.kind == .page {
            guard let shown = SourceList.withoutUserinfo(subject.url) else {
                pages.append(subject)
                continue
            }
            if pagesWithUserinfo.insert(subject.url).inserted {
                logger.info(
                    "images: \(shown): not searched for an icon: its URL has a user name or password (not shown)"
                )
            }
        }
        guard !pages.isEmpty else { return false }
        let records = try await store.pageIcons(pageURLs: pages.map(\.url))
        // An icon the helper refused (a BMP-only ICO, a damaged file) is looked past at once.
        let refused = try await decodeErrors(of: records.values.compactMap(\.iconURL))
        var due: [ImageSubject] = []
        var refusedIcons: Set<String> = []
        for page in pages {
            let record = records[page.url]
            let isDue: Bool
            if let icon = record?.iconURL, refused[icon] != nil { refusedIcons.insert(page.url) }
            if let record, record.iconURL != nil, !refusedIcons.contains(page.url) {
                isDue = (record.checkedAt ?? .distantPast) < now.addingTimeInterval(-settings.revalidateInterval)
            } else {
                // No icon, or a refused one: again after the page's backoff.
                isDue = (record?.nextAttempt ?? .distantPast) <= now
            }
            if isDue, budget.take(for: page.source) { due.append(page) }
        }
        return await forEachHost(due.map(\.url)) { [refusedIcons] url in
            await self.discover(page: url, record: records[url], iconRefused: refusedIcons.contains(url), now: now)
        }
    }

    /// Why the helper refused the content of each of `urls` that it refused (the same bytes fail
    /// the same way).
    func decodeErrors(of urls: [String]) async throws -> [String: String] {
        guard !urls.isEmpty else { return [:] }
        let images = try await store.images(urls: urls)
        let originals = try await store.imageOriginals(hashes: images.values.compactMap(\.contentHash))
        return images.compactMapValues { record in record.contentHash.flatMap { originals[$0]?.decodeError } }
    }

    /// Reads a page's head and takes the first candidate that fetches as an image and was not
    /// refused by the helper.
    ///
    /// - Parameter iconRefused: the helper refused the record's icon (``decodeErrors(of:)``).
    private func discover(page url: String, record: PageIconRecord?, iconRefused: Bool, now: Date) async -> Bool {
        var pageLimits = fetchLimits
        pageLimits.maxBodyBytes = Self.pageBytes
        var next = record ?? PageIconRecord(pageURL: url, lastUsed: now)
        next.checkedAt = now
        var lastError: String
        var note = ""
        do throws(FetchError) {
            let icons = try await fetcher.fetchPageIcons(FetchRequest(url: url, limits: pageLimits))
            lastError = "none declared"
            if !icons.isHeadComplete { note = " (its <head> did not end within \(Self.pageBytes) bytes)" }
            // The manifest is fetched only when its turn comes.
            var queue = icons.candidates()
            var tried = 0
            while !queue.isEmpty, tried < Self.candidatesPerPage {
                let candidate: String
                switch queue.removeFirst() {
                case .image(let image):
                    candidate = image
                case .manifest(let manifest):
                    let found = try? await fetcher.fetchManifestIcons(FetchRequest(url: manifest, limits: pageLimits))
                    queue.insert(contentsOf: PageIcons.ranked(found ?? [], maxSide: 1024).map { .image($0.url) }, at: 0)
                    continue
                }
                tried += 1
                let (stored, _, error) = await fetchImage(url: candidate, force: false, now: now)
                if stored, let refused = try? await decodeErrors(of: [candidate])[candidate] {
                    lastError = "\(candidate): \(refused)"
                    continue
                }
                if stored {
                    let changed = next.iconURL != candidate
                    next.iconURL = candidate
                    next.failures = 0
                    next.lastError = nil
                    next.nextAttempt = nil
                    await save(next)
                    return changed
                }
                lastError = error ?? lastError
            }
        } catch {
            if error.kind == .cancelled { return false }
            lastError = error.description
        }
        next.failures += 1
        // A refused icon is no icon: the page is tried again after its backoff.
        if iconRefused { next.iconURL = nil }
        next.lastError = "no icon found on \(url)\(note): \(lastError)"
        next.nextAttempt = now.addingTimeInterval(Self.backoff(failures: next.failures))
        logger.info("images: \(next.lastError ?? "")")
        await save(next)
        return false
    }

    /// Fetches the images the subjects show that are new, due for revalidation, or evicted
    /// while renditions are still missing.
    func fetchImages(
        _ subjects: [ImageSubject],
        wanted: [ImageSubject: Set<ImageIndex.RenditionKey>],
        lookup: ImageLookup,
        budget: inout FetchBudget,
        now: Date
    ) async throws -> Bool {
        var work: [(url: String, force: Bool)] = []
        var seen: Set<String> = []
        for subject in subjects {
            guard let url = lookup.imageURL(of: subject), seen.insert(url).inserted else { continue }
            let record = lookup.images[url]
            let isDueAt = (record?.nextAttempt ?? .distantPast) <= now
            var force = false
            if let hash = record?.contentHash, record?.lastError == nil {
                let original = lookup.originals[hash]
                let isMissing = original.map { !cache.exists($0.file) } ?? true
                // Renditions whose files are gone (images/ deleted while the daemon was stopped,
                // docs/storage.md) are made again, so their original must be there.
                let made = Set((lookup.renditions[hash] ?? []).filter { cache.exists($0.file) }.map(\.boxKey))
                let needsNew = !(wanted[subject] ?? []).isSubset(of: made)
                if isMissing && needsNew && original?.decodeError == nil {
                    force = true
                } else if !isDueAt {
                    continue
                }
            } else if !isDueAt {
                continue
            }
            guard budget.take(for: subject.source) else { continue }
            work.append((url, force))
        }
        let forced = Dictionary(work.map { ($0.url, $0.force) }, uniquingKeysWith: { $0 || $1 })
        return await forEachHost(work.map(\.url)) { url in
            let (_, changed, _) = await self.fetchImage(url: url, force: forced[url] ?? false, now: now)
            return changed
        }
    }

    /// Fetches one image and records the outcome.
    ///
    /// - Parameter force: fetch without validators (the stored copy was evicted).
    /// - Returns: whether its content is stored, whether the content changed, and the error.
    func fetchImage(url: String, force: Bool, now: Date) async -> (stored: Bool, changed: Bool, error: String?) {
        let known = (try? await store.images(urls: [url]))?[url]
        var record = known ?? ImageRecord(url: url, lastUsed: now)
        let validators =
            force || known?.contentHash == nil
            ? HTTPValidators()
            : HTTPValidators(
                etag: record.validators.etag,
                lastModified: record.validators.lastModified
            )
        record.checkedAt = now
        var changed = false
        do throws(FetchError) {
            switch try await fetcher.fetchImage(
                FetchRequest(url: url, validators: validators, limits: fetchLimits),
                into: cache.incoming
            ) {
            case .fetched(let file, let response):
                let known = (try? await store.imageOriginals(hashes: [file.sha256]))?[file.sha256]
                if known?.decodeError != nil {
                    // Bytes refused before fail the same way: not kept again (its record counts
                    // no bytes, so a file kept here would escape max-cache-size).
                    cache.discard(file)
                } else {
                    let relative: String
                    do {
                        relative = try cache.adoptOriginal(file)
                    } catch {
                        logger.error("images: \(error)")
                        return (false, false, "\(error)")
                    }
                    if known == nil {
                        await save(
                            ImageOriginal(
                                contentHash: file.sha256,
                                file: relative,
                                bytes: file.bytes,
                                created: now,
                                lastUsed: now
                            )
                        )
                    }
                }
                changed = record.contentHash != file.sha256
                record.contentHash = file.sha256
                record.fetchedAt = now
                record.validators = Validators(
                    etag: response.validators.etag,
                    lastModified: response.validators.lastModified
                )
            case .notModified(let response):
                record.validators = Validators(
                    etag: response.validators.etag,
                    lastModified: response.validators.lastModified
                )
            }
            record.failures = 0
            record.lastError = nil
            record.nextAttempt = now.addingTimeInterval(settings.revalidateInterval)
            await save(record)
            return (true, changed, nil)
        } catch {
            if error.kind == .cancelled { return (false, false, nil) }
            record.failures += 1
            record.lastError = error.description
            var delay = Self.backoff(failures: record.failures)
            if let retryAfter = error.retryAfter {
                delay = max(delay, min(86_400, retryAfter.delay(fromSecondsSince1970: now.timeIntervalSince1970)))
            }
            record.nextAttempt = now.addingTimeInterval(delay)
            logger.info("images: \(error)")
            await save(record)
            return (record.contentHash != nil, false, error.description)
        }
    }

    /// One minute doubling per failure, at most six hours (as feeds back off).
    static func backoff(failures: Int) -> Double {
        min(21_600, 60 * Double(1 << min(max(failures, 1) - 1, 20)))
    }

    func save(_ record: ImageRecord) async {
        do { try await store.saveImage(record) } catch { logger.error("images: cannot save \(record.url): \(error)") }
    }

    func save(_ record: PageIconRecord) async {
        do { try await store.savePageIcon(record) } catch {
            logger.error("images: cannot save \(record.pageURL): \(error)")
        }
    }

    func save(_ original: ImageOriginal) async {
        do {
            try await store.saveImageOriginal(original)
        } catch {
            logger.error("images: cannot save original \(original.contentHash): \(error)")
        }
    }

    /// Runs `body` for each URL, `settings.concurrency` hosts at a time and one URL per host at a
    /// time; true when any call returned true.
    func forEachHost(_ urls: [String], _ body: @escaping @Sendable (String) async -> Bool) async -> Bool {
        var byHost: [String: [String]] = [:]
        var order: [String] = []
        for url in urls {
            let host = Self.hostKey(url)
            if byHost[host] == nil { order.append(host) }
            byHost[host, default: []].append(url)
        }
        let queues = order.compactMap { byHost[$0] }
        let width = max(1, settings.concurrency)
        return await withTaskGroup(of: Bool.self) { group in
            var next = 0
            var any = false
            func add() {
                guard next < queues.count else { return }
                let queue = queues[next]
                next += 1
                group.addTask {
                    var changed = false
                    for url in queue where !Task.isCancelled { changed = await body(url) || changed }
                    return changed
                }
            }
            for _ in 0..<width { add() }
            while let changed = await group.next() {
                any = any || changed
                add()
            }
            return any
        }
    }

    /// `host:port` of an HTTP URL (the scheme's port when none is written); `file` for local
    /// files.
    static func hostKey(_ url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            return "file"
        }
        let port = components.port ?? (components.scheme?.lowercased() == "https" ? 443 : 80)
        return "\(host.lowercased()):\(port)"
    }
}

extension ImageRendition {
    /// The box and mode this rendition was made for (only `fill` and `fit` pass the table's
    /// CHECK).
    var boxKey: ImageIndex.RenditionKey {
        ImageIndex.RenditionKey(width: boxWidth, height: boxHeight, mode: RenditionMode(rawValue: mode) ?? .fill)
    }
}

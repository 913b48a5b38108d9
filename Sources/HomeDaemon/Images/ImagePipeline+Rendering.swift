import FoundationEssentials
import Glibc
import HomeStore
import ThumbnailProtocol

/// Decoding and resizing: every original the subjects show that is not decoded yet, or lacks a
/// rendition a version needs, goes to `homefeed-thumbnail` in batches; results land in the
/// cache directory and the store.
extension ImagePipeline {
    /// One request's bookkeeping: which original, and which output path is which box.
    private struct Job {
        var original: ImageOriginal
        var outputs: [(key: ImageIndex.RenditionKey, path: String)]
    }

    func render(
        _ subjects: [ImageSubject],
        wanted: [ImageSubject: Set<ImageIndex.RenditionKey>],
        lookup: ImageLookup,
        now: Date
    ) async throws -> Bool {
        // Per original: the boxes missing over all subjects that show it.
        var missing: [String: Set<ImageIndex.RenditionKey>] = [:]
        var order: [String] = []
        for subject in subjects {
            guard let hash = lookup.contentHash(of: subject), let original = lookup.originals[hash],
                original.decodeError == nil, cache.exists(original.file)
            else { continue }
            let made = Set((lookup.renditions[hash] ?? []).filter { cache.exists($0.file) }.map(\.boxKey))
            let needed = (wanted[subject] ?? []).subtracting(made)
            guard original.format == nil || !needed.isEmpty else { continue }
            if missing[hash] == nil { order.append(hash) }
            missing[hash, default: []].formUnion(needed)
        }
        var jobs: [Int: Job] = [:]
        var requests: [ThumbnailRequest] = []
        for (id, hash) in order.enumerated() {
            guard let original = lookup.originals[hash] else { continue }
            let keys = (missing[hash] ?? []).sorted {
                ($0.width, $0.height, $0.mode.rawValue) < ($1.width, $1.height, $1.mode.rawValue)
            }
            let outputs = keys.map { (key: $0, path: cache.incomingPath()) }
            jobs[id] = Job(original: original, outputs: outputs)
            requests.append(
                ThumbnailRequest(
                    id: id,
                    input: cache.path(original.file),
                    renditions: outputs.map {
                        RenditionRequest(
                            width: $0.key.width,
                            height: $0.key.height,
                            mode: $0.key.mode,
                            format: settings.format,
                            output: $0.path
                        )
                    }
                )
            )
        }
        var changed = false
        var start = 0
        while start < requests.count, !Task.isCancelled {
            let batch = Array(requests[start..<min(start + max(1, settings.batchSize), requests.count)])
            start += batch.count
            let outcome = await renderer.render(batch)
            if !outcome.limitsApplied {
                logger.warning("images: homefeed-thumbnail could not set its resource limits (seccomp?)")
            }
            // A helper's failure (one that could not start fails every image left in the batch
            // with it) is logged once, with the images it leaves for a later pass.
            var transient: [(reason: String, images: Int)] = []
            for request in batch {
                guard let job = jobs[request.id] else { continue }
                defer { for output in job.outputs { unlink(output.path) } }
                switch outcome.results[request.id] {
                case .success(.made(_, let format, let width, let height, let averageColor, let results))?:
                    var original = job.original
                    original.format = format
                    original.width = width
                    original.height = height
                    original.averageColor = averageColor
                    await save(original)
                    changed = true
                    for (output, result) in zip(job.outputs, results) {
                        await adopt(result, key: output.key, hash: original.contentHash, now: now)
                    }
                case .success(.failed(_, let reason))?:
                    await refuse(job.original, reason: reason)
                case .success(.interrupted(_, let reason))?:
                    // The disk, not the image: kept, and tried again in a later pass.
                    logger.error("images: \(job.original.contentHash.prefix(12)): \(reason); trying again later")
                case .failure(let failure)?:
                    if failure.isTransient {
                        if let last = transient.indices.last, transient[last].reason == failure.reason {
                            transient[last].images += 1
                        } else {
                            transient.append((failure.reason, 1))
                        }
                    } else {
                        await refuse(job.original, reason: failure.reason)
                    }
                case nil:
                    break
                }
            }
            for failure in transient {
                let images = failure.images == 1 ? "1 image" : "\(failure.images) images"
                logger.error("images: \(failure.reason); \(images) tried again in a later pass")
            }
        }
        return changed
    }

    /// Moves a rendition into place and records it.
    private func adopt(_ result: RenditionResult, key: ImageIndex.RenditionKey, hash: String, now: Date) async {
        do {
            let relative = try cache.adoptRendition(from: result.output, hash: hash, key: key, format: result.format)
            try await store.saveImageRendition(
                ImageRendition(
                    contentHash: hash,
                    boxWidth: key.width,
                    boxHeight: key.height,
                    mode: key.mode.rawValue,
                    format: result.format.rawValue,
                    file: relative,
                    pixelWidth: result.width,
                    pixelHeight: result.height,
                    bytes: result.bytes,
                    created: now,
                    lastUsed: now
                )
            )
        } catch {
            logger.error("images: cannot keep a rendition of \(hash): \(error)")
        }
    }

    /// Records why an original cannot be shown; it is not tried again (the same bytes fail
    /// the same way). Its file goes: nothing will read it.
    private func refuse(_ original: ImageOriginal, reason: String) async {
        var refused = original
        refused.decodeError = reason
        refused.bytes = 0
        cache.remove(original.file)
        logger.info("images: \(original.contentHash.prefix(12)): \(reason)")
        await save(refused)
    }
}

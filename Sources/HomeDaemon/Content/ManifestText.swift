import HomeFeeds
import TextMeasure

/// The cap on every text a manifest carries (`docs/manifest.md`, "Limits"): feed titles and
/// summaries are never cut by the parser (up to its 1 MiB field limit), and two feeds of 22
/// items of 1 MB titles made a 22 MB manifest that no client reading 16 MiB replies could read.
///
/// The cap is the text measurer's, and a section's content is cut once, before it is measured
/// or served (``AssembledSection``): the text the daemon measures is the text the client draws.
enum ManifestText {
    /// Bytes of UTF-8 of one text: ``TextMeasurer/Limits/maxTextBytes``.
    static let maxBytes = TextMeasurer.Limits.maxTextBytes

    /// `text` when it fits; else its longest prefix of whole Characters (grapheme clusters) of
    /// at most ``maxBytes``, so a Hangul syllable, an emoji or a letter and its accents is never
    /// split. A first Character longer than the cap alone (a letter under thousands of combining
    /// marks) is cut between its scalars instead, so a text never becomes empty. Nothing marks
    /// the cut.
    ///
    /// Bounded by the cap, not by the text: the Characters are found in the scalars up to the
    /// cap and the one across it. Whether a Character ends before a scalar depends only on the
    /// scalars up to that one (UAX #29 looks back, never further ahead), so every boundary
    /// found before the window's last scalar is one of the whole text.
    ///
    /// A NUL (U+0000), which only configuration text or notices stored by an older version can
    /// still hold, becomes U+FFFD first, as the text measurer reads it: otherwise a text just
    /// under the cap would be measured longer than served, and cut.
    static func capped(_ text: String, maxBytes: Int = Self.maxBytes) -> String {
        let text = text.utf8.contains(0) ? withoutNUL(text) : text
        let utf8 = text.utf8
        guard utf8.count > maxBytes else { return text }
        var cut = utf8.index(utf8.startIndex, offsetBy: maxBytes)
        while UTF8.isContinuation(utf8[cut]) { cut = utf8.index(before: cut) }
        let scalars = text.unicodeScalars
        let window = String(scalars[..<scalars.index(after: cut)])
        var kept = 0
        for character in window {
            let size = character.utf8.count
            guard kept + size <= maxBytes else { break }
            kept += size
        }
        let end = kept > 0 ? utf8.index(utf8.startIndex, offsetBy: kept) : cut
        return String(text[..<end])
    }

    /// Bytes of an item's id: `ReportSizes` takes ids of at most
    /// ``HomeService/SizeLimits/maxIDBytes`` (1 024), and a repeat's `#2`, `#3` … comes after
    /// these, so 24 bytes are kept for it.
    static let maxIDBytes = HomeService.SizeLimits.maxIDBytes - 24

    /// An item's id: `id` when it fits ``maxIDBytes``, else its first whole characters and `~`
    /// and the SHA-256 of the whole id in hex, so that two ids that differ only past the cut
    /// stay two items (cut alone, the second was served as a repeat of the first, `X#2`, and
    /// took `X` over once the first left its feed).
    static func cappedID(_ id: String) -> String {
        let id = id.utf8.contains(0) ? withoutNUL(id) : id
        guard id.utf8.count > maxIDBytes else { return id }
        var hasher = SHA256()
        Array(id.utf8).withUnsafeBytes { hasher.update($0) }
        let digest = hasher.finalizeHex()
        return capped(id, maxBytes: maxIDBytes - 1 - digest.utf8.count) + "~" + digest
    }

    private static func withoutNUL(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(scalar == "\0" ? "\u{FFFD}" : scalar) }
        return String(scalars)
    }

    /// A URL: `url` when it fits the cap, else none. Cut short it would be another URL.
    static func cappedURL(_ url: String?) -> String? {
        guard let url, url.utf8.count <= maxBytes else { return nil }
        return url
    }
}

extension ItemContent {
    /// This content with every text capped (``ManifestText``): the title, subtitle and source
    /// cut, the id cut and told apart by its hash, a link or icon longer than the cap left out.
    var capped: ItemContent {
        var content = self
        content.id = ManifestText.cappedID(id)
        content.title = title.map { ManifestText.capped($0) }
        content.subtitle = subtitle.map { ManifestText.capped($0) }
        content.source = source.map { ManifestText.capped($0) }
        content.link = ManifestText.cappedURL(link)
        content.icon = ManifestText.cappedURL(icon)
        return content
    }
}

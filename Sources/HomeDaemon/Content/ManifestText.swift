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
    static func capped(_ text: String) -> String {
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

    /// A URL: `url` when it fits the cap, else none. Cut short it would be another URL.
    static func cappedURL(_ url: String?) -> String? {
        guard let url, url.utf8.count <= maxBytes else { return nil }
        return url
    }
}

extension ItemContent {
    /// This content with every text capped (``ManifestText``): the id, title, subtitle and
    /// source cut, a link or icon longer than the cap left out.
    var capped: ItemContent {
        var content = self
        content.id = ManifestText.capped(id)
        content.title = title.map(ManifestText.capped)
        content.subtitle = subtitle.map(ManifestText.capped)
        content.source = source.map(ManifestText.capped)
        content.link = ManifestText.cappedURL(link)
        content.icon = ManifestText.cappedURL(icon)
        return content
    }
}

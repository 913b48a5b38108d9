/// The icons a service's web page declares in its `<head>`, as browsers read them for "add to
/// home screen", and the order homefeed tries them in (`docs/images.md`).
///
/// Sendable: an immutable value. Every URL is absolute (resolved against `<base href>` and the
/// page URL).
public struct PageIcons: Sendable, Equatable {
    /// One `<link>` or web app manifest icon.
    public struct Icon: Sendable, Equatable {
        public var url: String
        /// Declared square-ish sizes (`sizes="180x180 512x512"`), largest side of each; empty when
        /// none (or `any`).
        public var sizes: [Int]
        public var type: String?

        public init(url: String, sizes: [Int] = [], type: String? = nil) {
            self.url = url
            self.sizes = sizes
            self.type = type
        }

        /// The largest declared side, or nil.
        public var largestSide: Int? { sizes.max() }

        /// SVG (by type or extension): never rendered (`docs/images.md`).
        public var isVector: Bool {
            if type?.lowercased().hasPrefix("image/svg") == true { return true }
            var path = Substring(url.lowercased())
            if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
            return path.hasSuffix(".svg") || path.hasSuffix(".svgz")
        }
    }

    /// Where to look next, in order.
    public enum Candidate: Sendable, Equatable {
        /// An image to fetch.
        case image(String)
        /// A web app manifest to fetch for its `icons` (then ranked like `<link rel=icon>`).
        case manifest(String)
    }

    /// The page the icons were read from (after redirects).
    public var pageURL: String
    /// `<link rel="apple-touch-icon">` and `apple-touch-icon-precomposed`, in document order.
    public var appleTouchIcons: [Icon]
    /// `<link rel="icon">` and `rel="shortcut icon"`, in document order.
    public var icons: [Icon]
    /// `<link rel="manifest">`.
    public var manifestURL: String?
    /// `<meta property="og:image">`.
    public var openGraphImage: String?
    /// False when the head was cut short by a limit (its end never came within the bytes or
    /// elements read); what was read is still used.
    public var isHeadComplete: Bool

    public init(
        pageURL: String,
        appleTouchIcons: [Icon] = [],
        icons: [Icon] = [],
        manifestURL: String? = nil,
        openGraphImage: String? = nil,
        isHeadComplete: Bool = true
    ) {
        self.pageURL = pageURL
        self.appleTouchIcons = appleTouchIcons
        self.icons = icons
        self.manifestURL = manifestURL
        self.openGraphImage = openGraphImage
        self.isHeadComplete = isHeadComplete
    }

    /// The order to try: apple-touch icons, then sized `rel=icon` links, then the manifest's
    /// icons, then unsized `rel=icon` links, then `og:image`, then `/favicon.ico` at the page's
    /// origin. Within a kind, the largest declared size up to `maxSide` first, then undeclared
    /// sizes, then larger ones smallest first. SVG icons are left out, and so is any URL the
    /// link policy refuses as a resource (`LinkPolicy`: only `http`/`https` from a web page).
    public func candidates(maxSide: Int = 1024) -> [Candidate] {
        var result: [Candidate] = []
        var seen: Set<String> = []
        var policy = LinkPolicy(documentURL: pageURL)
        func add(_ candidate: Candidate) {
            let key: String
            let url: String
            switch candidate {
            case .image(let image): (key, url) = ("i" + image, image)
            case .manifest(let manifest): (key, url) = ("m" + manifest, manifest)
            }
            guard policy.refusal(url, purpose: .resource) == nil else { return }
            if seen.insert(key).inserted { result.append(candidate) }
        }
        for icon in Self.ranked(appleTouchIcons, maxSide: maxSide) { add(.image(icon.url)) }
        for icon in Self.ranked(icons.filter { !$0.sizes.isEmpty }, maxSide: maxSide) { add(.image(icon.url)) }
        if let manifestURL { add(.manifest(manifestURL)) }
        for icon in Self.ranked(icons.filter { $0.sizes.isEmpty }, maxSide: maxSide) { add(.image(icon.url)) }
        if let openGraphImage { add(.image(openGraphImage)) }
        if let favicon = URIReference.resolve("/favicon.ico", against: pageURL) { add(.image(favicon)) }
        return result
    }

    /// "Largest that fits": declared sides ≤ `maxSide` largest first, then undeclared, then
    /// larger ones smallest first; SVG dropped; document order among equals.
    public static func ranked(_ icons: [Icon], maxSide: Int) -> [Icon] {
        func rank(_ icon: Icon) -> (Int, Int) {
            guard let side = icon.sizes.filter({ $0 <= maxSide }).max() ?? icon.sizes.min() else { return (1, 0) }
            return side <= maxSide ? (0, -side) : (2, side)
        }
        return icons.enumerated().filter { !$0.element.isVector }
            .sorted { lhs, rhs in
                let (l, r) = (rank(lhs.element), rank(rhs.element))
                return l != r ? l < r : lhs.offset < rhs.offset
            }
            .map(\.element)
    }

    /// `sizes`: space-separated `WxH` tokens (any case of `x`); `any` and malformed tokens
    /// give nothing. Each token counts by its larger side.
    static func sides(_ sizes: String?) -> [Int] {
        guard let sizes else { return [] }
        return sizes.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { token in
            let parts = token.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0
            else { return nil }
            return max(width, height)
        }
    }
}

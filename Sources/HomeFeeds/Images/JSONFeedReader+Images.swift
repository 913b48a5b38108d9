/// The image candidates of a JSON Feed item (`FeedImage`'s order): `image`, `banner_image`,
/// then the first `<img>` of `content_html`.
extension JSONFeedReader {
    /// - Parameters:
    ///   - base: the document's URL, which relative URLs resolve against.
    ///   - allowed: the link policy for a resource: the URL, or nil (and a warning naming the
    ///     member) when it is refused. The first `<img>` of `content_html` is checked against
    ///     the same policy without a warning, like the rest of that markup.
    static func images(
        of item: JSONFeedItem,
        base: String,
        allowed: (_ url: String, _ member: String) -> String?
    ) -> [FeedImage] {
        var candidates = ImageCandidates()
        if let image = item.image.flatMap({ URIReference.resolve($0, against: base) }).flatMap({ allowed($0, "image") })
        {
            candidates.add(FeedImage(url: image, origin: .jsonImage))
        }
        if let banner = item.bannerImage.flatMap({ URIReference.resolve($0, against: base) })
            .flatMap({ allowed($0, "banner_image") })
        {
            candidates.add(FeedImage(url: banner, origin: .jsonBannerImage))
        }
        var policy = LinkPolicy(documentURL: base)
        if let html = item.contentHTML,
            let found = Array(html.utf8).withUnsafeBufferPointer({ HTMLImageScanner.firstImage(in: $0) }),
            let absolute = URIReference.resolve(found.source, against: base),
            policy.refusal(absolute, purpose: .resource) == nil
        {
            candidates.add(FeedImage(url: absolute, origin: .contentImage, width: found.width, height: found.height))
        }
        return candidates.ordered
    }
}

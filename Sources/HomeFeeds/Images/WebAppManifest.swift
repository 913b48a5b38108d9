internal import FoundationEssentials

/// The `icons` of a web app manifest (W3C Web Application Manifest §`icons`), linked from a
/// service page's `<link rel="manifest">`.
///
/// Read leniently, like JSON Feed: a member of the wrong type counts as missing. Icons whose
/// `purpose` does not include `any` (only `maskable` or `monochrome`: cut or one-colour
/// variants) are left out; `src` is resolved against the manifest's URL, and kept only when the
/// link policy allows it as a resource (`LinkPolicy`: `http`/`https` from a web manifest).
public enum WebAppManifest {
    /// The largest manifest read; real ones are a few KiB.
    public static let maxBytes = 256 << 10

    /// - Throws: `FeedParseError` when the body is not a JSON object or is too large.
    public static func icons(_ body: [UInt8], manifestURL: String) throws(FeedParseError) -> [PageIcons.Icon] {
        guard body.count <= maxBytes else {
            throw FeedParseError(
                kind: .limitExceeded(.bodyBytes),
                source: manifestURL,
                message: "web app manifest exceeds \(maxBytes) bytes"
            )
        }
        let document: ManifestDocument
        do {
            document = try JSONDecoder().decode(ManifestDocument.self, from: Data(body))
        } catch {
            throw FeedParseError(kind: .malformedJSON, source: manifestURL, message: "not a web app manifest object")
        }
        var policy = LinkPolicy(documentURL: manifestURL)
        return document.icons.prefix(HTMLHeadParser.maxIcons).compactMap { icon in
            guard let source = icon.src, let url = URIReference.resolve(source, against: manifestURL),
                policy.refusal(url, purpose: .resource) == nil
            else {
                return nil
            }
            let purposes = (icon.purpose ?? "any").lowercased().split(separator: " ")
            guard purposes.isEmpty || purposes.contains("any") else { return nil }
            return PageIcons.Icon(url: url, sizes: PageIcons.sides(icon.sizes), type: icon.type)
        }
    }
}

private struct ManifestDocument: Decodable {
    var icons: [ManifestIcon]

    private enum CodingKeys: String, CodingKey {
        case icons
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        icons = (try? container.decodeIfPresent(LenientList<ManifestIcon>.self, forKey: .icons))?.elements ?? []
    }
}

private struct ManifestIcon: Decodable {
    var src: String?
    var sizes: String?
    var type: String?
    var purpose: String?

    private enum CodingKeys: String, CodingKey {
        case src, sizes, type, purpose
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        src = try? container.decodeIfPresent(String.self, forKey: .src)
        sizes = try? container.decodeIfPresent(String.self, forKey: .sizes)
        type = try? container.decodeIfPresent(String.self, forKey: .type)
        purpose = try? container.decodeIfPresent(String.self, forKey: .purpose)
    }
}

/// An array whose elements that fail to decode are skipped rather than failing the array.
private struct LenientList<Element: Decodable>: Decodable {
    var elements: [Element] = []

    private struct Skip: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            if let element = try? container.decode(Element.self) {
                elements.append(element)
            } else if (try? container.decode(Skip.self)) == nil {
                break
            }
        }
    }
}

extension Store {
    /// Replaces every service link of the source at `sourceURL` with `links`, in one
    /// transaction: readers see the old set or the new one, never a mix.
    ///
    /// - Parameters:
    ///   - sourceURL: the configured URL of a ``SourceKind/services`` source.
    ///   - links: the document's links.
    ///   - fetch: the fetch attempt to record in the same transaction, typically
    ///     `.fetched(validators)`, so validators are stored if and only if the links are.
    /// - Returns: the number of links stored.
    /// - Throws: ``StoreError/Kind/unknownSource(url:)``,
    ///   ``StoreError/Kind/wrongSourceKind(url:kind:)``, or an SQLite error (nothing changed).
    @discardableResult
    public func replaceServiceLinks(
        sourceURL: String,
        links: [ServiceLinkInput],
        fetch: FetchRecord? = nil
    ) throws(StoreError) -> Int {
        try database.transaction { () throws(StoreError) -> Int in
            let source = try retentionSource(url: sourceURL, kind: .services)
            try database.execute("DELETE FROM service_links WHERE source_id = ?", [source.id])
            let insert = try database.statement(
                """
                INSERT INTO service_links (source_id, section, position, title, url, icon, description)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
            )
            for link in links {
                try insert.execute([
                    source.id, link.section, link.order, link.title, link.url, link.icon, link.description,
                ])
            }
            if let fetch { try apply(fetch, toSource: source.id) }
            return links.count
        }
    }

    /// The links of one section in display order: by ``ServiceLinkInput/order``, then by
    /// source (in the order sources were added), then as given.
    public func serviceLinks(section: String) throws(StoreError) -> [StoredServiceLink] {
        try database.fetchAll(
            "SELECT \(Self.linkColumns) FROM service_links WHERE section = ? ORDER BY position, source_id, id",
            [section],
            Self.serviceLink
        )
    }

    /// Every link, grouped by section (sorted by name), each section in display order.
    public func serviceLinks() throws(StoreError) -> [StoredServiceLink] {
        try database.fetchAll(
            "SELECT \(Self.linkColumns) FROM service_links ORDER BY section, position, source_id, id",
            [],
            Self.serviceLink
        )
    }

    /// The links of the source at `sourceURL`, in display order.
    public func serviceLinks(sourceURL: String) throws(StoreError) -> [StoredServiceLink] {
        let id = try sourceID(url: sourceURL)
        return try database.fetchAll(
            "SELECT \(Self.linkColumns) FROM service_links WHERE source_id = ? ORDER BY section, position, id",
            [id],
            Self.serviceLink
        )
    }

    static let linkColumns = "id, source_id, title, url, section, icon, description, position"

    static func serviceLink(_ row: Statement) -> StoredServiceLink {
        StoredServiceLink(
            id: row.column(0, or: 0),
            sourceID: row.column(1, or: 0),
            title: row.column(2, or: ""),
            url: row.column(3, or: ""),
            section: row.column(4, or: ""),
            icon: row.column(5),
            description: row.column(6),
            order: row.column(7, or: 0)
        )
    }
}

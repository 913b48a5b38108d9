extension Store {
    /// Copies the write-ahead log into the database file and truncates the log to zero bytes
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`).
    ///
    /// Committed data is durable in the WAL either way; the daemon calls this when it stops so
    /// that the state directory holds one self-contained file an admin can copy or back up
    /// while the service is down. The store stays usable afterwards.
    ///
    /// - Returns: whether the checkpoint ran to completion; false when another connection's
    ///   reader kept part of the log (a later checkpoint finishes it).
    @discardableResult
    public func checkpoint() throws(StoreError) -> Bool {
        let sql = "PRAGMA wal_checkpoint(TRUNCATE)"
        // One row: (busy, log frames, checkpointed frames); busy is 1 when it could not finish.
        let busy = try database.statement(sql).fetchOne { $0.column(0, or: 1) }
        return busy == 0
    }
}

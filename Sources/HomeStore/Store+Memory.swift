internal import CSQLite

extension Store {
    /// Frees the connection's cached pages that no statement holds (`sqlite3_db_release_memory`).
    ///
    /// An ingest fills SQLite's page cache (up to `cache_size`, 2 MB by default) and the daemon
    /// would keep it while idle; it calls this once it has gone quiet (issue 17). Later reads
    /// load the pages again, from the operating system's file cache.
    public func releaseMemory() {
        _ = sqlite3_db_release_memory(database.handle)
    }

    /// Bytes of the connection's page cache in use (`SQLITE_DBSTATUS_CACHE_USED`). Tests only.
    package func _pageCacheBytes() -> Int {
        var current: Int32 = 0
        var highest: Int32 = 0
        _ = sqlite3_db_status(database.handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }
}

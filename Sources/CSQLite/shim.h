#ifndef HOMEFEED_CSQLITE_SHIM_H
#define HOMEFEED_CSQLITE_SHIM_H
#include <sqlite3.h>

/* sqlite3_db_config is variadic, which Swift cannot call (swift-on-linux.md §1.5). */
static inline int csqlite_db_config_int(sqlite3 *db, int op, int value, int *out) {
    return sqlite3_db_config(db, op, value, out);
}

/* SQLITE_TRANSIENT is a macro Swift cannot import (swift-on-linux.md §1.5): SQLite copies the
   bytes before returning, so a pointer that lives only for the call (a Swift String's UTF-8
   view, an Array's storage) is safe to pass. */
static inline int csqlite_bind_text_transient(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}

static inline int csqlite_bind_blob_transient(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}
#endif

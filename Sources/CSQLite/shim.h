#ifndef HOMEFEED_CSQLITE_SHIM_H
#define HOMEFEED_CSQLITE_SHIM_H
#include <sqlite3.h>

/* sqlite3_db_config is variadic, which Swift cannot call (swift-on-linux.md §1.5). */
static inline int csqlite_db_config_int(sqlite3 *db, int op, int value, int *out) {
    return sqlite3_db_config(db, op, value, out);
}
#endif

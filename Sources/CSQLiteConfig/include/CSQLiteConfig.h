#ifndef CSQLITECONFIG_H
#define CSQLITECONFIG_H

#include <sqlite3.h>

/// Stops a connection from checkpointing the WAL when it closes: the last connection to close would take
/// an exclusive lock on the database to do it, and a reader opening the database meanwhile (the sqlite3
/// shell has no busy timeout) would get "database is locked". The store checkpoints itself at the end of
/// each write instead. (sqlite3_db_config is variadic, so Swift cannot call it directly.)
static inline int CSQLiteConfig_disableCheckpointOnClose(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif

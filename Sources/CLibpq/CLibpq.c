// libpq loaded when the first PostgreSQL connection is made, not when a program starts: linking it pulls in
// some 20 libraries (Kerberos, LDAP, GnuTLS, SASL) that every run of gtfs-import would load and that an
// import into SQLite never uses, and a machine without libpq could not start gtfs-import at all.
//
// Each libpq function the store calls is defined here under its own name and forwards to the function
// of the loaded library, so the Swift code calls libpq as declared in include/CLibpq.h.
#include "CLibpq.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// X(return type, name, parameters, arguments) for functions with a result, V(...) for void ones.
#define LIBPQ_FUNCTIONS(X, V) \
    X(PGconn *, PQconnectdb, (const char *conninfo), (conninfo)) \
    X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg)) \
    V(PQconninfoFree, (PQconninfoOption *connOptions), (connOptions)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    V(PQfinish, (PGconn *conn), (conn)) \
    V(PQreset, (PGconn *conn), (conn)) \
    X(int, PQsocket, (const PGconn *conn), (conn)) \
    X(int, PQsetnonblocking, (PGconn *conn, int arg), (conn, arg)) \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg)) \
    X(PGcancel *, PQgetCancel, (PGconn *conn), (conn)) \
    V(PQfreeCancel, (PGcancel *cancel), (cancel)) \
    X(int, PQcancel, (PGcancel *cancel, char *errbuf, int errbufsize), (cancel, errbuf, errbufsize)) \
    X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
    X(int, PQsendQuery, (PGconn *conn, const char *query), (conn, query)) \
    X(int, PQsendQueryParams, \
      (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, \
       const int *paramLengths, const int *paramFormats, int resultFormat), \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(int, PQconsumeInput, (PGconn *conn), (conn)) \
    X(int, PQisBusy, (PGconn *conn), (conn)) \
    X(int, PQflush, (PGconn *conn), (conn)) \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    X(int, PQntuples, (const PGresult *res), (res)) \
    X(int, PQnfields, (const PGresult *res), (res)) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(char *, PQcmdTuples, (PGresult *res), (res)) \
    V(PQclear, (PGresult *res), (res)) \
    X(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes)) \
    X(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg)) \
    X(char *, PQescapeLiteral, (PGconn *conn, const char *str, size_t len), (conn, str, len)) \
    V(PQfreemem, (void *ptr), (ptr))

#define POINTER(type, name, parameters, arguments) static type (*loaded_##name) parameters;
#define VOID_POINTER(name, parameters, arguments) static void (*loaded_##name) parameters;
LIBPQ_FUNCTIONS(POINTER, VOID_POINTER)

#define FORWARD(type, name, parameters, arguments) \
    type name parameters { return loaded_##name arguments; }
#define VOID_FORWARD(name, parameters, arguments) \
    void name parameters { loaded_##name arguments; }
LIBPQ_FUNCTIONS(FORWARD, VOID_FORWARD)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char failure[512];

// The names the dynamic linker searches for (LD_LIBRARY_PATH, the system's library folders), then where
// Homebrew keeps its keg-only libpq.
static const char *const candidates[] = {
#ifdef __APPLE__
    "libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib", "/usr/local/opt/libpq/lib/libpq.5.dylib",
#else
    "libpq.so.5",
#endif
};

static void load_once(void) {
    void *library = NULL;
    for (size_t index = 0; index < sizeof candidates / sizeof candidates[0] && !library; index++) {
        library = dlopen(candidates[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (!library) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "cannot load libpq (%s): %s", candidates[0], reason ? reason : "not found");
        return;
    }
#define RESOLVE(type, name, parameters, arguments) \
    if (!(*(void **)&loaded_##name = dlsym(library, #name))) { \
        snprintf(failure, sizeof failure, "libpq (%s) lacks %s", candidates[0], #name); \
        return; \
    }
#define VOID_RESOLVE(name, parameters, arguments) RESOLVE(void, name, parameters, arguments)
    LIBPQ_FUNCTIONS(RESOLVE, VOID_RESOLVE)
    loaded = 1;
}

int CLibpq_load(char *message, size_t size) {
    pthread_once(&once, load_once);
    if (!loaded && message && size > 0) snprintf(message, size, "%s", failure);
    return loaded;
}

#ifndef CLIBPQ_H
#define CLIBPQ_H

// The part of libpq's API (libpq-fe.h, libpq.so.5) that the PostgreSQL store uses, declared here because
// libpq is loaded at run time (CLibpq_load) and its headers are not needed to build. The types and values
// are libpq's stable ABI: opaque handles, the enums in libpq-fe.h's order, PQconninfoOption's layout.

#include <stddef.h>

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;
typedef struct pg_cancel PGcancel;
typedef unsigned int Oid;

typedef enum {
    CONNECTION_OK,
    CONNECTION_BAD
} ConnStatusType;

typedef enum {
    PGRES_EMPTY_QUERY = 0,
    PGRES_COMMAND_OK,
    PGRES_TUPLES_OK,
    PGRES_COPY_OUT,
    PGRES_COPY_IN,
    PGRES_BAD_RESPONSE,
    PGRES_NONFATAL_ERROR,
    PGRES_FATAL_ERROR,
    PGRES_COPY_BOTH,
    PGRES_SINGLE_TUPLE
} ExecStatusType;

typedef struct _PQconninfoOption {
    char *keyword;
    char *envvar;
    char *compiled;
    char *val;
    char *label;
    char *dispchar;
    int dispsize;
} PQconninfoOption;

typedef void (*PQnoticeProcessor)(void *arg, const char *message);

/// Loads libpq (`libpq.so.5`; `libpq.5.dylib` on Apple platforms, also from Homebrew) once per process.
/// Returns 1 when it is loaded; otherwise 0, with the reason in `message` (at most `size` bytes,
/// NUL-terminated). Safe from any thread, any number of times. No function below may be called before it
/// has returned 1.
int CLibpq_load(char *message, size_t size);

PGconn *PQconnectdb(const char *conninfo);
PQconninfoOption *PQconninfoParse(const char *conninfo, char **errmsg);
void PQconninfoFree(PQconninfoOption *connOptions);
ConnStatusType PQstatus(const PGconn *conn);
char *PQerrorMessage(const PGconn *conn);
void PQfinish(PGconn *conn);
void PQreset(PGconn *conn);
int PQsocket(const PGconn *conn);
int PQsetnonblocking(PGconn *conn, int arg);
PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg);
PGcancel *PQgetCancel(PGconn *conn);
void PQfreeCancel(PGcancel *cancel);
int PQcancel(PGcancel *cancel, char *errbuf, int errbufsize);
PGresult *PQexec(PGconn *conn, const char *query);
int PQsendQuery(PGconn *conn, const char *query);
int PQsendQueryParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                      const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                      int resultFormat);
int PQconsumeInput(PGconn *conn);
int PQisBusy(PGconn *conn);
int PQflush(PGconn *conn);
PGresult *PQgetResult(PGconn *conn);
ExecStatusType PQresultStatus(const PGresult *res);
char *PQresultErrorField(const PGresult *res, int fieldcode);
int PQntuples(const PGresult *res);
int PQnfields(const PGresult *res);
char *PQgetvalue(const PGresult *res, int tup_num, int field_num);
int PQgetisnull(const PGresult *res, int tup_num, int field_num);
char *PQcmdTuples(PGresult *res);
void PQclear(PGresult *res);
int PQputCopyData(PGconn *conn, const char *buffer, int nbytes);
int PQputCopyEnd(PGconn *conn, const char *errormsg);
char *PQescapeLiteral(PGconn *conn, const char *str, size_t len);
void PQfreemem(void *ptr);

#endif

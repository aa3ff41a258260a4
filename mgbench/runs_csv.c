/*
 * runs_csv.c — locked, single-write appends to runs.csv (see runs_csv.h).
 */
#include "mgbench/runs_csv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mgbench/refuse.h"

/* The header before the engine column existed, and the current one. */
#define LEGACY_COLUMNS                                                    \
    "cluster,code,np,npa,npb,na,nb,nodes,ppn,work_mb,time_s,time_comm_s," \
    "time_setup_s,cycles,rel_residual,seq_of_np,rep,date,note"
static const char LEGACY_HEADER[] = LEGACY_COLUMNS;
static const char HEADER[] = LEGACY_COLUMNS ",engine";
static const char SPLIT_HEADER[] = LEGACY_COLUMNS ",engine,np_a,np_b,rows_a,rows_b";
static const char LINK_HEADER[] =
    LEGACY_COLUMNS ",engine,np_a,np_b,rows_a,rows_b,kind,cluster_b,bytes,link_lat_us,link_bw_gbs";

enum { ROW_MAX = 4096 };

const char *mgb_runs_header(void)
{
    return HEADER;
}

const char *mgb_runs_split_header(void)
{
    return SPLIT_HEADER;
}

const char *mgb_runs_link_header(void)
{
    return LINK_HEADER;
}

static int is_split(const mgb_run_row *r)
{
    return r->np_a > 0;
}

static int is_pingpong(const mgb_run_row *r)
{
    return r->kind != NULL;
}

/* The columns a file created by this row has. */
static mgb_columns columns_of(const mgb_run_row *r)
{
    return is_pingpong(r) ? MGB_COLUMNS_LINK : is_split(r) ? MGB_COLUMNS_SPLIT
                                                          : MGB_COLUMNS_ENGINE;
}

static const char *header_of(mgb_columns columns)
{
    return columns == MGB_COLUMNS_LINK ? LINK_HEADER : columns == MGB_COLUMNS_SPLIT
                                                           ? SPLIT_HEADER : HEADER;
}

/* Appends a CSV text cell (quoted when it holds a comma, quote or newline). */
static size_t put_text(char *out, size_t len, size_t at, const char *text)
{
    if (!text || at >= len)
        return at;
    int quote = strpbrk(text, ",\"\r\n") != NULL;
    if (quote && at < len)
        out[at++] = '"';
    for (const char *c = text; *c && at < len; c++) {
        if (*c == '"' && at < len)
            out[at++] = '"';
        if (at < len)
            out[at++] = *c;
    }
    if (quote && at < len)
        out[at++] = '"';
    return at;
}

static const char *engine_of(const mgb_run_row *r)
{
    return r->engine ? r->engine : "openmpi";
}

/* Appends the literal cells text (already CSV). */
static size_t put_raw(char *buf, size_t len, size_t at, const char *cells)
{
    for (const char *c = cells; *c && at < len; c++)
        buf[at++] = *c;
    return at;
}

/* The five ping-pong cells ",kind,cluster_b,bytes,link_lat_us,link_bw_gbs"
 * (empty for a solve). */
static size_t put_link(const mgb_run_row *r, char *buf, size_t len, size_t at)
{
    if (!is_pingpong(r))
        return put_raw(buf, len, at, ",,,,,");
    at = put_raw(buf, len, at, ",");
    at = put_text(buf, len, at, r->kind);
    at = put_raw(buf, len, at, ",");
    at = put_text(buf, len, at, r->cluster_b);
    char cells[96];
    snprintf(cells, sizeof cells, ",%.0f,%.6g,%.6g", r->bytes, r->link_lat_us, r->link_bw_gbs);
    return put_raw(buf, len, at, cells);
}

/* The solve's cells after cluster, up to rep: ",mgbench,np,...,rep,"; a
 * ping-pong row keeps np, nodes, ppn and rep only. */
static int put_solve(const mgb_run_row *r, char *buf, size_t len)
{
    if (is_pingpong(r))
        return snprintf(buf, len, ",mgbench,%ld,,,,,%ld,%ld,,,,,,,,%ld,", r->np, r->nodes, r->ppn,
                        r->rep);
    char seq[32] = "";
    if (r->seq_of_np >= 0)
        snprintf(seq, sizeof seq, "%ld", r->seq_of_np);
    return snprintf(buf, len,
                    ",mgbench,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%.6g,%.6g,%.6g,%.6g,%ld,%.3e,%s,%ld,",
                    r->np, r->npa, r->npb, r->na, r->nb, r->nodes, r->ppn, r->work_mb,
                    r->time_s, r->time_comm_s, r->time_setup_s, r->cycles, r->rel_residual,
                    seq, r->rep);
}

/* The four split cells ",np_a,np_b,rows_a,rows_b" (empty for an ordinary row). */
static size_t put_split(const mgb_run_row *r, char *buf, size_t len, size_t at)
{
    char cells[128] = ",,,,";
    if (is_split(r))
        snprintf(cells, sizeof cells, ",%ld,%ld,%ld,%ld", r->np_a, r->np_b, r->rows_a,
                 r->rows_b);
    return put_raw(buf, len, at, cells);
}

int mgb_runs_format(const mgb_run_row *r, mgb_columns columns, char *buf, size_t len)
{
    size_t at = put_text(buf, len, 0, r->cluster);
    int n = put_solve(r, buf + (at < len ? at : len), at < len ? len - at : 0);
    if (n < 0)
        return -1;
    at += (size_t)n;
    at = put_text(buf, len, at, r->date);
    if (at < len)
        buf[at++] = ',';
    at = put_text(buf, len, at, r->note);
    if (columns != MGB_COLUMNS_LEGACY) {
        if (at < len)
            buf[at++] = ',';
        at = put_text(buf, len, at, engine_of(r));
    }
    if (columns >= MGB_COLUMNS_SPLIT)
        at = put_split(r, buf, len, at);
    if (columns == MGB_COLUMNS_LINK)
        at = put_link(r, buf, len, at);
    if (at + 1 >= len)
        return -1;
    buf[at++] = '\n';
    buf[at] = '\0';
    return (int)at;
}

/* Writes all of buf (one write(2) unless the kernel cuts it short). */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Creates the folder holding path when it is missing (one level). */
static void make_parent(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        mkdir(dir, 0755);
    }
}

/* 1 when the first n bytes of a file (head) are exactly the header line. */
static int starts_with_line(const char *head, size_t n, const char *header)
{
    size_t hl = strlen(header);
    return n >= hl && memcmp(head, header, hl) == 0 &&
           (n == hl || head[hl] == '\n' || head[hl] == '\r');
}

/* Under the lock: checks the header of a non-empty file (mgbench's, with
 * or without the split columns, or its legacy form without `engine`:
 * *columns says which) and whether its last byte is a newline. Returns 0,
 * or -1 with err set. */
static int check_existing(int fd, off_t size, const char *path, mgb_columns *columns,
                          int *needs_newline, char *err, size_t errlen)
{
    char head[sizeof LINK_HEADER + 1];
    ssize_t n = pread(fd, head, sizeof head, 0);
    if (n < 0)
        return mgb_refuse(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    if (starts_with_line(head, (size_t)n, LINK_HEADER))
        *columns = MGB_COLUMNS_LINK;
    else if (starts_with_line(head, (size_t)n, SPLIT_HEADER))
        *columns = MGB_COLUMNS_SPLIT;
    else if (starts_with_line(head, (size_t)n, HEADER))
        *columns = MGB_COLUMNS_ENGINE;
    else if (starts_with_line(head, (size_t)n, LEGACY_HEADER))
        *columns = MGB_COLUMNS_LEGACY;
    else
        return mgb_refuse(err, errlen,
                          "%s: its header is not mgbench's, refusing to append (expected: %s)",
                          path, HEADER);
    char last;
    if (pread(fd, &last, 1, size - 1) != 1)
        return mgb_refuse(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    *needs_newline = last != '\n';
    return 0;
}

static int append_locked(int fd, const char *path, const mgb_run_row *row, char *err,
                         size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return mgb_refuse(err, errlen, "%s: %s", path, strerror(errno));
    char buf[ROW_MAX + sizeof LINK_HEADER + 2];
    size_t at = 0;
    mgb_columns columns = columns_of(row);
    if (st.st_size == 0) {
        at = (size_t)snprintf(buf, sizeof buf, "%s\n", header_of(columns));
    } else {
        int needs_newline = 0;
        if (check_existing(fd, st.st_size, path, &columns, &needs_newline, err, errlen) != 0)
            return -1;
        if (columns == MGB_COLUMNS_LEGACY && strcmp(engine_of(row), "openmpi") != 0)
            return mgb_refuse(err, errlen,
                              "%s: has no engine column (its rows read as real Open MPI runs), "
                              "refusing to append a %s row; use a new campaign",
                              path, engine_of(row));
        if (columns < MGB_COLUMNS_LINK && is_pingpong(row))
            return mgb_refuse(err, errlen,
                              "%s: has no kind,cluster_b,bytes,link_lat_us,link_bw_gbs columns, "
                              "refusing to append a ping-pong row (--pingpong); add them to its "
                              "header (and an empty cell to each row; archive/README.md) or use "
                              "a new campaign", path);
        if (columns < MGB_COLUMNS_SPLIT && is_split(row))
            return mgb_refuse(err, errlen,
                              "%s: has no np_a,np_b,rows_a,rows_b columns, refusing to append "
                              "a split row (--split); use a new campaign", path);
        if (needs_newline)
            buf[at++] = '\n';
    }
    int len = mgb_runs_format(row, columns, buf + at, ROW_MAX);
    if (len < 0)
        return mgb_refuse(err, errlen, "the row for %s is too long", path);
    if (write_all(fd, buf, at + (size_t)len) != 0)
        return mgb_refuse(err, errlen, "%s: write failed: %s", path, strerror(errno));
    return 0;
}

/* Open path (never through a symbolic link) and take the write lock that
 * perfcast import takes too (gen/import/import_txn.c). An import replaces
 * runs.csv by renaming a new file over it, so a lock won on the old file
 * guards nothing: once locked, check that the path still names the file
 * held, and start again when it does not. */
static int lock_current(const char *path, int *out, char *err, size_t errlen)
{
    for (int tries = 0; tries < 100; tries++) {
        int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
            return mgb_refuse(err, errlen, "%s: cannot open: %s%s", path, strerror(errno),
                              errno == ELOOP ? " (a symbolic link: mgbench writes only a "
                                               "regular runs.csv)" : "");
        struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
        int rc;
        while ((rc = fcntl(fd, F_SETLKW, &lk)) != 0 && errno == EINTR)
            ;
        if (rc != 0) {
            int saved = errno;
            close(fd);
            return mgb_refuse(err, errlen, "%s: cannot lock: %s", path, strerror(saved));
        }
        struct stat held, named;
        if (fstat(fd, &held) == 0 && lstat(path, &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino) {
            *out = fd;
            return 0;
        }
        close(fd);
    }
    return mgb_refuse(err, errlen, "%s: replaced again and again while locking it", path);
}

int mgb_runs_append(const char *path, const mgb_run_row *row, char *err, size_t errlen)
{
    char line[ROW_MAX];
    if (mgb_runs_format(row, MGB_COLUMNS_LINK, line, sizeof line) < 0)
        return mgb_refuse(err, errlen, "the row for %s is too long", path);
    if (!row->cluster || !*row->cluster)
        return mgb_refuse(err, errlen, "the row has no cluster");
    make_parent(path);
    int fd = -1;
    int rc = lock_current(path, &fd, err, errlen);
    if (rc != 0)
        return rc;
    rc = append_locked(fd, path, row, err, errlen);
    close(fd); /* releases the lock */
    return rc;
}

/*
 * comm.c — process grid and halo exchanges (see comm.h).
 */
#include "mgbench/comm.h"

#include <stdlib.h>

/* Tags name the direction a message travels. */
enum { TAG_UP = 11, TAG_DOWN = 12, TAG_LEFT = 13, TAG_RIGHT = 14, TAG_RESID = 15 };

int mgb_comm_create(mgb_comm *c, MPI_Comm world, int npa, int npb, long max_rows)
{
    int dims[2] = {npa, npb}, periods[2] = {0, 0}, coords[2];
    MPI_Cart_create(world, 2, dims, periods, 0, &c->cart);
    MPI_Comm_rank(c->cart, &c->rank);
    MPI_Comm_size(c->cart, &c->size);
    MPI_Cart_coords(c->cart, c->rank, 2, coords);
    c->npa = npa;
    c->npb = npb;
    c->pa = coords[0];
    c->pb = coords[1];
    MPI_Cart_shift(c->cart, 0, 1, &c->below, &c->above);
    MPI_Cart_shift(c->cart, 1, 1, &c->left, &c->right);
    c->seconds = 0;
    c->colbuf_len = max_rows;
    c->colbuf = malloc(4 * (size_t)max_rows * sizeof(double));
    return c->colbuf ? 0 : -1;
}

void mgb_comm_free(mgb_comm *c)
{
    free(c->colbuf);
    c->colbuf = NULL;
    MPI_Comm_free(&c->cart);
}

/* Posts the receive into ghost row `ghost` and the send of row `edge`. */
static int post_row(mgb_comm *c, const mgb_level *lv, double *a, long ghost,
                    long edge, int peer, int recv_tag, int send_tag, MPI_Request *req)
{
    int n = (int)lv->cols;
    MPI_Irecv(mgb_row(lv, a, ghost), n, MPI_DOUBLE, peer, recv_tag, c->cart, &req[0]);
    MPI_Isend(mgb_row(lv, a, edge), n, MPI_DOUBLE, peer, send_tag, c->cart, &req[1]);
    return 2;
}

static int post_rows(mgb_comm *c, const mgb_level *lv, double *a, int sides,
                     MPI_Request *req)
{
    int n = 0;
    if (sides & MGB_BELOW)
        n += post_row(c, lv, a, 0, 1, c->below, TAG_UP, TAG_DOWN, req + n);
    if (sides & MGB_ABOVE)
        n += post_row(c, lv, a, lv->ma + 1, lv->ma, c->above, TAG_DOWN, TAG_UP, req + n);
    return n;
}

void mgb_exchange_rows(mgb_comm *c, const mgb_level *lv, double *a, int sides)
{
    if (c->below == MPI_PROC_NULL)
        sides &= ~MGB_BELOW;
    if (c->above == MPI_PROC_NULL)
        sides &= ~MGB_ABOVE;
    if (!sides)
        return;
    double t = MPI_Wtime();
    MPI_Request req[4];
    int n = post_rows(c, lv, a, sides, req);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    c->seconds += MPI_Wtime() - t;
}

/* Copies local column j of rows 1..ma into buf, or buf back into it. */
static void pack_col(const mgb_level *lv, const double *a, long j, double *buf)
{
    long p = mgb_pos(lv, j);
    for (long i = 1; i <= lv->ma; i++)
        buf[i - 1] = a[i * lv->cols + p];
}

static void unpack_col(const mgb_level *lv, double *a, long j, const double *buf)
{
    long p = mgb_pos(lv, j);
    for (long i = 1; i <= lv->ma; i++)
        a[i * lv->cols + p] = buf[i - 1];
}

/* Posts the column messages; the receive buffers are unpacked by the caller
 * after the wait (finish_cols). */
static int post_cols(mgb_comm *c, const mgb_level *lv, double *a, MPI_Request *req)
{
    if (c->left == MPI_PROC_NULL && c->right == MPI_PROC_NULL)
        return 0;
    long len = c->colbuf_len;
    double *send_l = c->colbuf, *send_r = c->colbuf + len;
    double *recv_l = c->colbuf + 2 * len, *recv_r = c->colbuf + 3 * len;
    int n = (int)lv->ma;
    pack_col(lv, a, 1, send_l);
    pack_col(lv, a, lv->mb, send_r);
    MPI_Irecv(recv_l, n, MPI_DOUBLE, c->left, TAG_RIGHT, c->cart, &req[0]);
    MPI_Irecv(recv_r, n, MPI_DOUBLE, c->right, TAG_LEFT, c->cart, &req[1]);
    MPI_Isend(send_l, n, MPI_DOUBLE, c->left, TAG_LEFT, c->cart, &req[2]);
    MPI_Isend(send_r, n, MPI_DOUBLE, c->right, TAG_RIGHT, c->cart, &req[3]);
    return 4;
}

static void finish_cols(mgb_comm *c, const mgb_level *lv, double *a)
{
    long len = c->colbuf_len;
    if (c->left != MPI_PROC_NULL)
        unpack_col(lv, a, 0, c->colbuf + 2 * len);
    if (c->right != MPI_PROC_NULL)
        unpack_col(lv, a, lv->mb + 1, c->colbuf + 3 * len);
}

void mgb_exchange_halo(mgb_comm *c, const mgb_level *lv, double *a, int corners)
{
    double t = MPI_Wtime();
    MPI_Request req[8];
    int n = post_cols(c, lv, a, req);
    if (corners && n) {
        MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
        finish_cols(c, lv, a);
        n = 0;
    }
    n += post_rows(c, lv, a, MGB_BELOW | MGB_ABOVE, req + n);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    if (!corners)
        finish_cols(c, lv, a);
    c->seconds += MPI_Wtime() - t;
}

void mgb_pass_residual_up(mgb_comm *c, const mgb_level *lv, int send, int recv)
{
    send = send && c->above != MPI_PROC_NULL;
    recv = recv && c->below != MPI_PROC_NULL;
    if (!send && !recv)
        return;
    double t = MPI_Wtime();
    MPI_Request req[2];
    int n = 0, len = (int)lv->cols;
    if (recv)
        MPI_Irecv(mgb_resid_row(lv, 0), len, MPI_DOUBLE, c->below, TAG_RESID,
                  c->cart, &req[n++]);
    if (send)
        MPI_Isend(mgb_resid_row(lv, lv->ma), len, MPI_DOUBLE, c->above, TAG_RESID,
                  c->cart, &req[n++]);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    c->seconds += MPI_Wtime() - t;
}

double mgb_allreduce_sum(mgb_comm *c, double x)
{
    double t = MPI_Wtime(), sum;
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, c->cart);
    c->seconds += MPI_Wtime() - t;
    return sum;
}

void mgb_allgather(mgb_comm *c, const double *mine, int count, double *all, const int *counts,
                   const int *displs)
{
    double t = MPI_Wtime();
    if (counts)
        MPI_Allgatherv(mine, count, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, c->cart);
    else
        MPI_Allgather(mine, count, MPI_DOUBLE, all, count, MPI_DOUBLE, c->cart);
    c->seconds += MPI_Wtime() - t;
}

/* GumbelMIP: triangle (cycle) inequalities of the cut polytope (Barahona &
 * Mahjoub 1986; Sontag & Jaakkola 2007), separated on an LP solution to
 * tighten the local-polytope bound of a pairwise model with couplings of any
 * sign.
 *
 * In the product variables y_ij = s_i s_j of the LP (R/mip_problem.R,
 * encoding "mccormick": every edge's y with y <= s_i, y <= s_j,
 * y >= s_i + s_j - 1), every triangle i, j, k of the model's edges gives four
 * inequalities that every 0/1 point satisfies:
 *   s_i + s_j + s_k - y_ij - y_ik - y_jk <= 1,
 *   y_ij + y_ik - y_jk - s_i <= 0      (and the same at j and at k).
 * They are valid for the whole search (no fixing enters them), so cuts found
 * at one node stay in the LP. Plain C, no GLPK (mip_glpk.c adds the rows). */
#include <stdlib.h>
#include <string.h>
#include "mip.h"

/* The triangles of M's edges (R_alloc): for each variable its neighbours
 * above it, sorted, with their edges' y columns (n + e). */
mip_cycle *mip_cycle_new(const mip_value_model *M)
{
    int n = M->n, m = M->m;
    mip_cycle *Y = (mip_cycle *) R_alloc(1, sizeof(mip_cycle));
    Y->n = n;
    Y->start = (int *) R_alloc((size_t) n + 1, sizeof(int));
    Y->nb = (int *) R_alloc(m > 0 ? m : 1, sizeof(int));
    Y->col = (int *) R_alloc(m > 0 ? m : 1, sizeof(int));
    memset(Y->start, 0, sizeof(int) * ((size_t) n + 1));
    for (int e = 0; e < m; e++) {
        int lo = M->from[e] < M->to[e] ? M->from[e] : M->to[e];
        Y->start[lo + 1]++;
    }
    for (int i = 0; i < n; i++) Y->start[i + 1] += Y->start[i];
    int *fill = (int *) R_alloc(n > 0 ? n : 1, sizeof(int));
    for (int i = 0; i < n; i++) fill[i] = Y->start[i];
    for (int e = 0; e < m; e++) {
        int lo = M->from[e] < M->to[e] ? M->from[e] : M->to[e];
        int hi = M->from[e] < M->to[e] ? M->to[e] : M->from[e];
        int k = fill[lo]++;
        Y->nb[k] = hi;
        Y->col[k] = n + e;
    }
    /* insertion sort of each list by neighbour (lists are short or sorted) */
    for (int i = 0; i < n; i++)
        for (int a = Y->start[i] + 1; a < Y->start[i + 1]; a++) {
            int v = Y->nb[a], c = Y->col[a], b = a - 1;
            while (b >= Y->start[i] && Y->nb[b] > v) {
                Y->nb[b + 1] = Y->nb[b]; Y->col[b + 1] = Y->col[b]; b--;
            }
            Y->nb[b + 1] = v; Y->col[b + 1] = c;
        }
    return Y;
}

/* the y column of edge (i, j), i < j, or -1 */
static int edge_col(const mip_cycle *Y, int i, int j)
{
    int lo = Y->start[i], hi = Y->start[i + 1] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (Y->nb[mid] == j) return Y->col[mid];
        if (Y->nb[mid] < j) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
}

typedef struct { double viol; int i, j, k, kind, ord; } cand;

static int by_violation(const void *a, const void *b)
{
    const cand *p = (const cand *) a, *q = (const cand *) b;
    if (p->viol != q->viol) return p->viol < q->viol ? 1 : -1;
    return p->ord < q->ord ? -1 : p->ord > q->ord;   /* ties: the triangle order */
}

/* The at most maxcuts most violated triangle inequalities at the LP solution
 * x (every column: s then y), violation > tol, as rows of 4 or 6 entries:
 * cut r has nz[r] entries cols/coef[6 r ...] and the upper bound rhs[r].
 * Ties in violation keep the triangle order, so the cuts depend only on x.
 * Returns the number of cuts, -1 when out of memory. */
int mip_cycle_separate(const mip_cycle *Y, const double *x, double tol, int maxcuts,
                       int *nz, int *cols, double *coef, double *rhs)
{
    int n = Y->n, nc = 0, cap = 64;
    cand *c = malloc(sizeof(cand) * (size_t) cap);
    if (!c) return -1;
    for (int i = 0; i < n; i++)
        for (int a = Y->start[i]; a < Y->start[i + 1]; a++) {
            int j = Y->nb[a], yij = Y->col[a];
            for (int b = a + 1; b < Y->start[i + 1]; b++) {
                int k = Y->nb[b], yik = Y->col[b], yjk = edge_col(Y, j, k);
                if (yjk < 0) continue;
                double v[4];
                v[0] = x[i] + x[j] + x[k] - x[yij] - x[yik] - x[yjk] - 1.0;
                v[1] = x[yij] + x[yik] - x[yjk] - x[i];
                v[2] = x[yij] + x[yjk] - x[yik] - x[j];
                v[3] = x[yik] + x[yjk] - x[yij] - x[k];
                for (int t = 0; t < 4; t++) {
                    if (v[t] <= tol) continue;
                    if (nc == cap) {
                        cand *c2 = realloc(c, sizeof(cand) * (size_t) cap * 2);
                        if (!c2) { free(c); return -1; }
                        c = c2;
                        cap *= 2;
                    }
                    c[nc] = (cand) {.viol = v[t], .i = i, .j = j, .k = k, .kind = t, .ord = nc};
                    nc++;
                }
            }
        }
    qsort(c, nc, sizeof(cand), by_violation);
    int out = nc < maxcuts ? nc : maxcuts;
    for (int r = 0; r < out; r++) {
        int i = c[r].i, j = c[r].j, k = c[r].k;
        int yij = edge_col(Y, i, j), yik = edge_col(Y, i, k), yjk = edge_col(Y, j, k);
        int *cl = cols + 6 * r;
        double *cf = coef + 6 * r;
        switch (c[r].kind) {
        case 0:
            cl[0] = i; cl[1] = j; cl[2] = k; cl[3] = yij; cl[4] = yik; cl[5] = yjk;
            cf[0] = cf[1] = cf[2] = 1.0; cf[3] = cf[4] = cf[5] = -1.0;
            nz[r] = 6; rhs[r] = 1.0;
            break;
        case 1:
            cl[0] = yij; cl[1] = yik; cl[2] = yjk; cl[3] = i;
            cf[0] = cf[1] = 1.0; cf[2] = cf[3] = -1.0;
            nz[r] = 4; rhs[r] = 0.0;
            break;
        case 2:
            cl[0] = yij; cl[1] = yjk; cl[2] = yik; cl[3] = j;
            cf[0] = cf[1] = 1.0; cf[2] = cf[3] = -1.0;
            nz[r] = 4; rhs[r] = 0.0;
            break;
        default:
            cl[0] = yik; cl[1] = yjk; cl[2] = yij; cl[3] = k;
            cf[0] = cf[1] = 1.0; cf[2] = cf[3] = -1.0;
            nz[r] = 4; rhs[r] = 0.0;
        }
    }
    free(c);
    return out;
}

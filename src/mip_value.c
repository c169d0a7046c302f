/* GumbelMIP: the log-weight v(x) of a configuration and the paper's simple
 * per-factor bound (moved from mip_search.c, issue 19). See mip.c for the
 * model. */
#include <math.h>
#include <string.h>
#include "mip.h"

double mip_value(const mip_value_model *M, const unsigned char *st, double *rowact)
{
    double v = M->c0;
    if (M->kind == 0) {
        for (int i = 0; i < M->n; i++) v += M->node[2 * i + (st[i] & 1)];
        for (int e = 0; e < M->m; e++)
            v += M->edge[4 * e + 2 * (st[M->from[e]] & 1) + (st[M->to[e]] & 1)];
        return v;
    }
    for (int i = 0; i < M->n; i++) if (st[i] & 1) v += M->c[i];
    if (M->nrow) {
        memset(rowact, 0, sizeof(double) * M->nrow);
        for (int k = 0; k < M->nnz; k++) if (st[M->aj[k]] & 1) rowact[M->ai[k]] += M->ax[k];
        for (int r = 0; r < M->nrow; r++) {
            double tol = 1e-9 * (1.0 + fabs(rowact[r]));
            if (rowact[r] < M->rlo[r] - tol || rowact[r] > M->rhi[r] + tol) return R_NegInf;
        }
    }
    return v;
}

/* The paper's A*-like baseline: each factor's largest value consistent with
 * the fixed variables, summed (no consistency across factors). */
double mip_simple_bound(const mip_value_model *M, const unsigned char *st)
{
    double v = M->c0;
    if (M->kind == 0) {
        for (int i = 0; i < M->n; i++) {
            const double *t = M->node + 2 * i;
            v += (st[i] & 2) ? t[st[i] & 1] : fmax(t[0], t[1]);
        }
        for (int e = 0; e < M->m; e++) {
            const double *t = M->edge + 4 * e;
            int a = st[M->from[e]], b = st[M->to[e]];
            double best = R_NegInf;
            for (int ca = 0; ca < 2; ca++) {
                if ((a & 2) && (a & 1) != ca) continue;
                for (int cb = 0; cb < 2; cb++) {
                    if ((b & 2) && (b & 1) != cb) continue;
                    best = fmax(best, t[2 * ca + cb]);
                }
            }
            v += best;
        }
        return v;
    }
    for (int i = 0; i < M->n; i++)
        v += (st[i] & 2) ? ((st[i] & 1) ? M->c[i] : 0.0) : fmax(M->c[i], 0.0);
    return v;
}


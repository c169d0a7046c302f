/* GumbelMIP: the log-weight v(x) of a configuration, the canonical form of a
 * pairwise model's tables and the paper's simple per-factor bound. See
 * mip_search.c for the model. */
#include <math.h>
#include <string.h>
#include "mip.h"

double mip_value(const mip_value_model *M, const unsigned char *st, double *rowact)
{
    double v = M->c0;
    if (M->kind == MIP_KIND_PAIRWISE) {
        for (int i = 0; i < M->n; i++) v += M->node[2 * i + (st[i] & MIP_SIGMA)];
        for (int e = 0; e < M->m; e++)
            v += M->edge[4 * e + 2 * (st[M->from[e]] & MIP_SIGMA) + (st[M->to[e]] & MIP_SIGMA)];
        return v;
    }
    for (int i = 0; i < M->n; i++) if (st[i] & MIP_SIGMA) v += M->c[i];
    if (M->nrow) {
        memset(rowact, 0, sizeof(double) * M->nrow);
        for (int k = 0; k < M->nnz; k++) if (st[M->aj[k]] & MIP_SIGMA) rowact[M->ai[k]] += M->ax[k];
        for (int r = 0; r < M->nrow; r++) {
            double tol = 1e-9 * (1.0 + fabs(rowact[r]));
            if (rowact[r] < M->rlo[r] - tol || rowact[r] > M->rhi[r] + tol) return R_NegInf;
        }
    }
    return v;
}

/* The canonical form v(s) = c0 + a's + sum_e b_e s_i s_j of a pairwise
 * model's tables (a: n, b: m); returns c0 (with M->c0). */
double mip_canonical(const mip_value_model *M, double *a, double *b)
{
    double c0 = M->c0;
    for (int i = 0; i < M->n; i++) { a[i] = M->node[2 * i + 1] - M->node[2 * i]; c0 += M->node[2 * i]; }
    for (int e = 0; e < M->m; e++) {
        const double *t = M->edge + 4 * e;
        c0 += t[0];
        a[M->from[e]] += t[2] - t[0];
        a[M->to[e]] += t[1] - t[0];
        b[e] = t[3] - t[2] - t[1] + t[0];
    }
    return c0;
}

/* The paper's A*-like baseline: each factor's largest value consistent with
 * the fixed variables, summed (no consistency across factors). */
double mip_simple_bound(const mip_value_model *M, const unsigned char *st)
{
    double v = M->c0;
    if (M->kind == MIP_KIND_PAIRWISE) {
        for (int i = 0; i < M->n; i++) {
            const double *t = M->node + 2 * i;
            v += (st[i] & MIP_FIXED) ? t[st[i] & MIP_SIGMA] : fmax(t[0], t[1]);
        }
        for (int e = 0; e < M->m; e++) {
            const double *t = M->edge + 4 * e;
            int a = st[M->from[e]], b = st[M->to[e]];
            double best = R_NegInf;
            for (int ca = 0; ca < 2; ca++) {
                if ((a & MIP_FIXED) && (a & MIP_SIGMA) != ca) continue;
                for (int cb = 0; cb < 2; cb++) {
                    if ((b & MIP_FIXED) && (b & MIP_SIGMA) != cb) continue;
                    best = fmax(best, t[2 * ca + cb]);
                }
            }
            v += best;
        }
        return v;
    }
    for (int i = 0; i < M->n; i++)
        v += (st[i] & MIP_FIXED) ? ((st[i] & MIP_SIGMA) ? M->c[i] : 0.0) : fmax(M->c[i], 0.0);
    return v;
}


/* GumbelMIP: local search and the forced-branching rule that the search
 * (mip_search.c) uses on pairwise models: ICM on v (the dive's target) and
 * the free variable whose flip lowers o(tau) most. */
#include <math.h>
#include "mip.h"

/* ICM on v: flip single variables while v improves (at most 8 sweeps). */
void mip_icm(const mip_value_model *M, unsigned char *x, double *rowact)
{
    double v = mip_value(M, x, rowact);
    for (int sweep = 0; sweep < 8; sweep++) {
        int improved = 0;
        for (int i = 0; i < M->n; i++) {
            x[i] ^= 1;
            double w = mip_value(M, x, rowact);
            if (w > v && (v == R_NegInf || w > v + 1e-12 * (1.0 + fabs(v)))) {
                v = w;
                improved = 1;
            }
            else x[i] ^= 1;
        }
        if (!improved) break;
    }
}

/* Forced branching on an integral LP solution tau of a pairwise model (every
 * min-cut bound): among the free variables where tau differs from sigma,
 * the one whose flip lowers o(tau) most. The inheriting child (x = sigma_x)
 * loses tau, and its bound falls at least to the best configuration without
 * it, which a large single-flip loss suggests is much lower: more pruning.
 * O(n + m). */
int mip_flip_loss_branch(const mip_value_model *M, mip_work *W, const unsigned char *sp,
                          int fallback)
{
    int n = M->n, x = fallback;
    double *dl = W->flip;
    for (int j = 0; j < n; j++) {
        int tj = W->tau[j] > 0.5;
        dl[j] = M->node[2 * j + tj] - M->node[2 * j + 1 - tj];
    }
    for (int e = 0; e < M->m; e++) {
        int a = M->from[e], b = M->to[e], ta = W->tau[a] > 0.5, tb = W->tau[b] > 0.5;
        const double *t = M->edge + 4 * e;
        dl[a] += t[2 * ta + tb] - t[2 * (1 - ta) + tb];
        dl[b] += t[2 * ta + tb] - t[2 * ta + 1 - tb];
    }
    double best = R_NegInf;
    for (int j = 0; j < n; j++)
        if (!(sp[j] & MIP_FIXED) && (W->tau[j] > 0.5) != (sp[j] & MIP_SIGMA) && dl[j] > best) {
            best = dl[j];
            x = j;
        }
    return x;
}

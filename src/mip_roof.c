/* GumbelMIP: the LP bound of any binary pairwise model by roof duality
 * (Hammer, Hansen & Simeone 1984; Boros & Hammer 2002), as one minimum cut
 * on a graph with two nodes per free variable (QPBO; Kolmogorov & Rother
 * 2007).
 *
 * For v(s) = c0 + a's + sum_e b_e s_i s_j with couplings of any sign, take a
 * second copy t of the variables, standing for 1 - s, and split every term
 * into two halves, one written in s and one in t, so that each half is
 * supermodular:
 *   a_i s_i          -> a_i/2 s_i + a_i/2 (1 - t_i)
 *   b s_i s_j, b > 0 -> b/2 s_i s_j + b/2 (1 - t_i)(1 - t_j)
 *   b s_i s_j, b < 0 -> b/2 s_i (1 - t_j) + b/2 (1 - t_i) s_j.
 * The result V(s, t) is an attractive pairwise function of 2n variables with
 * V(s, 1 - s) = v(s), so max V >= max v; its maximum is the roof dual, which
 * equals the local-polytope LP (the compact linearisation of
 * R/mip_problem.R), and a maximiser (s, t) gives the half-integral optimal LP
 * solution tau = (s + 1 - t) / 2. The maximum of V is the attractive model's
 * minimum cut of mip_cut.c, on the same max-flow: a fixed s_i = c fixes
 * t_i = 1 - c, and mip_cut_solve() eliminates both, so a sub-problem's graph
 * has two nodes per free variable. The sub-problem keeps all its states: the
 * bound only prices them. */
#include <math.h>
#include <string.h>
#include "mip.h"

/* The doubled attractive model of a pairwise model (R_alloc). */
mip_roof *mip_roof_from_model(const mip_value_model *M)
{
    int n = M->n, m = M->m, n2 = 2 * n;
    double *a = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
    double *b = (double *) R_alloc(m > 0 ? m : 1, sizeof(double));
    double c0 = mip_canonical(M, a, b);
    double *A = (double *) R_alloc(n2 > 0 ? n2 : 1, sizeof(double));
    double *B = (double *) R_alloc(2 * (size_t) (m > 0 ? m : 1), sizeof(double));
    int *from = (int *) R_alloc(2 * (size_t) (m > 0 ? m : 1), sizeof(int));
    int *to = (int *) R_alloc(2 * (size_t) (m > 0 ? m : 1), sizeof(int));
    double C = c0;
    for (int i = 0; i < n; i++) {
        A[i] = 0.5 * a[i];
        A[n + i] = -0.5 * a[i];
        C += 0.5 * a[i];
    }
    for (int e = 0; e < m; e++) {
        int i = M->from[e], j = M->to[e];
        double h = 0.5 * b[e];
        if (h >= 0) {
            /* h s_i s_j + h (1 - t_i - t_j + t_i t_j) */
            from[2 * e] = i; to[2 * e] = j; B[2 * e] = h;
            from[2 * e + 1] = n + i; to[2 * e + 1] = n + j; B[2 * e + 1] = h;
            C += h;
            A[n + i] -= h;
            A[n + j] -= h;
        } else {
            /* h s_i - h s_i t_j + h s_j - h t_i s_j */
            from[2 * e] = i; to[2 * e] = n + j; B[2 * e] = -h;
            from[2 * e + 1] = n + i; to[2 * e + 1] = j; B[2 * e + 1] = -h;
            A[i] += h;
            A[j] += h;
        }
    }
    mip_roof *R = (mip_roof *) R_alloc(1, sizeof(mip_roof));
    R->n = n;
    R->c0 = C;
    R->tri = NULL;
    R->G = (mip_cut *) R_alloc(1, sizeof(mip_cut));
    mip_cut_build(R->G, n2, 2 * m, from, to, A, B);
    R->st2 = (unsigned char *) R_alloc(n2 > 0 ? n2 : 1, 1);
    R->tau2 = (double *) R_alloc(n2 > 0 ? n2 : 1, sizeof(double));
    return R;
}

/* A copy with its own max-flow arrays and scratch (one per thread). */
mip_roof *mip_roof_clone(const mip_roof *R)
{
    mip_roof *H = (mip_roof *) R_alloc(1, sizeof(mip_roof));
    *H = *R;
    H->G = mip_cut_clone(R->G);
    if (R->tri) H->tri = mip_tri_clone(R->tri);
    int n2 = 2 * R->n;
    H->st2 = (unsigned char *) R_alloc(n2 > 0 ? n2 : 1, 1);
    H->tau2 = (double *) R_alloc(n2 > 0 ? n2 : 1, sizeof(double));
    return H;
}

/* The roof dual (the local-polytope LP value) of the sub-problem st (state
 * bytes, MIP_FIXED and MIP_SIGMA); tau gets its half-integral LP solution
 * (0, 1/2 or 1; the fixed variables' values). */
double mip_roof_solve(mip_roof *R, const unsigned char *st, double *tau)
{
    int n = R->n;
    unsigned char *s2 = R->st2;
    for (int i = 0; i < n; i++) {
        if (st[i] & MIP_FIXED) {
            s2[i] = (unsigned char) (st[i] & MIP_SIGMA_FIXED);
            s2[n + i] = (unsigned char) (MIP_FIXED | (1 - (st[i] & MIP_SIGMA)));
        } else s2[i] = s2[n + i] = 0;
    }
    double val = mip_cut_solve(R->G, s2, R->c0, R->tau2);
    for (int i = 0; i < n; i++) tau[i] = 0.5 * (R->tau2[i] + 1.0 - R->tau2[n + i]);
    return val;
}

/* The bound of the sub-problem st: the roof dual (tau gets its LP solution,
 * as mip_roof_solve()), and, with R->tri, the smaller of it and the
 * triangle bound (mip_tri.c) when the roof dual is above target (the value
 * at which the node is pruned; the triangle bound stops there). */
double mip_roof_bound(mip_roof *R, const unsigned char *st, double target, double *tau)
{
    double val = mip_roof_solve(R, st, tau);
    if (R->tri && val > target) val = fmin(val, mip_tri_bound(R->tri, st, target));
    return val;
}

/* The roof-dual bound of J partial assignments, the columns of the n x J
 * matrix fix (NA free, else 0/1), into out[J]; tau (n x J) gets their
 * half-integral LP solutions. */
void mip_roof_bounds(mip_roof *R, int n, const int *fix, int J, double *out, double *tau)
{
    unsigned char *st = (unsigned char *) R_alloc(n > 0 ? n : 1, 1);
    for (int k = 0; k < J; k++) {
        mip_fix_state(fix + (size_t) k * n, n, st);
        out[k] = mip_roof_solve(R, st, tau + (size_t) k * n);
    }
}

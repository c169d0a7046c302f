/* Pieces of block-Gibbs sampling on the RBM annealing path shared by the AIS
 * (ais.c) and RAISE (raise.c) engines: the two BLAS products on a slice of
 * chains and the Bernoulli draw from logits. */
#include <math.h>
#include <string.h>
#include "logz.h"
#include "kernels.h"

/* X[:, c0:c1) = [W a a0]' V[:, c0:c1) */
void logz_rbm_gemm_x(const logz_rbm_path *m, const double *V, double *X, int c0, int c1)
{
    int nx = m->nh + 2, nv = m->nv, n = c1 - c0;
    double one = 1.0, zero = 0.0;
    if (n <= 0) return;
    F77_CALL(dgemm)("T", "N", &nx, &n, &nv, &one, m->Wx, &nv, V + (size_t) nv * c0, &nv, &zero,
                    X + (size_t) nx * c0, &nx FCONE FCONE);
}

/* Y[:, c0:c1) = W H[:, c0:c1) */
void logz_rbm_gemm_y(const logz_rbm_path *m, const double *H, double *Y, int c0, int c1)
{
    int nh = m->nh, nv = m->nv, n = c1 - c0;
    double one = 1.0, zero = 0.0;
    if (n <= 0) return;
    if (nh == 0) {
        memset(Y + (size_t) nv * c0, 0, sizeof(double) * (size_t) nv * n);
        return;
    }
    F77_CALL(dgemm)("N", "N", &nv, &n, &nh, &one, m->Wx, &nv, H + (size_t) nh * c0, &nh, &zero,
                    Y + (size_t) nv * c0, &nv FCONE FCONE);
}

/* s_j ~ Bern(sigmoid(t_j)) given e_j = exp(-|t_j|) and uniforms u:
 * u < sigmoid(t)  <=>  u (1 + e) < (t >= 0 ? 1 : e). Returns the number of ones.
 * An OpenMP SIMD loop of exact comparisons: every clone gives the same draws. */
LOGZ_CLONES int logz_bernoulli_logit(const double *t, const double *e, const double *u, double *s, int n)
{
    int on = 0;
#pragma omp simd reduction(+:on)
    for (int j = 0; j < n; j++) {
        int v = u[j] * (1.0 + e[j]) < (t[j] >= 0 ? 1.0 : e[j]);
        s[j] = v;
        on += v;
    }
    return on;
}

/* sum_j [max(t1_j, 0) - max(t0_j, 0)] + log prod_j (1 + e1_j) / (1 + e0_j), the
 * change of sum_j softplus(t_j) from t0 to t1 given e = exp(-|t|), over n <=
 * 512 units (each factor is in [1/2, 2], so the products cannot overflow).
 * Eight fixed lanes (unit j in lane j % 8) combined in a fixed order: every
 * clone, whatever its vector width, gives the same bits. */
#define SP_LANES 8
LOGZ_CLONES double logz_softplus_diff(const double *t1, const double *t0, const double *e1,
                                      const double *e0, int n)
{
    double lin[SP_LANES], p1[SP_LANES], p0[SP_LANES];
    for (int l = 0; l < SP_LANES; l++) {
        lin[l] = 0.0;
        p1[l] = p0[l] = 1.0;
    }
    int j = 0;
    for (; j + SP_LANES <= n; j += SP_LANES)
#pragma omp simd
        for (int l = 0; l < SP_LANES; l++) {
            double a = t1[j + l], b = t0[j + l];
            lin[l] += (a > 0 ? a : 0.0) - (b > 0 ? b : 0.0);
            p1[l] *= 1.0 + e1[j + l];
            p0[l] *= 1.0 + e0[j + l];
        }
    for (int l = 0; j < n; j++, l++) {
        double a = t1[j], b = t0[j];
        lin[l] += (a > 0 ? a : 0.0) - (b > 0 ? b : 0.0);
        p1[l] *= 1.0 + e1[j];
        p0[l] *= 1.0 + e0[j];
    }
    double L = 0.0, P1 = 1.0, P0 = 1.0;
    for (int l = 0; l < SP_LANES; l++) {
        L += lin[l];
        P1 *= p1[l];
        P0 *= p0[l];
    }
    return L + log(P1 / P0);
}

/* init + sum_j [softplus(beta1 z_j) - softplus(beta0 z_j)], z_j = b_j + x_j
 * (j < nh), summed in chunks of 512 units added to init in order. On return
 * scr (4 nh doubles) holds t1 = beta1 z, t0 = beta0 z, e1 = exp(-|t1|) and
 * e0 = exp(-|t0|), for the caller's draws and moments. */
double logz_hidden_softplus_change(const double *b, const double *x, int nh, double beta0,
                                   double beta1, double init, double *scr, logz_isa isa)
{
    double *t1 = scr, *t0 = scr + nh, *e1 = scr + 2 * (size_t) nh, *e0 = scr + 3 * (size_t) nh;
    for (int j = 0; j < nh; j++) {
        double z = b[j] + x[j];
        t1[j] = beta1 * z;
        t0[j] = beta0 * z;
    }
    logz_exp_neg_abs_isa(t1, e1, nh, isa);
    logz_exp_neg_abs_isa(t0, e0, nh, isa);
    for (int start = 0; start < nh; start += 512) {
        int n = start + 512 < nh ? 512 : nh - start;
        init += logz_softplus_diff(t1 + start, t0 + start, e1 + start, e0 + start, n);
    }
    return init;
}

/* [W a a0] (nv x (nh + 2), column-major) into Wx. */
void logz_rbm_fill_wx(int nv, int nh, const double *W, const double *a, const double *a0,
                      double *Wx)
{
    memcpy(Wx, W, sizeof(double) * (size_t) nv * nh);
    memcpy(Wx + (size_t) nv * nh, a, sizeof(double) * nv);
    memcpy(Wx + (size_t) nv * (nh + 1), a0, sizeof(double) * nv);
}

/* m from list(W, a, b, a0) for M chains: Wx = [W a a0] copied by R_alloc, the
 * other arrays borrowed from the list. */
void logz_rbm_path_from_list(SEXP model, int M, logz_rbm_path *m)
{
    SEXP W = logz_need(model, "W", REALSXP), a = logz_need(model, "a", REALSXP),
         b = logz_need(model, "b", REALSXP), a0 = logz_need(model, "a0", REALSXP);
    int nv = LENGTH(a), nh = LENGTH(b);
    if ((R_xlen_t) nv * nh != XLENGTH(W) || LENGTH(a0) != nv)
        error("internal error: inconsistent RBM dimensions");
    double *Wx = (double *) R_alloc((size_t) nv * (nh + 2), sizeof(double));
    logz_rbm_fill_wx(nv, nh, REAL(W), REAL(a), REAL(a0), Wx);
    *m = (logz_rbm_path) {.nv = nv, .nh = nh, .M = M, .Wx = Wx, .a = REAL(a), .b = REAL(b),
                          .a0 = REAL(a0)};
}

/* The negative phase of RBM training on persistent simulated-tempering chains
 * (Carlson, Stinson, Pakman & Paninski 2016, Section 4.4). The chains are the
 * RTS engine's (src/rts.c): Gibbs on (v, k) with q(v, k) ∝ f_k(v) r_k / Z_hat_k,
 * f_k = f^beta_k p_1^(1 - beta_k), and they persist across parameter updates.
 * One call runs r->sweeps sweeps (rts_rbm_run(), which also accumulates the
 * Rao-Blackwellized c_hat_k of Eq. 9 that track log Z) and then, from the
 * chains' states v_c, the beta = 1 expectations of the gradient's negative
 * phase, Rao-Blackwellized over the temperature:
 *   E_p[g(v)] = E_q[q(K | v) g(v)] / E_q[q(K | v)],
 * estimated by the self-normalised average over chains with weights
 * w_c = q(K | v_c) (rung K is beta = 1), and with the hidden units summed out,
 * g(v) = (v E[h | v]', v, E[h | v]) at beta = 1. rbm_tempered_call.c is the
 * SEXP glue. */
#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "logz.h"

/* Sweeps of the chains (V: nv x M, updated), then per chain wq = q(K | v) and
 * H = E[h | v] at beta = 1 (nh x M), and the weighted negative statistics
 * Gw = sum_c w_c v_c h_c' / sum_c w_c (nv x nh), ga (nv) and gb (nh) the same
 * of v and h. Per-chain work depends on the chain alone and the sums run in
 * chain order, so the results do not depend on nthreads. */
void rbm_tempered_run(const logz_rbm_path *m, rts_run *r, double *V, logz_stream *st,
                      int nthreads, double *wq, double *H, double *Gw, double *ga, double *gb)
{
    int nv = m->nv, nh = m->nh, M = r->M, K = r->K, nx = nh + 2;
    int nh1 = nh > 0 ? nh : 1;
    rts_rbm_run(m, NULL, NULL, r, V, st, nthreads);
    R_CheckUserInterrupt();
    double *X = (double *) R_alloc((size_t) nx * M, sizeof(double));
    logz_rbm_gemm_x(m, V, X, 0, M);
    size_t per = (size_t) K * nh1 + 2 * (size_t) nh1 + 3 * (size_t) K;
    double *SCR = (double *) R_alloc(per * nthreads, sizeof(double));
    const double *lrz = r->lrz, *betas = r->betas;
    double step = r->step;
#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (int c = 0; c < M; c++) {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        double *E = SCR + per * tid, *z = E + (size_t) K * nh1, *az = z + nh1, *lk = az + nh1;
        double *D = lk + K, *D2 = D + K;
        rbm_ladder(m, betas, K, step, X + (size_t) nx * c, E, z, az, 0, lk, D, D2);
        double mx = -INFINITY, s = 0.0;
        for (int k = 0; k < K; k++) {
            lk[k] += lrz[k];
            if (lk[k] > mx) mx = lk[k];
        }
        for (int k = 0; k < K; k++) s += exp(lk[k] - mx);
        wq[c] = exp(lk[K - 1] - mx) / s;
        double *h = H + (size_t) nh * c;
        for (int j = 0; j < nh; j++) {
            double e = exp(-fabs(z[j]));
            h[j] = z[j] >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
        }
    }
    double sw = 0.0;
    for (int c = 0; c < M; c++) sw += wq[c];
    double *Vw = (double *) R_alloc((size_t) nv * M, sizeof(double));
    for (int i = 0; i < nv; i++) ga[i] = 0.0;
    for (int j = 0; j < nh; j++) gb[j] = 0.0;
    for (int c = 0; c < M; c++) {
        double w = wq[c] / sw;
        const double *v = V + (size_t) nv * c, *h = H + (size_t) nh * c;
        double *vw = Vw + (size_t) nv * c;
        for (int i = 0; i < nv; i++) {
            vw[i] = w * v[i];
            ga[i] += vw[i];
        }
        for (int j = 0; j < nh; j++) gb[j] += w * h[j];
    }
    if (nh > 0) {
        double one = 1.0, zero = 0.0;
        F77_CALL(dgemm)("N", "T", &nv, &nh, &M, &one, Vw, &nv, H, &nh, &zero, Gw, &nv
                        FCONE FCONE);
    }
}

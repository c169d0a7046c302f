/* Gaussian-process probit classification: AIS from the prior N(f; 0, K) to the
 * posterior with an elliptical slice sampling kernel (Murray, Adams & MacKay
 * 2010). The tempered targets are N(f; 0, K) prod_i Phi(y_i f_i)^beta. The
 * SEXP glue is gpc_call.c. */
#include <math.h>
#include <string.h>
#include <Rmath.h>
#include "logz.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* sum_i log Phi(y_i f_i) */
double gpc_log_lik(const double *y, const double *f, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += pnorm(y[i] * f[i], 0.0, 1.0, 1, 1);
    return s;
}

/* One elliptical slice sampling update of f (length n) for the target
 * N(f; 0, K) exp(beta * ll(f)), given a prior draw nu ~ N(0, K) and the current
 * log-likelihood *ll. fp: work space (n). Returns the number of likelihood
 * evaluations. */
static int gpc_ess_update(const double *y, int n, double beta, double *f, const double *nu,
                          double *ll, double *fp, logz_stream *st)
{
    double log_y = beta * (*ll) + log(logz_stream_unif(st));
    double theta = 2.0 * M_PI * logz_stream_unif(st);
    double lo = theta - 2.0 * M_PI, hi = theta;
    int evals = 0;
    for (;;) {
        double c = cos(theta), s = sin(theta);
        for (int i = 0; i < n; i++) fp[i] = f[i] * c + nu[i] * s;
        double l = gpc_log_lik(y, fp, n);
        evals++;
        if (beta * l > log_y || theta == 0.0) {
            memcpy(f, fp, sizeof(double) * n);
            *ll = l;
            return evals;
        }
        if (theta < 0.0) lo = theta; else hi = theta;
        theta = lo + (hi - lo) * logz_stream_unif(st);
    }
}

/* AIS steps betas[1..L] from betas[0] for the M chains F (n x M; drawn from
 * the prior f = A u when first), log weights log_w updated in place; each
 * step's weight update, then (but after the last step when final) `sweeps`
 * elliptical slice sweeps, an interrupt check after each. trace (L x 2): ESS
 * and running log Z. Returns 0; *sweeps_made and *evals count the sweeps and
 * likelihood evaluations. */
int gpc_ais_run(const gpc_ais_opts *o, int first, double *f, double *w, logz_stream *st,
                double *trace, int *sweeps_made, double *evals_out)
{
    int n = o->n, M = o->M, L = o->L, nthreads = o->nthreads, sweeps = o->sweeps;
    const double *y = o->y, *Am = o->A, *betas = o->betas;
    double *U = (double *) R_alloc((size_t) n * M, sizeof(double));
    double *NU = (double *) R_alloc((size_t) n * M, sizeof(double));
    double *fp = (double *) R_alloc((size_t) n * nthreads, sizeof(double));
    double *ll = (double *) R_alloc((size_t) M, sizeof(double));
    double *hist = (double *) R_alloc((size_t) (L > 0 ? L : 1) * M, sizeof(double));
    double one = 1.0, zero = 0.0;
    double evals = 0.0;
    int ns = 0;

    /* a prior draw f = A u for every chain */
    if (first) {
        for (int c = 0; c < M; c++)
            for (int i = 0; i < n; i++) U[(size_t) n * c + i] = logz_stream_norm(&st[c]);
        F77_CALL(dgemm)("N", "N", &n, &M, &n, &one, Am, &n, U, &n, &zero, f, &n FCONE FCONE);
    }
    for (int c = 0; c < M; c++) ll[c] = gpc_log_lik(y, f + (size_t) n * c, n);

    for (int k = 1; k <= L; k++) {
        double b0 = betas[k - 1], b1 = betas[k];
        for (int c = 0; c < M; c++) {
            w[c] += (b1 - b0) * ll[c];
            hist[(size_t) (k - 1) * M + c] = w[c];
        }
        if (o->final && k == L) break;
        for (int sw = 0; sw < sweeps; sw++) {
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
            for (int c = 0; c < M; c++)
                for (int i = 0; i < n; i++) U[(size_t) n * c + i] = logz_stream_norm(&st[c]);
            F77_CALL(dgemm)("N", "N", &n, &M, &n, &one, Am, &n, U, &n, &zero, NU, &n
                            FCONE FCONE);
            double ev = 0.0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static) reduction(+:ev)
#endif
            for (int c = 0; c < M; c++) {
                int tid = 0;
#ifdef _OPENMP
                tid = omp_get_thread_num();
#endif
                ev += gpc_ess_update(y, n, b1, f + (size_t) n * c, NU + (size_t) n * c, &ll[c],
                                     fp + (size_t) n * tid, &st[c]);
            }
            evals += ev;
            ns++;
            R_CheckUserInterrupt();   /* master thread, between parallel sweeps */
        }
    }
    if (L > 0) logz_ais_trace(hist, L, M, o->log_z0, trace);
    *sweeps_made = ns;
    *evals_out = evals;
    return 0;
}

/* Annealed importance sampling for binary RBMs (Neal 2001; Salakhutdinov &
 * Murray 2008) on the path with the hidden units summed out:
 *   log f_beta(v) = (1-beta) v'a0 + beta v'a + sum_j softplus(beta (b_j + v'W_j)),
 * from the product-of-Bernoullis base (visible biases a0) to the RBM (W, a, b).
 * For k = 1..K: log w += log f_{beta_k}(v) - log f_{beta_{k-1}}(v), then (k < K)
 * a block-Gibbs transition at beta_k: h ~ Bern(sigmoid(beta_k (b + W'v))),
 * v ~ Bern(sigmoid((1-beta_k) a0 + beta_k (a + W h))).
 *
 * All chains move together: X = [W a a0]' V is one dgemm (the extra columns
 * give v'a and v'a0 for free) and serves both the weight update and the hidden
 * draw; Y = W H is the second dgemm. Per-unit work (exp, uniforms) runs over
 * chains in OpenMP threads, each chain with its own MRG32k3a stream, so the
 * result is the same for any thread count. The R side calls this in chunks of
 * betas, carrying the state (V, log_w, streams) between calls, for progress
 * reporting and interrupts. */
#include <math.h>
#include <string.h>
#include "logz.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define PROD_CHUNK 512

typedef struct {
    int nv, nh, M;
    const double *Wx;   /* nv x (nh + 2): [W, a, a0] */
    const double *a, *b, *a0;
} ais_rbm_model;

/* Weight increment of one chain from beta0 to beta1 (x: its column of X) and,
 * if h != NULL, a draw of the hidden units at beta1. */
static double hidden_weight_draw(const ais_rbm_model *m, const double *x, double beta0,
                                 double beta1, double *h, logz_stream *st)
{
    int nh = m->nh;
    double lin = (beta1 - beta0) * (x[nh] - x[nh + 1]), lg = 0.0;
    for (int start = 0; start < nh; start += PROD_CHUNK) {
        int end = start + PROD_CHUNK < nh ? start + PROD_CHUNK : nh;
        double p1 = 1.0, p0 = 1.0;
        for (int j = start; j < end; j++) {
            double z = m->b[j] + x[j], t1 = beta1 * z, t0 = beta0 * z;
            double e1 = exp(-fabs(t1)), e0 = exp(-fabs(t0));
            lin += (t1 > 0 ? t1 : 0.0) - (t0 > 0 ? t0 : 0.0);
            p1 *= 1.0 + e1;
            p0 *= 1.0 + e0;
            if (h) {
                /* u < sigmoid(t1)  <=>  u (1 + e1) < (t1 >= 0 ? 1 : e1) */
                double u = logz_stream_unif(st);
                h[j] = u * (1.0 + e1) < (t1 >= 0 ? 1.0 : e1) ? 1.0 : 0.0;
            }
        }
        lg += log(p1 / p0);
    }
    return lin + lg;
}

static void hidden_draw(const ais_rbm_model *m, const double *x, double beta, double *h,
                        logz_stream *st)
{
    for (int j = 0; j < m->nh; j++) {
        double t = beta * (m->b[j] + x[j]), e = exp(-fabs(t));
        double u = logz_stream_unif(st);
        h[j] = u * (1.0 + e) < (t >= 0 ? 1.0 : e) ? 1.0 : 0.0;
    }
}

/* v ~ Bern(sigmoid(c0 + beta * y)) with c0 = (1-beta) a0 + beta a. */
static void visible_draw(int nv, const double *c0, const double *y, double beta, double *v,
                         logz_stream *st)
{
    for (int i = 0; i < nv; i++) {
        double t = c0[i] + beta * y[i], e = exp(-fabs(t));
        double u = logz_stream_unif(st);
        v[i] = u * (1.0 + e) < (t >= 0 ? 1.0 : e) ? 1.0 : 0.0;
    }
}

static void gemm_x(const ais_rbm_model *m, const double *V, double *X)
{
    int nx = m->nh + 2, nv = m->nv, M = m->M;
    double one = 1.0, zero = 0.0;
    F77_CALL(dgemm)("T", "N", &nx, &M, &nv, &one, m->Wx, &nv, V, &nv, &zero, X, &nx FCONE FCONE);
}

static void gemm_y(const ais_rbm_model *m, const double *H, double *Y)
{
    int nh = m->nh, nv = m->nv, M = m->M;
    double one = 1.0, zero = 0.0;
    F77_CALL(dgemm)("N", "N", &nv, &M, &nh, &one, m->Wx, &nv, H, &nh, &zero, Y, &nv FCONE FCONE);
}

/* Run steps betas[1..L] from betas[0]. Work buffers X, H, Y, c0 are supplied.
 * trace (L x 2, column-major): ESS and running log Z estimate after each step.
 * Returns the number of Gibbs sweeps (transitions) made per chain. */
static int ais_rbm_run(const ais_rbm_model *m, const double *betas, int L, int final,
                       int sweeps, double log_z0, double *V, double *logw,
                       logz_stream *st, int nthreads, double *X, double *H, double *Y,
                       double *c0, double *trace)
{
    int nv = m->nv, nh = m->nh, M = m->M, nx = nh + 2, nsweep = 0;
    for (int k = 1; k <= L; k++) {
        double b0 = betas[k - 1], b1 = betas[k];
        int transition = !(final && k == L);
        gemm_x(m, V, X);
        for (int i = 0; i < nv; i++) c0[i] = (1.0 - b1) * m->a0[i] + b1 * m->a[i];
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
        for (int c = 0; c < M; c++)
            logw[c] += hidden_weight_draw(m, X + (size_t) nx * c, b0, b1,
                                          transition ? H + (size_t) nh * c : NULL, &st[c]);
        /* trace: ESS = (sum w)^2 / sum w^2 and the running estimate */
        double mx = R_NegInf, s1 = 0.0, s2 = 0.0;
        for (int c = 0; c < M; c++) if (logw[c] > mx) mx = logw[c];
        for (int c = 0; c < M; c++) {
            double w = exp(logw[c] - mx);
            s1 += w;
            s2 += w * w;
        }
        trace[k - 1] = s1 * s1 / s2;
        trace[L + k - 1] = log_z0 + mx + log(s1) - log((double) M);
        if (!transition) break;
        for (int sw = 0; sw < sweeps; sw++) {
            if (sw > 0) {
                gemm_x(m, V, X);
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
                for (int c = 0; c < M; c++)
                    hidden_draw(m, X + (size_t) nx * c, b1, H + (size_t) nh * c, &st[c]);
            }
            gemm_y(m, H, Y);
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
            for (int c = 0; c < M; c++)
                visible_draw(nv, c0, Y + (size_t) nv * c, b1, V + (size_t) nv * c, &st[c]);
            nsweep++;
        }
        if (k % 64 == 0) R_CheckUserInterrupt();
    }
    return nsweep;
}

static SEXP need(SEXP list, const char *name, SEXPTYPE type)
{
    SEXP x = logz_get(list, name);
    if (TYPEOF(x) != type) error("internal error: '%s' missing or of the wrong type", name);
    return x;
}

/* model: list(W, a, b, a0); state: list(V or NULL, log_w, streams);
 * control: list(threads, sweeps, final, log_z0). */
SEXP ais_rbm_call(SEXP model, SEXP betas, SEXP state, SEXP control)
{
    SEXP W = need(model, "W", REALSXP), a = need(model, "a", REALSXP),
         b = need(model, "b", REALSXP), a0 = need(model, "a0", REALSXP);
    int nv = LENGTH(a), nh = LENGTH(b);
    if ((R_xlen_t) nv * nh != XLENGTH(W) || LENGTH(a0) != nv)
        error("internal error: inconsistent RBM dimensions");
    SEXP lw = need(state, "log_w", REALSXP), streams = need(state, "streams", REALSXP);
    SEXP V0 = logz_get(state, "V");
    int M = LENGTH(lw);
    if (XLENGTH(streams) != 6 * (R_xlen_t) M) error("internal error: bad streams");
    if (!isNull(V0) && (TYPEOF(V0) != REALSXP || XLENGTH(V0) != (R_xlen_t) nv * M))
        error("internal error: bad chain state");
    if (TYPEOF(betas) != REALSXP || LENGTH(betas) < 1) error("internal error: bad betas");
    int L = LENGTH(betas) - 1;
    int nthreads = logz_threads(asInteger(need(control, "threads", INTSXP)));
    int sweeps = asInteger(need(control, "sweeps", INTSXP));
    int final = asLogical(need(control, "final", LGLSXP));
    double log_z0 = asReal(need(control, "log_z0", REALSXP));
    if (sweeps < 1) error("internal error: sweeps < 1");

    ais_rbm_model m;
    m.nv = nv; m.nh = nh; m.M = M;
    m.a = REAL(a); m.b = REAL(b); m.a0 = REAL(a0);
    double *Wx = (double *) R_alloc((size_t) nv * (nh + 2), sizeof(double));
    memcpy(Wx, REAL(W), sizeof(double) * (size_t) nv * nh);
    memcpy(Wx + (size_t) nv * nh, REAL(a), sizeof(double) * nv);
    memcpy(Wx + (size_t) nv * (nh + 1), REAL(a0), sizeof(double) * nv);
    m.Wx = Wx;

    logz_stream *st = (logz_stream *) R_alloc((size_t) M, sizeof(logz_stream));
    if (!logz_streams_from_double(M, REAL(streams), st))
        error("internal error: stream state out of range");

    const char *names[] = {"V", "log_w", "streams", "trace", "sweeps", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP V = allocMatrix(REALSXP, nv, M);
    SET_VECTOR_ELT(out, 0, V);
    SEXP logw = allocVector(REALSXP, M);
    SET_VECTOR_ELT(out, 1, logw);
    memcpy(REAL(logw), REAL(lw), sizeof(double) * M);
    if (isNull(V0)) {
        /* v ~ the base model: independent Bernoulli(sigmoid(a0_i)) */
        for (int c = 0; c < M; c++)
            for (int i = 0; i < nv; i++) {
                double p = 1.0 / (1.0 + exp(-REAL(a0)[i]));
                REAL(V)[i + (size_t) nv * c] = logz_stream_unif(&st[c]) < p ? 1.0 : 0.0;
            }
    } else {
        memcpy(REAL(V), REAL(V0), sizeof(double) * (size_t) nv * M);
    }
    SEXP trace = allocMatrix(REALSXP, L, 2);
    SET_VECTOR_ELT(out, 3, trace);
    if (L > 0) {
        double *X = (double *) R_alloc((size_t) (nh + 2) * M, sizeof(double));
        double *H = (double *) R_alloc((size_t) nh * M, sizeof(double));
        double *Y = (double *) R_alloc((size_t) nv * M, sizeof(double));
        double *c0 = (double *) R_alloc((size_t) nv, sizeof(double));
        int ns = ais_rbm_run(&m, REAL(betas), L, final, sweeps, log_z0, REAL(V), REAL(logw),
                             st, nthreads, X, H, Y, c0, REAL(trace));
        SET_VECTOR_ELT(out, 4, ScalarInteger(ns));
    } else {
        SET_VECTOR_ELT(out, 4, ScalarInteger(0));
    }
    SEXP so = allocMatrix(REALSXP, 6, M);
    SET_VECTOR_ELT(out, 2, so);
    logz_streams_to_double(M, st, REAL(so));
    UNPROTECT(1);
    return out;
}

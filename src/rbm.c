/* Exact log partition function of a binary RBM by enumerating one layer.
 *
 * With the `ne` units of one layer enumerated (biases be) and the other layer
 * (size no, biases bo) summed out analytically,
 *   log Z = log sum_e exp( e'be + sum_o softplus(bo_o + (Wt e)_o) ).
 * States are visited in Gray-code order so each step adds or subtracts one
 * column of Wt (no BLAS inside threads); the accumulator is recomputed from
 * scratch every RESYNC states to bound rounding drift. Each thread owns a
 * contiguous block of states and a streaming log-sum-exp; blocks are merged in
 * a fixed order, so the result does not depend on the thread count beyond
 * rounding of the final merge. */
#include <math.h>
#include <stdlib.h>
#include "logz.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define RESYNC 4096
#define PROD_CHUNK 512

/* sum_o softplus(x_o) = sum_o max(x_o, 0) + log prod_o (1 + exp(-|x_o|));
 * each factor is in (1, 2], so a product over PROD_CHUNK factors is finite. */
static double sum_softplus(const double *x, int n)
{
    double lin = 0.0, lg = 0.0;
    for (int start = 0; start < n; start += PROD_CHUNK) {
        int end = start + PROD_CHUNK < n ? start + PROD_CHUNK : n;
        double prod = 1.0;
        for (int o = start; o < end; o++) {
            double v = x[o];
            if (v > 0) lin += v;
            prod *= 1.0 + exp(-fabs(v));
        }
        lg += log(prod);
    }
    return lin + lg;
}

static void set_state(uint64_t g, int ne, int no, const double *Wt, const double *be,
                      const double *bo, double *acc, double *lin_e)
{
    double le = 0.0;
    for (int o = 0; o < no; o++) acc[o] = bo[o];
    for (int e = 0; e < ne; e++)
        if ((g >> e) & 1ULL) {
            const double *col = Wt + (size_t) e * no;
            for (int o = 0; o < no; o++) acc[o] += col[o];
            le += be[e];
        }
    *lin_e = le;
}

/* Block [from, to) of Gray-code indices; returns (max, sum) for log-sum-exp. */
static void enum_block(uint64_t from, uint64_t to, int ne, int no, const double *Wt,
                       const double *be, const double *bo, double *acc,
                       double *out_max, double *out_sum)
{
    double m = R_NegInf, s = 0.0, le = 0.0;
    uint64_t g = from ^ (from >> 1);
    set_state(g, ne, no, Wt, be, bo, acc, &le);
    for (uint64_t i = from; i < to; i++) {
        if (i > from) {
            if ((i - from) % RESYNC == 0) {
                g = i ^ (i >> 1);
                set_state(g, ne, no, Wt, be, bo, acc, &le);
            } else {
                /* Gray code: state i differs from i-1 in bit ctz(i). */
                int bit = __builtin_ctzll(i);
                const double *col = Wt + (size_t) bit * no;
                g ^= 1ULL << bit;
                if ((g >> bit) & 1ULL) {
                    for (int o = 0; o < no; o++) acc[o] += col[o];
                    le += be[bit];
                } else {
                    for (int o = 0; o < no; o++) acc[o] -= col[o];
                    le -= be[bit];
                }
            }
        }
        double val = le + sum_softplus(acc, no);
        if (val > m) {
            s = s * exp(m - val) + 1.0;
            m = val;
        } else {
            s += exp(val - m);
        }
    }
    *out_max = m;
    *out_sum = s;
}

typedef struct {
    int ne, no;
    const double *Wt, *be, *bo;
    double *acc, *bmax, *bsum;
} rbm_enum_ctx;

static void rbm_enum_block(int blk, uint64_t from, uint64_t to, int tid, void *ctx)
{
    rbm_enum_ctx *c = (rbm_enum_ctx *) ctx;
    enum_block(from, to, c->ne, c->no, c->Wt, c->be, c->bo, c->acc + (size_t) tid * c->no,
               &c->bmax[blk], &c->bsum[blk]);
}

double rbm_exact_log_z(int ne, int no, const double *Wt, const double *be,
                       const double *bo, int nthreads)
{
    uint64_t total = 1ULL << ne;
    /* per state: a softplus of each of the `no` units (about 8 operations) */
    int nblocks = logz_enum_blocks(total, 8.0 * no, 64, 1 << 20);
    rbm_enum_ctx c = {
        .ne = ne, .no = no, .Wt = Wt, .be = be, .bo = bo,
        .acc = (double *) R_alloc((size_t) no * (size_t) nthreads + 1, sizeof(double)),
        .bmax = (double *) R_alloc((size_t) nblocks, sizeof(double)),
        .bsum = (double *) R_alloc((size_t) nblocks, sizeof(double))};
    logz_for_blocks(total, nblocks, nthreads, rbm_enum_block, &c);
    return logz_merge_blocks(c.bmax, c.bsum, nblocks, NULL);
}

/* layer: the enumerated layer, a logz_rbm_layer. */
SEXP rbm_exact_log_z_call(SEXP W, SEXP a, SEXP b, SEXP layer, SEXP threads)
{
    if (TYPEOF(W) != REALSXP || TYPEOF(a) != REALSXP || TYPEOF(b) != REALSXP)
        error("internal error: rbm parameters must be double");
    int nv = LENGTH(a), nh = LENGTH(b);
    if ((R_xlen_t) nv * nh != XLENGTH(W)) error("internal error: W has the wrong size");
    int lay = asInteger(layer), nthreads = logz_threads(asInteger(threads));
    if (lay != LOGZ_LAYER_HIDDEN && lay != LOGZ_LAYER_VISIBLE) error("internal error: bad layer");
    int hidden = lay == LOGZ_LAYER_HIDDEN;
    int ne = hidden ? nh : nv, no = hidden ? nv : nh;
    if (ne > 40) error("internal error: too many states to enumerate");
    const double *Wt;
    if (hidden) {
        Wt = REAL(W);                 /* nv x nh: columns are hidden units */
    } else {
        double *T = (double *) R_alloc((size_t) nv * nh, sizeof(double));
        for (int i = 0; i < nv; i++)
            for (int j = 0; j < nh; j++) T[j + (size_t) nh * i] = REAL(W)[i + (size_t) nv * j];
        Wt = T;                       /* nh x nv: columns are visible units */
    }
    double lz = rbm_exact_log_z(ne, no, Wt, hidden ? REAL(b) : REAL(a), hidden ? REAL(a) : REAL(b),
                                nthreads);
    return ScalarReal(lz);
}

/* Products of weights with 0/1 state vectors: out = sum of the weight columns
 * of the active units. RBM and Ising states are binary and often sparse, so a
 * product needs only additions. The weights are stored in row blocks of
 * LOGZ_BLK (one block's rows for every column contiguous) so a block stays in
 * cache while every chain of a thread uses it. Two kernels:
 *   gather: per chain, the listed columns summed into registers (a product
 *     from scratch or an update from the units that flipped);
 *   group: a group of chains at once, every column that is active in any of
 *     them loaded once and added into each chain's sum with weight s (0 or 1).
 * Both sum each output element over its active columns in ascending order
 * from +0, and s * w is exact for s in {0, 1} (a fused multiply-add rounds it
 * like the addition), so both kernels, every group size and every instruction
 * set (kernels.h) give the same bits. The weights must be finite. */
#include <string.h>
#include "logz.h"
#include "kernels.h"

/* M is rows x cols; ld_rows_first = 1: column-major M[r + rows * k];
 * 0: M given transposed (cols x rows, column-major), i.e. M[k + cols * r]. */
size_t logz_blocked_size(int rows, int cols)
{
    return (size_t) ((rows + LOGZ_BLK - 1) / LOGZ_BLK) * cols * LOGZ_BLK;
}

/* store: logz_blocked_size(rows, cols) doubles. Also fixes the instruction
 * set of the products with B (call outside parallel regions). */
void logz_blocked_init(logz_blocked *B, const double *M, int rows, int cols, int ld_rows_first,
                       double *store, int fill)
{
    B->rows = rows;
    B->cols = cols;
    B->nblk = (rows + LOGZ_BLK - 1) / LOGZ_BLK;
    B->isa = (int) logz_isa_select();
    size_t sz = logz_blocked_size(rows, cols);
    B->blk = store;
    if (!fill) return;
    memset(B->blk, 0, sizeof(double) * sz);
    for (int b = 0; b < B->nblk; b++)
        for (int k = 0; k < cols; k++)
            for (int r = 0; r < LOGZ_BLK; r++) {
                int row = b * LOGZ_BLK + r;
                if (row >= rows) break;
                B->blk[((size_t) b * cols + k) * LOGZ_BLK + r] =
                    ld_rows_first ? M[row + (size_t) rows * k] : M[k + (size_t) cols * row];
            }
}

/* acc (LOGZ_BLK) into rows r0.. of out: overwrite or add, n rows valid */
static void store_block(const double *acc, double *out, int n, int overwrite)
{
    if (overwrite)
        for (int r = 0; r < n; r++) out[r] = acc[r];
    else
        for (int r = 0; r < n; r++) out[r] += acc[r];
}

#define PREFETCH_AHEAD(list, t, n)                                                   \
    if ((t) + 4 < (n)) {   /* columns are scattered: fetch ahead of use */          \
        const double *nxt = base + (size_t) (list)[(t) + 4] * LOGZ_BLK;             \
        __builtin_prefetch(nxt); __builtin_prefetch(nxt + 8);                        \
        __builtin_prefetch(nxt + 16); __builtin_prefetch(nxt + 24);                  \
    }

/* ---- gather: one chain, acc = sum of the plus columns - the minus ones ---- */
#define GATHER_BODY(VT, VL)                                                          \
    VT s[LOGZ_BLK / VL];                                                             \
    LOGZ_UNROLL for (int i = 0; i < LOGZ_BLK / VL; i++) s[i] = (VT) {0}; \
    for (int t = 0; t < np; t++) {                                                   \
        const double *col = base + (size_t) plus[t] * LOGZ_BLK;                      \
        PREFETCH_AHEAD(plus, t, np)                                                  \
        LOGZ_UNROLL for (int i = 0; i < LOGZ_BLK / VL; i++) {            \
            VT c;                                                                    \
            memcpy(&c, col + i * VL, sizeof c);                                      \
            s[i] += c;                                                               \
        }                                                                            \
    }                                                                                \
    for (int t = 0; t < nm; t++) {                                                   \
        const double *col = base + (size_t) minus[t] * LOGZ_BLK;                     \
        PREFETCH_AHEAD(minus, t, nm)                                                 \
        LOGZ_UNROLL for (int i = 0; i < LOGZ_BLK / VL; i++) {            \
            VT c;                                                                    \
            memcpy(&c, col + i * VL, sizeof c);                                      \
            s[i] -= c;                                                               \
        }                                                                            \
    }                                                                                \
    memcpy(acc, s, sizeof(double) * LOGZ_BLK);

#if defined(__GNUC__)
typedef double logz_v2d __attribute__((vector_size(16)));
typedef double logz_v4d __attribute__((vector_size(32)));
typedef double logz_v8d __attribute__((vector_size(64)));
#endif
#if LOGZ_DISPATCH
LOGZ_TARGET_AVX512 static void gather_avx512(const double *base, const int *plus, int np,
                                             const int *minus, int nm, double *acc)
{
    GATHER_BODY(logz_v8d, 8)
}
LOGZ_TARGET_AVX2 static void gather_avx2(const double *base, const int *plus, int np,
                                         const int *minus, int nm, double *acc)
{
    GATHER_BODY(logz_v4d, 4)
}
#endif

static void gather_portable(const double *base, const int *plus, int np, const int *minus,
                            int nm, double *acc)
{
#if defined(__GNUC__)
    GATHER_BODY(logz_v2d, 2)
#else
    for (int r = 0; r < LOGZ_BLK; r++) acc[r] = 0.0;
    for (int t = 0; t < np; t++) {
        const double *col = base + (size_t) plus[t] * LOGZ_BLK;
        for (int r = 0; r < LOGZ_BLK; r++) acc[r] += col[r];
    }
    for (int t = 0; t < nm; t++) {
        const double *col = base + (size_t) minus[t] * LOGZ_BLK;
        for (int r = 0; r < LOGZ_BLK; r++) acc[r] -= col[r];
    }
#endif
}

/* For one block of rows: acc = sum of the columns in `plus` - sum of those in
 * `minus`; then out = acc (overwrite) or out += acc (an incremental update from
 * the units that switched on and off since out was computed). */
void logz_blocked_accumulate(const logz_blocked *B, int blk, const int *plus, int np,
                             const int *minus, int nm, double *out, int overwrite)
{
    double acc[LOGZ_BLK];
    const double *base = B->blk + (size_t) blk * B->cols * LOGZ_BLK;
    switch (B->isa) {
#if LOGZ_DISPATCH
    case LOGZ_ISA_AVX512: gather_avx512(base, plus, np, minus, nm, acc); break;
    case LOGZ_ISA_AVX2: gather_avx2(base, plus, np, minus, nm, acc); break;
#endif
    default: gather_portable(base, plus, np, minus, nm, acc);
    }
    int r0 = blk * LOGZ_BLK, n = B->rows - r0 < LOGZ_BLK ? B->rows - r0 : LOGZ_BLK;
    store_block(acc, out + r0, n, overwrite);
}

/* ---- group: G chains, rows in passes of RS, over the union columns ------- */
/* s[g]: state of chain g (cols); acc: G x LOGZ_BLK, overwritten. */
#define GROUP_BODY(VT, VL, G, RS)                                                    \
    for (int r0 = 0; r0 < LOGZ_BLK; r0 += RS) {                                      \
        VT a[G][RS / VL];                                                            \
        LOGZ_UNROLL for (int g = 0; g < G; g++)                         \
            LOGZ_UNROLL for (int i = 0; i < RS / VL; i++) a[g][i] = (VT) {0}; \
        for (int t = 0; t < nu; t++) {                                               \
            int k = uni[t];                                                          \
            const double *col = base + (size_t) k * LOGZ_BLK + r0;                   \
            VT c[RS / VL];                                                           \
            LOGZ_UNROLL for (int i = 0; i < RS / VL; i++)                \
                memcpy(&c[i], col + i * VL, sizeof(VT));                             \
            LOGZ_UNROLL for (int g = 0; g < G; g++) {                   \
                VT sv = (VT) {0} + s[g][k];                                          \
                LOGZ_UNROLL for (int i = 0; i < RS / VL; i++)            \
                    a[g][i] += c[i] * sv;                                            \
            }                                                                        \
        }                                                                            \
        LOGZ_UNROLL for (int g = 0; g < G; g++)                         \
            memcpy(acc + (size_t) g * LOGZ_BLK + r0, a[g], sizeof(double) * RS);     \
    }

#define GROUP_MAX 6
#if LOGZ_DISPATCH
LOGZ_TARGET_AVX512 static void group_avx512(const double *base, const int *uni, int nu,
                                            const double *const *s, double *acc)
{
    GROUP_BODY(logz_v8d, 8, 6, 32)
}
LOGZ_TARGET_AVX2 static void group_avx2(const double *base, const int *uni, int nu,
                                        const double *const *s, double *acc)
{
    GROUP_BODY(logz_v4d, 4, 2, 16)
}
#endif

static void group_portable(const double *base, const int *uni, int nu, const double *const *s,
                           double *acc)
{
#if defined(__GNUC__)
    GROUP_BODY(logz_v2d, 2, 2, 8)
#else
    for (int r0 = 0; r0 < LOGZ_BLK; r0 += 8)
        for (int g = 0; g < 2; g++) {
            double a[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            for (int t = 0; t < nu; t++) {
                int k = uni[t];
                const double *col = base + (size_t) k * LOGZ_BLK + r0;
                double sv = s[g][k];
                for (int r = 0; r < 8; r++) a[r] += col[r] * sv;
            }
            memcpy(acc + (size_t) g * LOGZ_BLK + r0, a, sizeof a);
        }
#endif
}

static int group_size(int isa)
{
    return isa == LOGZ_ISA_AVX512 ? 6 : 2;
}

/* The next (at most G) chains c with full[c] from *c on; advances *c past them. */
static int next_group(const int *full, int *c, int c1, int G, int *idx)
{
    int ng = 0;
    for (; *c < c1 && ng < G; (*c)++)
        if (full[*c]) idx[ng++] = *c;
    return ng;
}

/* Whether the group kernel beats gathering each chain's columns for a group
 * whose union has nu columns and whose chains have `on` active ones in all: the
 * group kernel loads each union column once for the group, the gather one
 * active column per chain but from scattered places (measured crossovers). */
static int group_pays(int isa, int nu, int on)
{
    return isa == LOGZ_ISA_AVX512 ? 2 * nu < on : 4 * nu < on;
}

/* out[:, c0:c1) = B S[:, c0:c1) for binary S (cols x M). Per chain, either an
 * update of the previous product from the units that flipped since, when
 * have_prev and they are few (fewer than the chain's on[c] active units and
 * than a sixth of the columns), or a product from scratch (by the group kernel
 * or gathered, whichever is cheaper: the same bits). The choice of update or
 * product depends on the chain alone, so results do not depend on the thread
 * count or the instruction set. Rows c of plus/minus (stride ld >= cols) and
 * np, nm hold the flips on entry; a product from scratch uses them as scratch
 * and leaves them undefined. full[c] (M) is set to 1 for a product from
 * scratch. Block-outer loops keep a block of weights cached over the chains. */
void logz_binary_product(const logz_blocked *B, const double *S, double *out, int c0, int c1,
                         int *plus, int *minus, int ld, int *np, int *nm, const int *on,
                         int have_prev, int *full)
{
    int rows = B->rows, cols = B->cols, G = group_size(B->isa), idx[GROUP_MAX], ng;
    for (int c = c0; c < c1; c++) {
        int flips = np[c] + nm[c];
        full[c] = !have_prev || flips >= on[c] || 6 * flips >= cols;
    }
    /* per group of full chains: each chain's active columns in its plus row,
     * their number in its np and nm = 0; then, if the group kernel pays, the
     * columns active in any of them in the plus row of the first, their number
     * in its np, and nm = -1 on every chain of the group */
    for (int c = c0; (ng = next_group(full, &c, c1, G, idx)) > 0;) {
        int non = 0;
        double none = 1.0;   /* the fraction of columns off in every chain, if independent */
        for (int g = 0; g < ng; g++) {
            const double *s = S + (size_t) cols * idx[g];
            int *act = plus + (size_t) ld * idx[g], n = 0;
            for (int k = 0; k < cols; k++) {   /* branch-free: states are random */
                act[n] = k;
                n += s[k] != 0.0;
            }
            np[idx[g]] = n;
            nm[idx[g]] = 0;
            non += n;
            none *= 1.0 - (double) n / cols;
        }
        if (ng > 1 && group_pays(B->isa, (int) (cols * (1.0 - none)), non)) {
            int *uni = plus + (size_t) ld * idx[0], nu = 0;
            for (int k = 0; k < cols; k++) {
                int any = 0;
                for (int g = 0; g < ng; g++) any |= S[(size_t) cols * idx[g] + k] != 0.0;
                uni[nu] = k;
                nu += any;
            }
            np[idx[0]] = nu;
            for (int g = 0; g < ng; g++) nm[idx[g]] = -1;
        }
    }
    double acc[GROUP_MAX * LOGZ_BLK];
    for (int blk = 0; blk < B->nblk; blk++) {
        const double *base = B->blk + (size_t) blk * cols * LOGZ_BLK;
        int r0 = blk * LOGZ_BLK, n = rows - r0 < LOGZ_BLK ? rows - r0 : LOGZ_BLK;
        for (int c = c0; c < c1; c++) {
            if (full[c] && nm[c] < 0) continue;
            logz_blocked_accumulate(B, blk, plus + (size_t) ld * c, np[c], minus + (size_t) ld * c,
                                    nm[c], out + (size_t) rows * c, full[c]);
        }
        for (int c = c0; (ng = next_group(full, &c, c1, G, idx)) > 0;) {
            if (nm[idx[0]] >= 0) continue;
            const double *s[GROUP_MAX];
            for (int g = 0; g < G; g++) s[g] = S + (size_t) cols * idx[g < ng ? g : 0];
            const int *uni = plus + (size_t) ld * idx[0];
            switch (B->isa) {
#if LOGZ_DISPATCH
            case LOGZ_ISA_AVX512: group_avx512(base, uni, np[idx[0]], s, acc); break;
            case LOGZ_ISA_AVX2: group_avx2(base, uni, np[idx[0]], s, acc); break;
#endif
            default: group_portable(base, uni, np[idx[0]], s, acc);
            }
            for (int g = 0; g < ng; g++)
                store_block(acc + (size_t) g * LOGZ_BLK, out + (size_t) rows * idx[g] + r0, n, 1);
        }
    }
}

/* W (rows x cols) times the 0/1 columns of S (cols x M), every column from
 * scratch at the instruction set of the moment, `reps` times over (for timing
 * the product apart from the blocking of W): for tests and benchmarks. */
SEXP binary_product_call(SEXP W, SEXP S, SEXP reps)
{
    int nrep = asInteger(reps);
    if (nrep == NA_INTEGER || nrep < 1) error("internal error: reps must be a positive count");
    if (!isMatrix(W) || TYPEOF(W) != REALSXP || !isMatrix(S) || TYPEOF(S) != REALSXP)
        error("internal error: W and S must be double matrices");
    int rows = nrows(W), cols = ncols(W), M = ncols(S);
    if (nrows(S) != cols) error("internal error: nrow(S) != ncol(W)");
    const double *s = REAL(S);
    for (R_xlen_t i = 0; i < XLENGTH(S); i++)
        if (s[i] != 0.0 && s[i] != 1.0) error("internal error: S must hold 0 and 1 only");
    double *store = (double *) R_alloc(logz_blocked_size(rows, cols), sizeof(double));
    int *plus = (int *) R_alloc((size_t) (cols > 0 ? cols : 1) * (M > 0 ? M : 1), sizeof(int));
    int *minus = (int *) R_alloc((size_t) (cols > 0 ? cols : 1) * (M > 0 ? M : 1), sizeof(int));
    int *cnt = (int *) R_alloc((size_t) 4 * (M > 0 ? M : 1), sizeof(int));
    int *np = cnt, *nm = cnt + M, *on = cnt + 2 * (size_t) M, *full = cnt + 3 * (size_t) M;
    for (int c = 0; c < M; c++) np[c] = nm[c] = on[c] = 0;
    logz_blocked B;
    logz_blocked_init(&B, REAL(W), rows, cols, 1, store, 1);
    SEXP out = PROTECT(allocMatrix(REALSXP, rows, M));
    for (int r = 0; r < nrep && rows > 0 && M > 0; r++) {
        logz_binary_product(&B, s, REAL(out), 0, M, plus, minus, cols, np, nm, on, 0, full);
        R_CheckUserInterrupt();
    }
    UNPROTECT(1);
    return out;
}

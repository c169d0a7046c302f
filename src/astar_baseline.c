#include <math.h>
#include <string.h>
#include <Rmath.h>
#include "astar.h"

/* ---- baselines: rejection (LOGZ_REFINE_NONE) and OS* (LOGZ_REFINE_SAMPLED_POINT,
 * LOGZ_REFINE_LARGEST_MASS). Pieces are boxes with bounds; a piece is proposed with probability
 * nu(B) exp(M(B)) / E, E = sum of these; accepted with exp(o(x) - M(B)).
 * Each trial also gives an unbiased importance weight E exp(o(x) - M(B)) of Z,
 * accumulated on the log scale for the log Z estimate. */

typedef struct {
    int d, n, cap;
    double *lo, *hi, *M, *lm;
    int *depth;
    /* piece weights nu(B) exp(M(B)) relative to exp(ref), in a Fenwick tree
     * over cap slots (fw[1..cap]) for O(log n) updates and proposals */
    double *w, *fw, ref, total_at_build;
    /* refine = largest mass: a lazy max-heap of (log mass, piece, version);
     * entries whose version is not the piece's current one are stale */
    int use_mh, mh_n, mh_cap, *ver;
    double *mh_key;
    int *mh_piece, *mh_ver;
} os_pieces;

static void mh_swap(os_pieces *P, int a, int b)
{
    double k = P->mh_key[a]; P->mh_key[a] = P->mh_key[b]; P->mh_key[b] = k;
    int t = P->mh_piece[a]; P->mh_piece[a] = P->mh_piece[b]; P->mh_piece[b] = t;
    t = P->mh_ver[a]; P->mh_ver[a] = P->mh_ver[b]; P->mh_ver[b] = t;
}

static void mh_push(os_pieces *P, int i)
{
    if (!P->use_mh) return;
    if (P->mh_n + 1 > P->mh_cap) {
        int cap = P->mh_cap ? 2 * P->mh_cap : 128;
        P->mh_key = grow(P->mh_key, P->mh_n, cap, sizeof(double));
        P->mh_piece = grow(P->mh_piece, P->mh_n, cap, sizeof(int));
        P->mh_ver = grow(P->mh_ver, P->mh_n, cap, sizeof(int));
        P->mh_cap = cap;
    }
    int k = P->mh_n++;
    P->mh_key[k] = P->lm[i];
    P->mh_piece[k] = i;
    P->mh_ver[k] = P->ver[i];
    while (k > 0 && P->mh_key[(k - 1) / 2] < P->mh_key[k]) {
        mh_swap(P, k, (k - 1) / 2);
        k = (k - 1) / 2;
    }
}

/* The current piece of largest log mass (stale entries dropped on the way). */
static int mh_top(os_pieces *P)
{
    while (P->mh_n > 0 && P->mh_ver[0] != P->ver[P->mh_piece[0]]) {
        P->mh_n--;
        mh_swap(P, 0, P->mh_n);
        int k = 0;
        for (;;) {
            int c = 2 * k + 1;
            if (c >= P->mh_n) break;
            if (c + 1 < P->mh_n && P->mh_key[c + 1] > P->mh_key[c]) c++;
            if (P->mh_key[c] <= P->mh_key[k]) break;
            mh_swap(P, k, c);
            k = c;
        }
    }
    if (P->mh_n == 0) logz_internal_error("empty mass heap");
    return P->mh_piece[0];
}

static void fw_add(os_pieces *P, int i, double delta)
{
    for (int k = i + 1; k <= P->cap; k += k & -k) P->fw[k] += delta;
}

static double fw_total(const os_pieces *P)
{
    double s = 0.0;
    for (int k = P->cap; k > 0; k -= k & -k) s += P->fw[k];
    return s;
}

/* Recompute all weights relative to ref and rebuild the tree: on growth, and
 * when the total has shrunk (so rounding in the running sums stays relative). */
static void fw_rebuild(os_pieces *P, double ref)
{
    P->ref = ref;
    memset(P->fw, 0, sizeof(double) * ((size_t) P->cap + 1));
    for (int i = 0; i < P->n; i++) {
        P->w[i] = exp(P->lm[i] + P->M[i] - ref);
        P->fw[i + 1] = P->w[i];
    }
    for (int k = 1; k <= P->cap; k++) {
        int j = k + (k & -k);
        if (j <= P->cap) P->fw[j] += P->fw[k];
    }
    P->total_at_build = fw_total(P);
}

/* The piece whose cumulative weight interval holds target (0 <= target < total). */
static int fw_find(const os_pieces *P, double target)
{
    int pos = 0, step = 1;
    while (step * 2 <= P->cap) step *= 2;
    for (; step > 0; step >>= 1)
        if (pos + step <= P->cap && P->fw[pos + step] <= target) {
            pos += step;
            target -= P->fw[pos];
        }
    if (pos >= P->n) pos = P->n - 1;
    return pos;
}

static void pieces_set_weight(os_pieces *P, int i)
{
    double w = exp(P->lm[i] + P->M[i] - P->ref);
    fw_add(P, i, w - P->w[i]);
    P->w[i] = w;
}

static void pieces_add(os_pieces *P, const double *lo, const double *hi, double M, double lm,
                       int depth)
{
    if (P->n + 1 > P->cap) {
        int cap = P->cap ? 2 * P->cap : 64;
        size_t n = P->n, d = P->d;
        P->lo = grow(P->lo, n * d, (size_t) cap * d, sizeof(double));
        P->hi = grow(P->hi, n * d, (size_t) cap * d, sizeof(double));
        P->M = grow(P->M, n, cap, sizeof(double));
        P->lm = grow(P->lm, n, cap, sizeof(double));
        P->w = grow(P->w, n, cap, sizeof(double));
        P->depth = grow(P->depth, n, cap, sizeof(int));
        P->ver = grow(P->ver, n, cap, sizeof(int));
        P->fw = (double *) R_alloc((size_t) cap + 1, sizeof(double));
        P->cap = cap;
        fw_rebuild(P, P->n ? P->ref : lm + M);
    }
    int i = P->n++;
    memcpy(P->lo + (size_t) i * P->d, lo, sizeof(double) * P->d);
    memcpy(P->hi + (size_t) i * P->d, hi, sizeof(double) * P->d);
    P->M[i] = M;
    P->lm[i] = lm;
    P->depth[i] = depth;
    P->w[i] = 0.0;
    P->ver[i] = 0;
    pieces_set_weight(P, i);
    mh_push(P, i);
}

/* Replace piece i by its two halves split at v on side j; bounds of the halves
 * are evaluated (and capped by the parent's). */
static void pieces_split(os_pieces *P, astar_target *tg, int i, int j, double v, double *lo,
                         double *hi)
{
    int d = P->d;
    memcpy(lo, P->lo + (size_t) i * d, sizeof(double) * d);
    memcpy(hi, P->hi + (size_t) i * d, sizeof(double) * d);
    double Mp = P->M[i], h = hi[j];
    int depth = P->depth[i] + 1;
    hi[j] = v;
    double m = target_bound(tg, lo, hi);
    /* the left half takes the place of piece i */
    memcpy(P->hi + (size_t) i * d, hi, sizeof(double) * d);
    P->M[i] = m < Mp ? m : Mp;
    P->lm[i] = proposal_log_mass(&tg->prop, lo, hi);
    P->depth[i] = depth;
    pieces_set_weight(P, i);
    P->ver[i]++;
    mh_push(P, i);
    hi[j] = h;
    lo[j] = v;
    m = target_bound(tg, lo, hi);
    pieces_add(P, lo, hi, m < Mp ? m : Mp, proposal_log_mass(&tg->prop, lo, hi), depth);
}

SEXP astar_baseline_call(SEXP target, SEXP n_, SEXP control)
{
    astar_target tg;
    target_from_list(target, &tg);
    int n = asInteger(n_), d = tg.d;
    int refine = asInteger(logz_get(control, "refine"));
    int reuse = asLogical(logz_get(control, "reuse"));
    double max_nodes = asReal(logz_get(control, "max_nodes"));
    double rate = asReal(logz_get(control, "refine_rate"));   /* refine on this fraction */
    int every = logz_tick_every(control);   /* progress: 0 for none */
    int known = refine == LOGZ_REFINE_NONE || refine == LOGZ_REFINE_SAMPLED_POINT ||
                refine == LOGZ_REFINE_LARGEST_MASS;
    if (n == NA_INTEGER || n < 0 || !known || reuse == NA_LOGICAL || ISNAN(max_nodes) ||
        !(rate > 0.0 && rate <= 1.0))
        logz_internal_error("bad arguments to astar_baseline");

    const char *names[] = {"samples", "likelihood", "bound", "nodes", "log_w_sum",
                           "log_w2_sum", "trials", "pieces", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP samples = allocMatrix(REALSXP, n, d);
    logz_set(out, "samples", samples);
    for (int i = 1; i <= 3; i++) SET_VECTOR_ELT(out, i, allocVector(REALSXP, n));
    double *S = REAL(samples), *clik = REAL(VECTOR_ELT(out, 1)),
           *cbnd = REAL(VECTOR_ELT(out, 2)), *cnod = REAL(VECTOR_ELT(out, 3));

    os_pieces P;
    memset(&P, 0, sizeof(P));
    P.d = d;
    P.use_mh = refine == LOGZ_REFINE_LARGEST_MASS;
    double *lo = (double *) R_alloc(d, sizeof(double)), *hi = (double *) R_alloc(d, sizeof(double));
    double *x = (double *) R_alloc(d, sizeof(double));
    double lw1 = R_NegInf, lw2 = R_NegInf, trials = 0.0;
    double next_check = 0.0;   /* see target_check_interrupt() */

    GetRNGstate();
    for (int s = 0; s < n; s++) {
        double l0 = tg.n_lik, b0 = tg.n_bound, splits = 0;
        if (s == 0 || !reuse) {
            P.n = 0;
            P.mh_n = 0;
            proposal_support(&tg.prop, lo, hi);
            double M = target_bound(&tg, lo, hi);
            if (M == R_NegInf) error("target '%s' has zero mass: its global bound is -Inf.", tg.name);
            if (!R_FINITE(M))
                error("target '%s': the global bound is %g; rejection sampling and OS* need a "
                      "finite bound over the whole support.", tg.name, M);
            double lm = proposal_log_mass(&tg.prop, lo, hi);
            pieces_add(&P, lo, hi, M, lm, 0);
            fw_rebuild(&P, lm + M);     /* weights relative to the root's */
        }
        for (;;) {
            /* propose a piece with probability proportional to nu(B) exp(M(B)) */
            double total = fw_total(&P);
            if (!(total >= 1e-3 * P.total_at_build)) {
                /* re-reference to the largest piece (weights may have underflowed) */
                double ref = R_NegInf;
                for (int k = 0; k < P.n; k++)
                    if (P.lm[k] + P.M[k] > ref) ref = P.lm[k] + P.M[k];
                fw_rebuild(&P, ref);
                total = fw_total(&P);
            }
            if (!(total > 0.0))
                error("target '%s' has zero mass: every piece is bounded by -Inf.", tg.name);
            double logE = P.ref + log(total);
            int i = 0;
            if (P.n > 1)
                do i = fw_find(&P, unif_rand() * total); while (P.w[i] <= 0.0);
            proposal_draw(&tg.prop, P.lo + (size_t) i * d, P.hi + (size_t) i * d, x);
            double o = target_log_lik(&tg, x);
            check_below_bound(&tg, o, P.M[i], x);
            double lw = logE + o - P.M[i];
            trials += 1;
            lw1 = logz_log_add_exp(lw1, lw);
            lw2 = logz_log_add_exp(lw2, 2 * lw);
            /* an R log_lik may take long per call: checked after each one */
            target_check_interrupt(&tg, &next_check);
            if (-exp_rand() < o - P.M[i]) break;     /* log U < o - M: accept */
            if (rate < 1.0 && unif_rand() >= rate) continue;   /* keep the envelope */
            if (refine == LOGZ_REFINE_SAMPLED_POINT) {
                int j = split_side(d, P.lo + (size_t) i * d, P.hi + (size_t) i * d, P.depth[i]);
                pieces_split(&P, &tg, i, j, x[j], lo, hi);
                splits++;
            } else if (refine == LOGZ_REFINE_LARGEST_MASS) {
                int kmax = mh_top(&P);
                double *bl = P.lo + (size_t) kmax * d, *bh = P.hi + (size_t) kmax * d;
                int j = split_side(d, bl, bh, P.depth[kmax]);
                double v = proposal_quantile1(&tg.prop, j, bl[j], bh[j], 0.5);
                pieces_split(&P, &tg, kmax, j, v, lo, hi);
                splits++;
            }
            if (P.n > max_nodes)
                error("target '%s': more than max_nodes = %.0f pieces in the OS* envelope; "
                      "the bounds may be far too loose.", tg.name, max_nodes);
        }
        for (int j = 0; j < d; j++) S[s + (size_t) n * j] = x[j];
        clik[s] = tg.n_lik - l0;
        cbnd[s] = tg.n_bound - b0;
        cnod[s] = splits;
        logz_tick(control, every, s + 1, n);
    }
    PutRNGstate();
    logz_set(out, "log_w_sum", ScalarReal(lw1));
    logz_set(out, "log_w2_sum", ScalarReal(lw2));
    logz_set(out, "trials", ScalarReal(trials));
    logz_set(out, "pieces", ScalarInteger(P.n));
    UNPROTECT(1);
    return out;
}


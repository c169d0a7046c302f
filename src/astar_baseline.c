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

/* n exact samples by rejection from the proposal under the bound envelope
 * (see astar.h for the target), refining the envelope as o->refine says (OS*),
 * with R's RNG (the caller brackets GetRNGstate / PutRNGstate). Fills r;
 * returns ASTAR_OK or the ASTAR_* status of a target the envelope cannot hold. */
int astar_baseline_run(astar_target *tg, const os_opts *o, const logz_progress *pr,
                       os_result *r)
{
    int n = o->n, d = tg->d, refine = o->refine, reuse = o->reuse;
    double max_nodes = o->max_nodes, rate = o->rate;
    double *S = r->samples, *clik = r->likelihood, *cbnd = r->bound, *cnod = r->nodes;
    os_pieces P;
    memset(&P, 0, sizeof(P));
    P.d = d;
    P.use_mh = refine == LOGZ_REFINE_LARGEST_MASS;
    double *lo = (double *) R_alloc(d, sizeof(double)), *hi = (double *) R_alloc(d, sizeof(double));
    double *x = (double *) R_alloc(d, sizeof(double));
    double lw1 = R_NegInf, lw2 = R_NegInf, trials = 0.0;
    double next_check = 0.0;   /* see target_check_interrupt() */
    r->pieces = 0;

    for (int s = 0; s < n; s++) {
        double l0 = tg->n_lik, b0 = tg->n_bound, splits = 0;
        if (s == 0 || !reuse) {
            P.n = 0;
            P.mh_n = 0;
            proposal_support(&tg->prop, lo, hi);
            double M = target_bound(tg, lo, hi);
            r->global_bound = M;
            if (M == R_NegInf) return ASTAR_ZERO_MASS;
            if (!R_FINITE(M)) return ASTAR_INFINITE_BOUND;
            double lm = proposal_log_mass(&tg->prop, lo, hi);
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
            if (!(total > 0.0)) return ASTAR_ZERO_MASS_PIECES;
            double logE = P.ref + log(total);
            int i = 0;
            if (P.n > 1)
                do i = fw_find(&P, unif_rand() * total); while (P.w[i] <= 0.0);
            proposal_draw(&tg->prop, P.lo + (size_t) i * d, P.hi + (size_t) i * d, x);
            double o_x = target_log_lik(tg, x);
            check_below_bound(tg, o_x, P.M[i], x);
            double lw = logE + o_x - P.M[i];
            trials += 1;
            lw1 = logz_log_add_exp(lw1, lw);
            lw2 = logz_log_add_exp(lw2, 2 * lw);
            /* an R log_lik may take long per call: checked after each one */
            target_check_interrupt(tg, &next_check);
            if (-exp_rand() < o_x - P.M[i]) break;     /* log U < o - M: accept */
            if (rate < 1.0 && unif_rand() >= rate) continue;   /* keep the envelope */
            if (refine == LOGZ_REFINE_SAMPLED_POINT) {
                int j = split_side(d, P.lo + (size_t) i * d, P.hi + (size_t) i * d, P.depth[i]);
                pieces_split(&P, tg, i, j, x[j], lo, hi);
                splits++;
            } else if (refine == LOGZ_REFINE_LARGEST_MASS) {
                int kmax = mh_top(&P);
                double *bl = P.lo + (size_t) kmax * d, *bh = P.hi + (size_t) kmax * d;
                int j = split_side(d, bl, bh, P.depth[kmax]);
                double v = proposal_quantile1(&tg->prop, j, bl[j], bh[j], 0.5);
                pieces_split(&P, tg, kmax, j, v, lo, hi);
                splits++;
            }
            if (P.n > max_nodes) return ASTAR_TOO_MANY_PIECES;
        }
        for (int j = 0; j < d; j++) S[s + (size_t) n * j] = x[j];
        clik[s] = tg->n_lik - l0;
        cbnd[s] = tg->n_bound - b0;
        cnod[s] = splits;
        r->pieces = P.n;
        logz_progress_tick(pr, s + 1, n);
    }
    r->log_w_sum = lw1;
    r->log_w2_sum = lw2;
    r->trials = trials;
    r->pieces = P.n;
    return ASTAR_OK;
}

/* GumbelMIP (gumbelmip-exact-sampling-ilp.txt, Algorithm 1; NOTES.md
 * "GumbelMIP"): one exact (or early-stopped) sample by Gumbel-perturbed
 * branch and bound. The bound is the LP relaxation (by GLPK, mip_glpk.c, or
 * by a minimum cut, mip_cut.c) or the paper's simple per-factor bound. The
 * engine works on plain C types and never calls error(): it returns a status
 * code in mip_result. */
#include <math.h>
#include <string.h>
#include <time.h>
#include <limits.h>
#include <R_ext/Utils.h>
#include "mip.h"

void mip_work_free(mip_work *W)
{
    if (!W) return;
    free(W->state); free(W->key); free(W->gam); free(W->nfix); free(W->heap);
    free(W->freel); free(W->flag); free(W->rowact); free(W->cur); free(W->tau); free(W->dive); free(W->flip); free(W->tq);
    W->dive = NULL; W->flip = NULL; W->tq = NULL;
    W->state = NULL; W->key = W->gam = NULL; W->nfix = W->heap = W->freel = W->flag = NULL;
    W->rowact = W->tau = NULL; W->cur = NULL;
}

double mip_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void chk_int(void *d) { (void) d; R_CheckUserInterrupt(); }

/* Called every search node and between GLPK simplex slices (mip_glpk.c):
 * the master thread checks for user interrupts (and R's time limits) every
 * 0.1 s through R_ToplevelExec, so no longjmp crosses the search or GLPK; an
 * interrupt sets the shared stop flag that the other threads read. */
int mip_poll(mip_work *W)
{
    if (W->stop && *W->stop) return 2;
    double t = mip_now();
    if (W->interrupts && t >= W->next_poll) {
        W->next_poll = t + 0.1;
        if (!R_ToplevelExec(chk_int, NULL)) {
            if (W->stop) *W->stop = 1;
            return 2;
        }
    }
    return t >= W->deadline ? 1 : 0;
}

/* ---- values and the simple bound ---------------------------------------- */

double mip_value(const mip_value_model *M, const unsigned char *st, double *rowact)
{
    double v = M->c0;
    if (M->kind == 0) {
        for (int i = 0; i < M->n; i++) v += M->node[2 * i + (st[i] & 1)];
        for (int e = 0; e < M->m; e++)
            v += M->edge[4 * e + 2 * (st[M->from[e]] & 1) + (st[M->to[e]] & 1)];
        return v;
    }
    for (int i = 0; i < M->n; i++) if (st[i] & 1) v += M->c[i];
    if (M->nrow) {
        memset(rowact, 0, sizeof(double) * M->nrow);
        for (int k = 0; k < M->nnz; k++) if (st[M->aj[k]] & 1) rowact[M->ai[k]] += M->ax[k];
        for (int r = 0; r < M->nrow; r++) {
            double tol = 1e-9 * (1.0 + fabs(rowact[r]));
            if (rowact[r] < M->rlo[r] - tol || rowact[r] > M->rhi[r] + tol) return R_NegInf;
        }
    }
    return v;
}

/* The paper's A*-like baseline: each factor's largest value consistent with
 * the fixed variables, summed (no consistency across factors). */
double mip_simple_bound(const mip_value_model *M, const unsigned char *st)
{
    double v = M->c0;
    if (M->kind == 0) {
        for (int i = 0; i < M->n; i++) {
            const double *t = M->node + 2 * i;
            v += (st[i] & 2) ? t[st[i] & 1] : fmax(t[0], t[1]);
        }
        for (int e = 0; e < M->m; e++) {
            const double *t = M->edge + 4 * e;
            int a = st[M->from[e]], b = st[M->to[e]];
            double best = R_NegInf;
            for (int ca = 0; ca < 2; ca++) {
                if ((a & 2) && (a & 1) != ca) continue;
                for (int cb = 0; cb < 2; cb++) {
                    if ((b & 2) && (b & 1) != cb) continue;
                    best = fmax(best, t[2 * ca + cb]);
                }
            }
            v += best;
        }
        return v;
    }
    for (int i = 0; i < M->n; i++)
        v += (st[i] & 2) ? ((st[i] & 1) ? M->c[i] : 0.0) : fmax(M->c[i], 0.0);
    return v;
}

/* ---- node pool and priority queue ---------------------------------------- */

/* realloc *pp (a pointer to any object pointer) to `bytes`; 0 when out of memory */
static int grow(void *pp, size_t bytes)
{
    void **p = (void **) pp, *q = realloc(*p, bytes);
    if (!q) return 0;
    *p = q;
    return 1;
}

static int pool_alloc(mip_work *W, int n)
{
    if (W->nfree > 0) return W->freel[--W->nfree];
    if (W->nused == W->cap) {
        size_t cap = W->cap ? 2 * (size_t) W->cap : 1024;
        if (cap > INT_MAX || !grow(&W->state, cap * n) || !grow(&W->key, sizeof(double) * cap) ||
            !grow(&W->gam, sizeof(double) * cap) || !grow(&W->nfix, sizeof(int) * cap) ||
            !grow(&W->heap, sizeof(int) * cap) || !grow(&W->freel, sizeof(int) * cap) ||
            !grow(&W->flag, sizeof(int) * cap))
            return -1;
        W->cap = (int) cap;
    }
    return W->nused++;
}

static void pool_release(mip_work *W, int slot) { W->freel[W->nfree++] = slot; }

/* best first: a max-heap on key; depth first: a stack (heap used as array). */
static void open_push(mip_work *W, int slot, int best_first)
{
    int i = W->nheap++;
    W->heap[i] = slot;
    if (!best_first) return;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (W->key[W->heap[p]] >= W->key[W->heap[i]]) break;
        int t = W->heap[p]; W->heap[p] = W->heap[i]; W->heap[i] = t;
        i = p;
    }
}

static int open_pop(mip_work *W, int best_first)
{
    int top = best_first ? W->heap[0] : W->heap[W->nheap - 1];
    W->nheap--;
    if (!best_first || W->nheap == 0) return top;
    W->heap[0] = W->heap[W->nheap];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, b = i;
        if (l < W->nheap && W->key[W->heap[l]] > W->key[W->heap[b]]) b = l;
        if (r < W->nheap && W->key[W->heap[r]] > W->key[W->heap[b]]) b = r;
        if (b == i) break;
        int t = W->heap[b]; W->heap[b] = W->heap[i]; W->heap[i] = t;
        i = b;
    }
    return top;
}

static double open_max_key(const mip_work *W, int best_first)
{
    if (W->nheap == 0) return R_NegInf;
    if (best_first) return W->key[W->heap[0]];
    double m = R_NegInf;
    for (int i = 0; i < W->nheap; i++) m = fmax(m, W->key[W->heap[i]]);
    return m;
}

/* ---- Gumbel draws from a stream ------------------------------------------ */

static double st_gumbel(logz_stream *s, double loc)
{
    return loc - log(-log(logz_stream_unif(s)));
}

static double st_truncgumbel(logz_stream *s, double loc, double bound)
{
    double e = -log(logz_stream_unif(s));
    return -logz_log_add_exp(-bound, log(e) - loc);
}

/* log(1 - F(g, b)) with F the CDF of TruncGumbel(0, b) at g (Proposition 1) */
static double log_trunc_survival(double g, double b)
{
    if (g >= b) return R_NegInf;
    /* F = exp(-e^{-g} + e^{-b});  1 - F = -expm1(e^{-b} - e^{-g}) */
    return log(-expm1(exp(-b) - exp(-g)));
}

/* ---- one sample ----------------------------------------------------------- */

/* The tree proposal's scratch of this work space (2 n doubles), NULL when out
 * of memory. */
static double *tree_scratch(mip_work *W, int n)
{
    if (!W->tq) W->tq = malloc(sizeof(double) * 2 * (size_t) (n > 0 ? n : 1));
    return W->tq;
}

/* Split the open node P (bound bnd) on its free variable x: P keeps
 * x = sigma_x and (gamma_P, sigma) (perturbation inheritance); the new child Q
 * gets x flipped, a Gumbel truncated at gamma_P and the other free variables
 * redrawn; sigma_Q may become the incumbent. Returns Q, -1 out of memory. */
static int split_node(mip_work *W, const mip_value_model *M, const mip_control *C,
                      logz_stream *rs, int P, int x, double bnd, int *best, double *vstar)
{
    int n = M->n;
    int Q = pool_alloc(W, n);
    if (Q < 0) return -1;
    unsigned char *sp = W->state + (size_t) P * n;        /* the pool may have moved */
    unsigned char *sq = W->state + (size_t) Q * n;
    double gP = W->gam[P];
    int free_vars = n - W->nfix[P];
    double gQ = 0.0;
    if (C->tree) {
        /* tree proposal q (mip_tree.c): log q(Q) by sum-product with Q's
         * fixed variables as evidence, then its free ones drawn from q given
         * them (forward filtering, backward sampling) */
        double *bel = tree_scratch(W, n);
        if (!bel) { pool_release(W, Q); return -1; }
        for (int j = 0; j < n; j++)
            sq[j] = (sp[j] & 2) ? sp[j] & 3 : j == x ? (unsigned char) (2 | (1 - (sp[j] & 1))) : 0;
        double locQ = mip_tree_region(C->tree, sq, bel);
        if (C->perturb) gQ = st_truncgumbel(rs, locQ, gP);
        mip_tree_draw(C->tree, sq, bel, rs);
    } else if (!C->lq) {
        gQ = C->perturb ? st_truncgumbel(rs, (free_vars - 1) * MIP_LOG2, gP) : 0.0;
        for (int j = 0; j < n; j++) {
            if (sp[j] & 2) sq[j] = sp[j] & 3;
            else if (j == x) sq[j] = (unsigned char) (2 | (1 - (sp[j] & 1)));
            else sq[j] = logz_stream_unif(rs) < 0.5 ? 1 : 0;
        }
    } else {
        /* proposal q: Q's mass is the product of q_j over its fixed variables
         * (the free ones sum to 1), and sigma~ redraws the free ones from q */
        double locQ = C->lq[2 * x + 1 - (sp[x] & 1)];
        for (int j = 0; j < n; j++) if (sp[j] & 2) locQ += C->lq[2 * j + (sp[j] & 1)];
        if (C->perturb) gQ = st_truncgumbel(rs, locQ, gP);   /* drawn first, as above */
        for (int j = 0; j < n; j++) {
            if (sp[j] & 2) sq[j] = sp[j] & 3;
            else if (j == x) sq[j] = (unsigned char) (2 | (1 - (sp[j] & 1)));
            else sq[j] = logz_stream_unif(rs) < C->q1[j] ? 1 : 0;
        }
    }
    W->gam[Q] = gQ; W->nfix[Q] = W->nfix[P] + 1; W->key[Q] = bnd + gQ;
    double vq = mip_value(M, sq, W->rowact) + gQ;
    if (vq > *vstar) {
        *vstar = vq;
        for (int i = 0; i < n; i++) best[i] = sq[i] & 1;
    }
    sp[x] |= 2;
    W->nfix[P]++;
    W->key[P] = bnd + gP;
    W->flag[P] = W->flag[Q] = 0;
    return Q;
}

/* ICM on v: flip single variables while v improves (at most 8 sweeps). */
static void icm(const mip_value_model *M, unsigned char *x, double *rowact)
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

/* The dive (issue 19): from the bounded root P, split along the target
 * h = ICM(round(tau)) until the leaf {h}; every sibling goes to the open list
 * with the root's bound. The leaf's sigma is h with its own Gumbel, so the
 * incumbent gets v(h) + gamma_h at once, and the search continues as usual.
 * Splitting choices that depend only on what is known so far leave the
 * top-down Gumbel process, hence the sample, unchanged. Returns 1 when out of
 * memory. */
static int dive(mip_work *W, const mip_value_model *M, const mip_control *C, logz_stream *rs,
                int P, double bnd, int *best, double *vstar)
{
    int n = M->n;
    unsigned char *h = W->dive;
    for (int j = 0; j < n; j++) h[j] = W->tau[j] > 0.5;
    icm(M, h, W->rowact);
    for (;;) {
        unsigned char *sp = W->state + (size_t) P * n;
        int x = -1, agree = 0;
        for (int j = 0; j < n && !agree; j++) {      /* first a variable where sigma = h */
            if (sp[j] & 2) continue;
            if ((sp[j] & 1) == h[j]) { x = j; agree = 1; }
            else if (x < 0) x = j;
        }
        if (x < 0) break;                            /* P = {h}: counted when created */
        int Q = split_node(W, M, C, rs, P, x, bnd, best, vstar);
        if (Q < 0) return 1;
        int follow = agree ? P : Q, other = agree ? Q : P;
        if (W->key[other] > *vstar) open_push(W, other, C->best_first);
        else pool_release(W, other);
        P = follow;
    }
    pool_release(W, P);
    return 0;
}


/* Forced branching on an integral LP solution tau of a pairwise model (every
 * min-cut bound): among the free variables where tau differs from sigma,
 * the one whose flip lowers o(tau) most. The inheriting child (x = sigma_x)
 * loses tau, and its bound falls at least to the best configuration without
 * it, which a large single-flip loss suggests is much lower: more pruning.
 * (Issue 19: 2-4x fewer nodes than the first differing variable on cliques
 * of n = 40-45; bench/mip_cliques.out.) O(n + m). */
static int flip_loss_branch(const mip_value_model *M, mip_work *W, const unsigned char *sp,
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
        if (!(sp[j] & 2) && (W->tau[j] > 0.5) != (sp[j] & 1) && dl[j] > best) {
            best = dl[j];
            x = j;
        }
    return x;
}

static void trace_add(mip_trace *T, double nodes, double t, double v, double U)
{
    if (!T->buf || T->len >= T->cap) return;
    double *r = T->buf + 4 * T->len++;
    r[0] = nodes; r[1] = t; r[2] = v; r[3] = U;
}

void mip_search(mip_work *W, const mip_value_model *M, const mip_lp_def *L,
                       const mip_control *C, logz_stream *rs, int *best, mip_result *R,
                       mip_trace *T)
{
    int n = M->n;
    double t0 = mip_now();
    W->nheap = 0; W->nfree = 0; W->nused = 0;
    W->deadline = t0 + C->time_limit;
    memset(R, 0, sizeof *R);
    int root = pool_alloc(W, n);
    if (root < 0) { R->status = 1; return; }
    unsigned char *st = W->state + (size_t) root * n;
    if (C->tree) {           /* sigma ~ q (mip_tree.c) */
        double *bel = tree_scratch(W, n);
        if (!bel) { R->status = 1; return; }
        memset(st, 0, n);
        mip_tree_region(C->tree, st, bel);
        mip_tree_draw(C->tree, st, bel, rs);
    } else
        for (int i = 0; i < n; i++) st[i] = logz_stream_unif(rs) < (C->lq ? C->q1[i] : 0.5) ? 1 : 0;
    double g0 = C->perturb ? st_gumbel(rs, C->lq || C->tree ? 0.0 : n * MIP_LOG2) : 0.0;
    W->gam[root] = g0; W->nfix[root] = 0; W->key[root] = R_PosInf; W->flag[root] = 0;
    double vstar = mip_value(M, st, W->rowact) + g0;
    for (int i = 0; i < n; i++) best[i] = st[i] & 1;
    open_push(W, root, C->best_first);
    double next_trace = 1;
    int limited = 0;
    while (W->nheap > 0) {
        if (R->nodes >= C->node_limit) { limited = 1; break; }
        int pl = mip_poll(W);
        if (pl == 2) { R->status = 2; return; }
        if (pl == 1 && R->nodes > 0) { limited = 1; break; }
        if (R->nodes >= next_trace) {
            trace_add(T, R->nodes, mip_now() - t0, vstar,
                      fmax(vstar, open_max_key(W, C->best_first)));
            next_trace *= 2;
        }
        int P = open_pop(W, C->best_first);
        if (W->key[P] <= vstar) {
            pool_release(W, P);
            if (C->best_first) {     /* every other open key is smaller */
                while (W->nheap > 0) pool_release(W, open_pop(W, 1));
            }
            continue;
        }
        R->nodes++;
        unsigned char *sp = W->state + (size_t) P * n;
        double gP = W->gam[P];
        int free_vars = n - W->nfix[P];
        if (free_vars == 0) {    /* sigma is the only configuration (already counted) */
            pool_release(W, P);
            continue;
        }
        double bnd;
        int have_tau = 0, tau_int = 0;
        if (C->bound_lp && W->flag[P]) {
            /* the parent's LP solution is feasible for P and was integral on
             * P's fixing: it is optimal here too (no LP solve) */
            bnd = W->key[P] - gP;
            for (int j = 0; j < n; j++) W->tau[j] = (double) ((sp[j] >> 2) & 1);
            have_tau = tau_int = 1;
        } else if (C->bound_lp) {
            /* the simple bound is cheap and sometimes prunes without an LP */
            if (mip_simple_bound(M, sp) + gP <= vstar) { pool_release(W, P); continue; }
            R->lp_solves++;
            int s;
            if (C->cut) {
                bnd = mip_cut_solve(C->cut, sp, C->cut_c0, W->tau);
                s = 1;
            } else s = mip_lp_solve(W, L, n, sp, &bnd);
            if (s == -2) { R->status = 2; return; }
            if (s == -3) {       /* time limit inside GLPK: P stays open */
                R->lp_solves--;
                open_push(W, P, C->best_first);
                limited = 1;
                break;
            }
            if (s == 0) { pool_release(W, P); continue; }
            if (s < 0) { R->lp_failures++; bnd = W->key[P] - gP; }   /* parent's bound */
            else {
                have_tau = tau_int = 1;
                for (int j = 0; j < n && tau_int; j++)
                    if (!(sp[j] & 2) && fabs(W->tau[j] - floor(W->tau[j] + 0.5)) > 1e-9) tau_int = 0;
                bnd += 1e-7 * (1.0 + fabs(bnd));
            }
        } else {
            bnd = mip_simple_bound(M, sp);
        }
        if (bnd + gP <= vstar) { pool_release(W, P); continue; }
        /* primal heuristic at the root: dive to the LP solution's rounding,
         * improved by ICM (a search order only: the distribution is unchanged) */
        if (C->dive && have_tau && W->nfix[P] == 0) {
            if (dive(W, M, C, rs, P, bnd, best, &vstar)) { R->status = 1; return; }
            continue;
        }
        /* branching variable */
        int x = -1;
        if (have_tau && C->branching != 2) {
            double bestfrac = 1e-6, bestdiff = -1.0;
            int xf = -1, xd = -1;
            for (int j = 0; j < n; j++) {
                if (sp[j] & 2) continue;
                double t = W->tau[j], fr = fmin(t, 1.0 - t);
                if (fr > bestfrac) { bestfrac = fr; xf = j; }
                double d = fabs(t - (double) (sp[j] & 1));
                if (d > bestdiff) { bestdiff = d; xd = j; }
            }
            /* most fractional; if the LP solution is integral, forced branching:
             * auto on the free variable where it is farthest from sigma,
             * most_fractional on the first free variable in the static order */
            x = xf >= 0 ? xf : (C->branching == 0 ? xd : -1);
            if (x == xd && xf < 0 && bestdiff > 0.5 && M->kind == 0)
                x = flip_loss_branch(M, W, sp, xd);
        }
        if (x < 0) {
            for (int k = 0; k < n; k++)
                if (!(sp[C->order[k]] & 2)) { x = C->order[k]; break; }
        }
        int Q = split_node(W, M, C, rs, P, x, bnd, best, &vstar);
        if (Q < 0) { R->status = 1; return; }
        sp = W->state + (size_t) P * n;        /* the pool may have moved */
        /* the child on the side of an integral LP solution keeps LP and tau */
        if (tau_int) {
            int tx = W->tau[x] > 0.5, child = tx == (sp[x] & 1) ? P : Q;
            unsigned char *sc = W->state + (size_t) child * n;
            W->flag[child] = 1;
            for (int j = 0; j < n; j++)
                sc[j] = (unsigned char) ((sc[j] & 3) | ((W->tau[j] > 0.5) << 2));
        }
        /* depth first: the inheriting child is explored first */
        if (W->key[Q] > vstar) open_push(W, Q, C->best_first); else pool_release(W, Q);
        if (W->key[P] > vstar) open_push(W, P, C->best_first); else pool_release(W, P);
    }
    R->value = vstar;
    R->exact = !limited;
    R->time = mip_now() - t0;
    double U = vstar, lrank = 0.0;   /* log of (E[k] bound - 1) */
    int any = 0;
    for (int i = 0; i < W->nheap; i++) {
        int q = W->heap[i];
        double kq = W->key[q];
        if (kq < vstar) continue;
        U = fmax(U, kq);
        int fv = n - W->nfix[q];
        double lp_q = kq - W->gam[q];
        /* 1 + (2^fv - 1)(1 - F(v* - LP, gamma)) */
        double ls;
        if (!C->lq && !C->tree) ls = log_trunc_survival(vstar - lp_q, W->gam[q]);
        else {
            /* each of Q's configurations x has a TruncGumbel(log q(x), gamma_Q)
             * and beats v* with probability 1 - exp(-q(x) (e^-t - e^-b)),
             * t = v* - LP(Q) and b = gamma_Q; by concavity the sum over Q's
             * 2^fv configurations is at most 2^fv times that at q(Q) / 2^fv
             * (the uniform case is the paper's bound) */
            double t = vstar - lp_q, b = W->gam[q], lqQ = 0.0;
            const unsigned char *sq = W->state + (size_t) q * n;
            if (C->tree) lqQ = mip_tree_region(C->tree, sq, W->tq);   /* allocated at the root */
            else for (int j = 0; j < n; j++) if (sq[j] & 2) lqQ += C->lq[2 * j + (sq[j] & 1)];
            ls = t >= b ? R_NegInf
                : log(-expm1(-exp(lqQ - fv * MIP_LOG2 - t + log(-expm1(t - b)))));
        }
        double term = logz_log_add_exp(0.0, (fv * MIP_LOG2 + log1p(-exp(-fv * MIP_LOG2))) + ls);
        lrank = any ? logz_log_add_exp(lrank, term) : term;
        any = 1;
    }
    R->upper = U;
    R->rank_bound = any ? 1.0 + exp(lrank) : 1.0;
    trace_add(T, R->nodes, R->time, vstar, U);
}

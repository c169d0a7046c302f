/* GumbelMIP (Kim, Sabharwal & Ermon 2016, Algorithm 1): one exact (or
 * early-stopped) sample of a binary model by Gumbel-perturbed branch and
 * bound.
 *
 * A model has n binary variables x (the branching variables) and a log-weight
 * v(x), either
 *   pairwise: v(x) = c0 + sum_i node_i(x_i) + sum_e edge_e(x_from, x_to)
 *             (tables node[2 i + x_i], edge[4 e + 2 x_from + x_to]), or
 *   linear:   v(x) = c0 + c'x if row_lo <= A x <= row_hi, else -Inf.
 * Its LP relaxation (built in R, R/mip_problem.R) has ncol >= n columns, the
 * first n being x in [0, 1], the others auxiliary (edge indicators), and value
 * LP = glp objective + lp_c0 >= max v over the integer points. The bound of a
 * node is that LP (by GLPK, mip_glpk.c, by a minimum cut, mip_cut.c, or by
 * roof duality, mip_roof.c) or the paper's simple per-factor bound
 * (mip_value.c).
 *
 * The engine works on plain C types and never calls error(): it returns a
 * status code in mip_result. Its loop may be shared by several threads
 * (mip_search_join()): every node's random draws are keyed by the node
 * (mip_key.c), so the sample does not depend on who expands which node
 * when. */
#include <math.h>
#include <string.h>
#include "mip.h"

/* seconds a thread waits while another holds the only open nodes */
#define PAUSE 2e-5

/* ---- node pool and priority queue ---------------------------------------- */

static int pool_alloc(mip_work *W, int n)
{
    if (W->nfree > 0) return W->freel[--W->nfree];
    if (W->nused == W->cap && !mip_work_more_slots(W, n)) return -1;
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
            sq[j] = (sp[j] & MIP_FIXED) ? sp[j] & MIP_SIGMA_FIXED
                : j == x ? (unsigned char) (MIP_FIXED | (1 - (sp[j] & MIP_SIGMA))) : 0;
        double locQ = mip_tree_region(C->tree, sq, bel);
        if (C->perturb) gQ = st_truncgumbel(rs, locQ, gP);
        mip_tree_draw(C->tree, sq, bel, rs);
    } else if (!C->lq) {
        gQ = C->perturb ? st_truncgumbel(rs, (free_vars - 1) * MIP_LOG2, gP) : 0.0;
        for (int j = 0; j < n; j++) {
            if (sp[j] & MIP_FIXED) sq[j] = sp[j] & MIP_SIGMA_FIXED;
            else if (j == x) sq[j] = (unsigned char) (MIP_FIXED | (1 - (sp[j] & MIP_SIGMA)));
            else sq[j] = logz_stream_unif(rs) < 0.5 ? 1 : 0;
        }
    } else {
        /* proposal q: Q's mass is the product of q_j over its fixed variables
         * (the free ones sum to 1), and sigma~ redraws the free ones from q */
        double locQ = C->lq[2 * x + 1 - (sp[x] & MIP_SIGMA)];
        for (int j = 0; j < n; j++) if (sp[j] & MIP_FIXED) locQ += C->lq[2 * j + (sp[j] & MIP_SIGMA)];
        if (C->perturb) gQ = st_truncgumbel(rs, locQ, gP);   /* drawn first, as above */
        for (int j = 0; j < n; j++) {
            if (sp[j] & MIP_FIXED) sq[j] = sp[j] & MIP_SIGMA_FIXED;
            else if (j == x) sq[j] = (unsigned char) (MIP_FIXED | (1 - (sp[j] & MIP_SIGMA)));
            else sq[j] = logz_stream_unif(rs) < C->q1[j] ? 1 : 0;
        }
    }
    W->gam[Q] = gQ; W->nfix[Q] = W->nfix[P] + 1; W->key[Q] = bnd + gQ;
    double vq = mip_value(M, sq, W->rowact) + gQ;
    if (vq > *vstar) {
        *vstar = vq;
        for (int i = 0; i < n; i++) best[i] = sq[i] & MIP_SIGMA;
    }
    sp[x] |= MIP_FIXED;
    W->nfix[P]++;
    W->key[P] = bnd + gP;
    W->flag[P] = W->flag[Q] = 0;
    return Q;
}

/* split_node() with the node's own random stream (mip_key.c): the draws of
 * P's split on x come from a stream seeded by the new child's key, and the
 * children get keys from P's, x and the side. */
static int split_keyed(mip_work *W, const mip_value_model *M, const mip_control *C,
                       int P, int x, double bnd, int *best, double *vstar)
{
    uint64_t k = W->nkey[P], kq = mip_key_child(k, x, 1);
    logz_stream ns;
    mip_node_stream(kq, &ns);
    int Q = split_node(W, M, C, &ns, P, x, bnd, best, vstar);
    if (Q < 0) return -1;
    W->nkey[P] = mip_key_child(k, x, 0);
    W->nkey[Q] = kq;
    return Q;
}

/* A configuration tied to its Gumbel value: into the incumbent if better,
 * or into the k best (mip_topk.c; S->vstar is then their threshold). */
static void offer(mip_shared *S, int n, double v, const int *sigma)
{
    if (!(v > S->vstar)) return;
    if (S->topk) S->vstar = mip_topk_offer(S->topk, v, sigma);
    else {
        S->vstar = v;
        memcpy(S->best, sigma, sizeof(int) * n);
    }
}

/* The incumbent value: v*, or the largest of the k best. */
static double top_value(const mip_shared *S)
{
    if (!S->topk) return S->vstar;
    return S->topk->count ? S->topk->value[0] : R_NegInf;
}

/* The dive: from the bounded root P, split along the target
 * h = ICM(round(tau)) until the leaf {h}; every sibling goes to the open list
 * with the root's bound. The leaf's sigma is h with its own Gumbel, so the
 * incumbent gets v(h) + gamma_h at once, and the search continues as usual.
 * Splitting choices that depend only on what is known so far leave the
 * top-down Gumbel process, hence the sample, unchanged. Returns 1 when out of
 * memory. */
static int dive(mip_shared *S, mip_work *W, const mip_value_model *M, const mip_control *C,
                int P, double bnd)
{
    int n = M->n;
    unsigned char *h = W->dive;
    for (int j = 0; j < n; j++) h[j] = W->tau[j] > 0.5;
    mip_icm(M, h, W->rowact);
    for (;;) {
        unsigned char *sp = W->state + (size_t) P * n;
        int x = -1, agree = 0;
        for (int j = 0; j < n && !agree; j++) {      /* first a variable where sigma = h */
            if (sp[j] & MIP_FIXED) continue;
            if ((sp[j] & MIP_SIGMA) == h[j]) { x = j; agree = 1; }
            else if (x < 0) x = j;
        }
        if (x < 0) break;                            /* P = {h}: counted when created */
        double vq = R_NegInf;                        /* the stage's cur: sigma_Q */
        int Q = split_keyed(W, M, C, P, x, bnd, W->stage->cur, &vq);
        if (Q < 0) return 1;
        offer(S, n, vq, W->stage->cur);
        int follow = agree ? P : Q, other = agree ? Q : P;
        if (W->key[other] > S->vstar) open_push(W, other, C->best_first);
        else pool_release(W, other);
        P = follow;
    }
    pool_release(W, P);
    return 0;
}


static void trace_add(mip_trace *T, double nodes, double t, double v, double U)
{
    if (!T->buf || T->len >= T->cap) return;
    double *r = T->buf + 4 * T->len++;
    r[0] = nodes; r[1] = t; r[2] = v; r[3] = U;
}

/* What becomes of a popped node once bounded (bound_node(), split_staged()). */
enum {
    NODE_DISCARD,            /* cannot beat the incumbent */
    NODE_SPLIT,              /* split on *x with bound *bnd */
    NODE_DIVE,               /* the root: dive to the LP solution's rounding */
    NODE_KEEP_OPEN,          /* GLPK stopped at the time limit: P stays open */
    NODE_INTERRUPTED,
    NODE_OUT_OF_MEMORY
};

/* The bound of the popped node P (state sp, a copy; Gumbel gP, fixings nfix,
 * flag, key) against the incumbent value vs, on the thread's scratch Ws and
 * control Cs: NODE_DISCARD, NODE_SPLIT (on *x with bound *bnd; *tau_int:
 * Ws->tau is an integral LP solution), NODE_DIVE, NODE_KEEP_OPEN or
 * NODE_INTERRUPTED. *lp counts LP solves and failures. Reads no shared
 * state: runs outside the lock. */
static int bound_node(mip_work *Ws, const mip_value_model *M, const mip_lp_def *L,
                      const mip_control *C, const unsigned char *sp, double gP, int nfix,
                      int flag, double key, double vs, double *bnd_out, int *x_out,
                      int *tau_int_out, double *lp)
{
    int n = M->n;
    if (n - nfix == 0) return NODE_DISCARD;   /* sigma is the only configuration (already counted) */
    double bnd;
    int have_tau = 0, tau_int = 0;
    if (C->bound_lp && flag) {
        /* the parent's LP solution is feasible for P and was integral on
         * P's fixing: it is optimal here too (no LP solve) */
        bnd = key - gP;
        for (int j = 0; j < n; j++) Ws->tau[j] = (sp[j] & MIP_TAU) ? 1.0 : 0.0;
        have_tau = tau_int = 1;
    } else if (C->bound_lp) {
        /* the simple bound (never below the LP's) sometimes prunes without a
         * GLPK solve; a min cut is cheap enough not to need it */
        int flow = C->cut || C->roof;
        if (!flow && mip_simple_bound(M, sp) + gP <= vs) return NODE_DISCARD;
        lp[0]++;
        int s;
        if (C->cut) {
            bnd = mip_cut_solve(C->cut, sp, C->cut_c0, Ws->tau);
            s = MIP_LP_OPTIMAL;
        } else if (C->roof) {
            bnd = mip_roof_bound(C->roof, sp, vs - gP - 1e-6 * (1.0 + fabs(vs - gP)), Ws->tau);
            s = MIP_LP_OPTIMAL;
        } else if (C->cycle) s = mip_lp_solve_cycle(Ws, L, C->cycle, n, sp, vs - gP, &bnd);
        else s = mip_lp_solve(Ws, L, n, sp, &bnd);
        if (s == MIP_LP_INTERRUPTED) return NODE_INTERRUPTED;
        if (s == MIP_LP_TIME_LIMIT) { lp[0]--; return NODE_KEEP_OPEN; }
        if (s == MIP_LP_INFEASIBLE) return NODE_DISCARD;
        if (s == MIP_LP_FAILED) { lp[1]++; bnd = key - gP; }   /* parent's bound */
        else {
            have_tau = tau_int = 1;
            for (int j = 0; j < n && tau_int; j++)
                if (!(sp[j] & MIP_FIXED) && fabs(Ws->tau[j] - floor(Ws->tau[j] + 0.5)) > 1e-9) tau_int = 0;
            double raw = bnd;
            bnd += 1e-7 * (1.0 + fabs(bnd));
            /* a cut bound within its rounding slack of pruning (ties: a tree
             * model under the tree proposal): the simple bound decides */
            if (flow && raw + gP <= vs && bnd + gP > vs && mip_simple_bound(M, sp) + gP <= vs)
                return NODE_DISCARD;
        }
    } else {
        bnd = mip_simple_bound(M, sp);
    }
    if (bnd + gP <= vs) return NODE_DISCARD;
    *bnd_out = bnd;
    *tau_int_out = tau_int;
    /* primal heuristic at the root: dive to the LP solution's rounding,
     * improved by ICM (a search order only: the distribution is unchanged) */
    if (C->dive && have_tau && nfix == 0) return NODE_DIVE;
    /* branching variable: a function of the node only (mip_key.c) */
    int x = -1;
    if (have_tau && C->branching != MIP_BRANCH_FIRST) {
        double bestfrac = 1e-6, bestdiff = -1.0;
        int xf = -1, xd = -1;
        for (int k = 0; k < n; k++) {
            int j = C->roof ? C->order[k] : k;   /* roof dual: ties (1/2) by the static order */
            if (sp[j] & MIP_FIXED) continue;
            double t = Ws->tau[j], fr = fmin(t, 1.0 - t);
            if (fr > bestfrac) { bestfrac = fr; xf = j; }
            double d = fabs(t - (double) (sp[j] & MIP_SIGMA));
            if (d > bestdiff) { bestdiff = d; xd = j; }
        }
        /* most fractional; if the LP solution is integral, forced branching:
         * auto on the free variable where it is farthest from sigma,
         * most_fractional on the first free variable in the static order */
        x = xf >= 0 ? xf : (C->branching == MIP_BRANCH_AUTO ? xd : -1);
        if (x == xd && xf < 0 && bestdiff > 0.5 && M->kind == MIP_KIND_PAIRWISE)
            x = mip_flip_loss_branch(M, Ws, sp, xd);
    }
    if (x < 0) {
        for (int k = 0; k < n; k++)
            if (!(sp[C->order[k]] & MIP_FIXED)) { x = C->order[k]; break; }
    }
    *x_out = x;
    return NODE_SPLIT;
}

static void copy_slot(mip_work *W, int a, const mip_work *St, int b, int n)
{
    memcpy(W->state + (size_t) a * n, St->state + (size_t) b * n, n);
    W->key[a] = St->key[b]; W->gam[a] = St->gam[b]; W->nfix[a] = St->nfix[b];
    W->flag[a] = St->flag[b]; W->nkey[a] = St->nkey[b];
}

/* The split of the popped node (a copy: state sp, Gumbel gP, fixings nfix,
 * key k) on x, outside the lock, on the thread's staging pool St: slot 0 is
 * P after the split, slot 1 the new child Q (split_keyed(): the same draws
 * as in the shared pool), with the LP solution tau kept on the child on its
 * side when integral. *vq gets v(sigma_Q) + gamma_Q and St->cur sigma_Q.
 * Only copying the two slots and the incumbent test are left for the lock.
 * 1 if out of memory. */
static int split_staged(mip_work *St, const double *tau, const mip_value_model *M,
                        const mip_control *C, const unsigned char *sp, double gP, int nfix,
                        uint64_t k, int x, double bnd, int tau_int, double *vq)
{
    int n = M->n;
    St->nused = St->nfree = St->nheap = 0;
    int P = pool_alloc(St, n);
    if (P < 0) return 1;
    memcpy(St->state, sp, n);
    St->gam[P] = gP; St->nfix[P] = nfix; St->nkey[P] = k; St->flag[P] = 0;
    *vq = R_NegInf;                      /* St->cur gets sigma_Q */
    int Q = split_keyed(St, M, C, P, x, bnd, St->cur, vq);
    if (Q < 0) return 1;
    if (tau_int) {
        /* the child on the side of an integral LP solution keeps LP and tau */
        const unsigned char *s0 = St->state + (size_t) P * n;
        int child = (tau[x] > 0.5) == (s0[x] & MIP_SIGMA) ? P : Q;
        unsigned char *sc = St->state + (size_t) child * n;
        St->flag[child] = 1;
        for (int j = 0; j < n; j++) sc[j] = (unsigned char) ((sc[j] & MIP_SIGMA_FIXED) | (tau[j] > 0.5 ? MIP_TAU : 0));
    }
    return 0;
}

/* The largest key of the open and the in-flight nodes (under the lock). */
static double open_upper(const mip_shared *S, int best_first)
{
    double U = open_max_key(S->W, best_first);
    for (int t = 0; t < S->nthreads; t++) U = fmax(U, S->ikey[t]);
    return U;
}

/* Algorithm 1's loop, run by the owner of the sample and by every thread that
 * joins it (mip_search_join()): under S's lock a thread pops the best open node and
 * copies it; outside it, bounds the copy (bound_node(), with its own scratch
 * Ws and min-cut graph Cs->cut); under the lock again, splits the node (its
 * draws from the node's key), updates the incumbent and pushes the children.
 * The search ends when no open or in-flight node can beat the incumbent. */
static void search_loop(mip_shared *S, int tid, mip_work *Ws, const mip_control *Cs)
{
    mip_work *W = S->W;
    const mip_value_model *M = S->M;
    mip_result *R = S->R;
    int n = M->n, bf = Cs->best_first, owner = tid == S->owner;
    unsigned char *sp = Ws->sbuf;
    for (;;) {
        int pl = mip_poll(Ws);
        mip_lock(S);
        if (pl == MIP_POLL_INTERRUPT && !R->status) R->status = MIP_INTERRUPTED;
        if (S->done || S->limited || R->status) { mip_unlock(S); break; }
        if (owner && S->wait_helpers && S->joinable && S->helpers < S->nthreads - 1) {
            mip_unlock(S);             /* tests (MIP_SHARE_FORCED): let every thread join */
            mip_sleep(PAUSE);
            continue;
        }
        if (bf && W->nheap > 0 && W->key[W->heap[0]] <= S->vstar)   /* every other key is smaller */
            while (W->nheap > 0) pool_release(W, open_pop(W, 1));
        if (W->nheap == 0) {
            int wait = S->inflight > 0;    /* the others' nodes may have children */
            if (!wait) S->done = 1;
            mip_unlock(S);
            if (wait) mip_sleep(PAUSE);
            continue;
        }
        if (R->nodes >= Cs->node_limit || (pl == MIP_POLL_TIME_LIMIT && R->nodes > 0)) {
            S->limited = 1;
            mip_unlock(S);
            break;
        }
        if (R->nodes >= S->next_trace) {
            trace_add(S->T, R->nodes, mip_now() - S->t0, top_value(S),
                      fmax(top_value(S), open_upper(S, bf)));
            S->next_trace *= 2;
        }
        int P = open_pop(W, bf);
        if (W->key[P] <= S->vstar) { pool_release(W, P); mip_unlock(S); continue; }
        R->nodes++;
        if (!owner) R->helped++;
        S->inflight++;
        memcpy(sp, W->state + (size_t) P * n, n);
        double gP = W->gam[P], key = W->key[P], vs = S->vstar;
        int nfix = W->nfix[P], flag = W->flag[P];
        uint64_t nkey = W->nkey[P];
        S->ikey[tid] = key;
        mip_unlock(S);

        double bnd = 0.0, lp[2] = {0.0, 0.0}, vq = R_NegInf;
        int x = -1, tau_int = 0;
        int what = bound_node(Ws, M, S->L, Cs, sp, gP, nfix, flag, key, vs, &bnd, &x, &tau_int, lp);
        mip_work *St = Ws->stage;
        if (what == NODE_SPLIT &&
            split_staged(St, Ws->tau, M, Cs, sp, gP, nfix, nkey, x, bnd, tau_int, &vq))
            what = NODE_OUT_OF_MEMORY;

        mip_lock(S);
        S->inflight--;
        S->ikey[tid] = R_NegInf;
        R->lp_solves += lp[0];
        R->lp_failures += lp[1];
        if (what == NODE_INTERRUPTED) R->status = MIP_INTERRUPTED;
        else if (what == NODE_OUT_OF_MEMORY) R->status = MIP_OUT_OF_MEMORY;
        else if (what == NODE_KEEP_OPEN) { open_push(W, P, bf); S->limited = 1; }
        else if (what == NODE_DISCARD || bnd + gP <= S->vstar) pool_release(W, P);
        else if (what == NODE_DIVE) {
            /* the root, expanded by its owner before others may join (Ws = W) */
            if (dive(S, W, M, Cs, P, bnd)) R->status = MIP_OUT_OF_MEMORY;
        } else {
            /* the staged split: P's new fixing and its child Q into the pool,
             * Q's sigma into the incumbent if better */
            int Q = pool_alloc(W, n);
            if (Q < 0) R->status = MIP_OUT_OF_MEMORY;
            else {
                copy_slot(W, P, St, 0, n);
                copy_slot(W, Q, St, 1, n);
                offer(S, n, vq, St->cur);
                /* depth first: the inheriting child is explored first */
                if (W->key[Q] > S->vstar) open_push(W, Q, bf); else pool_release(W, Q);
                if (W->key[P] > S->vstar) open_push(W, P, bf); else pool_release(W, P);
            }
        }
        if (owner && S->locking && !S->joinable) S->joinable = 1;   /* the root is expanded */
        mip_unlock(S);
    }
}

/* Thread tid (scratch Ws, control Cs with its own min-cut graph) joins S if
 * S is joinable and still running, and searches until it ends. 1 if it did. */
int mip_search_join(mip_shared *S, int tid, mip_work *Ws, const mip_control *Cs)
{
    if (!S->locking) return 0;
    int ok = 0;
    mip_lock(S);
    if (S->joinable && !S->done && !S->limited && !S->R->status) {
        S->helpers++;
        ok = 1;
        Ws->deadline = S->W->deadline;
    }
    mip_unlock(S);
    if (!ok) return 0;
    search_loop(S, tid, Ws, Cs);
    mip_lock(S);
    S->helpers--;
    mip_unlock(S);
    return 1;
}

/* The owner, after its loop ended: no new helper may join; wait until the
 * helpers (each finishing the node it bounds) have left. */
static void search_release(mip_shared *S)
{
    if (!S->locking) return;
    for (;;) {
        mip_lock(S);
        S->joinable = 0;
        int h = S->helpers;
        mip_unlock(S);
        if (h == 0) break;
        mip_sleep(PAUSE);
    }
}

/* One sample (Algorithm 1): the root, the loop (with any threads that join,
 * mip_search_join()), then Theorem 2's upper bound and Proposition 1's rank bound
 * over the open nodes left by a time or node limit. S is the owner's shared
 * state (mip_shared_init(); S->owner set; S->topk NULL for Algorithm 1's
 * incumbent, else a list of the k best whose first one goes to best). */
void mip_search(mip_shared *S, mip_work *W, const mip_value_model *M, const mip_lp_def *L,
                const mip_control *C, logz_stream *rs, int *best, mip_result *R,
                mip_trace *T)
{
    int n = M->n;
    double t0 = mip_now();
    W->nheap = 0; W->nfree = 0; W->nused = 0;
    W->deadline = t0 + C->time_limit;
    memset(R, 0, sizeof *R);
    if (C->cycle) mip_lp_reset(W, L);   /* GLPK searches are not shared: W bounds every node */
    int root = pool_alloc(W, n);
    if (root < 0) { R->status = MIP_OUT_OF_MEMORY; return; }
    unsigned char *st = W->state + (size_t) root * n;
    if (C->tree) {           /* sigma ~ q (mip_tree.c) */
        double *bel = tree_scratch(W, n);
        if (!bel) { R->status = MIP_OUT_OF_MEMORY; return; }
        memset(st, 0, n);
        mip_tree_region(C->tree, st, bel);
        mip_tree_draw(C->tree, st, bel, rs);
    } else
        for (int i = 0; i < n; i++) st[i] = logz_stream_unif(rs) < (C->lq ? C->q1[i] : 0.5) ? 1 : 0;
    double g0 = C->perturb ? st_gumbel(rs, C->lq || C->tree ? 0.0 : n * MIP_LOG2) : 0.0;
    W->gam[root] = g0; W->nfix[root] = 0; W->key[root] = R_PosInf; W->flag[root] = 0;
    W->nkey[root] = mip_key_root(rs);
    double vstar = mip_value(M, st, W->rowact) + g0;
    for (int i = 0; i < n; i++) best[i] = st[i] & MIP_SIGMA;
    if (S->topk) {           /* the k best: the root's sigma is the first offered */
        mip_topk_reset(S->topk);
        vstar = mip_topk_offer(S->topk, vstar, best);
    }
    open_push(W, root, C->best_first);
    if (!W->stage) { R->status = MIP_OUT_OF_MEMORY; return; }
    /* nobody has joined yet (joinable is 0 until the root is expanded); the
     * lock orders these writes before any helper's reads */
    mip_lock(S);
    S->W = W; S->M = M; S->L = L; S->best = best; S->vstar = vstar; S->t0 = t0;
    S->next_trace = 1; S->R = R; S->T = T;
    S->helpers = S->inflight = S->done = S->limited = S->joinable = 0;
    mip_unlock(S);
    search_loop(S, S->owner, W, C);
    search_release(S);   /* the helpers have left */
    if (R->status) return;
    vstar = top_value(S);
    if (S->topk && S->topk->count)
        memcpy(best, S->topk->states + (size_t) S->topk->slot[0] * n, sizeof(int) * n);
    R->value = vstar;
    R->exact = !S->limited;
    R->time = mip_now() - t0;
    double U;
    R->rank_bound = mip_rank_bound(W, C, n, vstar, &U);
    R->upper = U;
    if (S->topk) mip_topk_ranks(S->topk, W, C);
    trace_add(T, R->nodes, R->time, vstar, U);
}

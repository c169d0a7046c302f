/* A* sampling (Maddison, Tarlow & Minka 2014, Algorithm 2), its queue-free
 * "drill down" variant for unimodal 1-D targets, and the two baselines of the
 * paper with the same counters: rejection sampling with the global bound and
 * OS* (adaptive rejection with piecewise-constant bounds).
 *
 * The target is p(x) ∝ exp(i(x) + o(x)): i is the log density of a proposal
 * (proposal.c: box masses and truncated draws), o the log-likelihood
 * difference, and M(B) >= sup_{x in B} o(x) a bound over a box. o and M are
 * either R functions (called back) or built-in C models. Regions are boxes;
 * a box is split on its longest side (infinite sides first, round robin by
 * depth among ties) at the sampled point.
 *
 * Memory is R_alloc'ed (growing by doubling), so an error or an interrupt in
 * the middle of a search leaks nothing. All draws use R's RNG in one
 * GetRNGstate/PutRNGstate bracket per .Call.
 *
 * This file: the search (partition tree, queue, A* and drill-down). The target
 * (o and M) is in astar_target.c, the baselines in astar_baseline.c; astar.h
 * holds what they share. */
#include <math.h>
#include <string.h>
#include <Rmath.h>
#include "astar.h"

/* ---- the stored partition tree (kept across samples when reusing bounds) -- */

typedef struct {
    int d, n, cap;
    double *lo, *hi;          /* cap x d, row i at i * d */
    double *M, *lm;           /* bound (inherited until evaluated), log mass */
    int *has_bound, *left, *right, *split_dim, *depth;
    double *split_val;
} astar_tree;

static void tree_reserve(astar_tree *t, int need)
{
    if (need <= t->cap) return;
    int cap = t->cap ? t->cap : 64;
    while (cap < need) cap *= 2;
    size_t d = t->d, n = t->n;
    t->lo = grow(t->lo, n * d, (size_t) cap * d, sizeof(double));
    t->hi = grow(t->hi, n * d, (size_t) cap * d, sizeof(double));
    t->M = grow(t->M, n, cap, sizeof(double));
    t->lm = grow(t->lm, n, cap, sizeof(double));
    t->split_val = grow(t->split_val, n, cap, sizeof(double));
    t->has_bound = grow(t->has_bound, n, cap, sizeof(int));
    t->left = grow(t->left, n, cap, sizeof(int));
    t->right = grow(t->right, n, cap, sizeof(int));
    t->split_dim = grow(t->split_dim, n, cap, sizeof(int));
    t->depth = grow(t->depth, n, cap, sizeof(int));
    t->cap = cap;
}

static int tree_add(astar_tree *t, const double *lo, const double *hi, double M, double lm,
                    int depth)
{
    tree_reserve(t, t->n + 1);
    int i = t->n++;
    memcpy(t->lo + (size_t) i * t->d, lo, sizeof(double) * t->d);
    memcpy(t->hi + (size_t) i * t->d, hi, sizeof(double) * t->d);
    t->M[i] = M;
    t->lm[i] = lm;
    t->has_bound[i] = 0;
    t->left[i] = t->right[i] = -1;
    t->split_dim[i] = -1;
    t->split_val[i] = NA_REAL;
    t->depth[i] = depth;
    return i;
}

/* The side to split: the first infinite side (round robin from depth mod d),
 * else the longest (ties: round robin as well). */
int split_side(int d, const double *lo, const double *hi, int depth)
{
    int best = -1;
    double bw = -1.0;
    for (int k = 0; k < d; k++) {
        int j = (depth + k) % d;
        double w = hi[j] - lo[j];
        if (!R_FINITE(w)) return j;
        if (w > bw) { bw = w; best = j; }
    }
    return best;
}

/* Split leaf i of the tree at x (children get the parent's bound, not yet
 * evaluated). Boxes are copied to scratch first: tree_add may move them. */
static void tree_split(astar_tree *t, const logz_proposal *p, int i, const double *x,
                       double *lo, double *hi)
{
    int d = t->d;
    memcpy(lo, t->lo + (size_t) i * d, sizeof(double) * d);
    memcpy(hi, t->hi + (size_t) i * d, sizeof(double) * d);
    int j = split_side(d, lo, hi, t->depth[i]);
    double v = x[j], M = t->M[i], h = hi[j], l = lo[j];
    int depth = t->depth[i] + 1;
    hi[j] = v;
    int L = tree_add(t, lo, hi, M, proposal_log_mass(p, lo, hi), depth);
    hi[j] = h;
    lo[j] = v;
    int R = tree_add(t, lo, hi, M, proposal_log_mass(p, lo, hi), depth);
    lo[j] = l;
    t->left[i] = L;
    t->right[i] = R;
    t->split_dim[i] = j;
    t->split_val[i] = v;
}

static double tree_bound(astar_tree *t, astar_target *tg, int i)
{
    if (!t->has_bound[i]) {
        double m = target_bound(tg, t->lo + (size_t) i * t->d, t->hi + (size_t) i * t->d);
        if (m < t->M[i]) t->M[i] = m;   /* the parent's bound is valid too */
        t->has_bound[i] = 1;
    }
    return t->M[i];
}

/* ---- the priority queue: a binary max-heap of search items --------------- */

typedef struct {
    int d, n, cap;             /* items in the pool */
    double *G, *o, *x;         /* Gumbel value, o(x) (NaN: not yet), point */
    int *node;
    int hn;                    /* heap size; heap holds item indices */
    int *heap;
    double *pri;               /* priority per item: G + M */
} astar_queue;

static int queue_item(astar_queue *q, int node, double G, const double *x, double o)
{
    if (q->n + 1 > q->cap) {
        int cap = q->cap ? 2 * q->cap : 64;
        size_t n = q->n, d = q->d;
        q->G = grow(q->G, n, cap, sizeof(double));
        q->o = grow(q->o, n, cap, sizeof(double));
        q->pri = grow(q->pri, n, cap, sizeof(double));
        q->x = grow(q->x, n * d, (size_t) cap * d, sizeof(double));
        q->node = grow(q->node, n, cap, sizeof(int));
        q->heap = grow(q->heap, q->hn, cap, sizeof(int));
        q->cap = cap;
    }
    int k = q->n++;
    q->G[k] = G;
    q->o[k] = o;
    q->node[k] = node;
    memcpy(q->x + (size_t) k * q->d, x, sizeof(double) * q->d);
    return k;
}

static void heap_push(astar_queue *q, int k, double pri)
{
    q->pri[k] = pri;
    int i = q->hn++;
    while (i > 0) {
        int par = (i - 1) / 2;
        if (q->pri[q->heap[par]] >= pri) break;
        q->heap[i] = q->heap[par];
        i = par;
    }
    q->heap[i] = k;
}

static int heap_pop(astar_queue *q)
{
    int top = q->heap[0], last = q->heap[--q->hn], i = 0;
    double pl = q->pri[last];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= q->hn) break;
        if (c + 1 < q->hn && q->pri[q->heap[c + 1]] > q->pri[q->heap[c]]) c++;
        if (q->pri[q->heap[c]] <= pl) break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (q->hn > 0) q->heap[i] = last;
    return top;
}

/* ---- A* sampling ---------------------------------------------------------- */

typedef struct {
    double lik, bound, nodes;
    double max_nodes;          /* limit of splits per sample */
    double next_check;         /* see target_check_interrupt() */
} astar_counts;

static void check_node_limit(const astar_target *tg, const astar_counts *cnt)
{
    if (cnt->nodes > cnt->max_nodes)
        error("target '%s': more than max_nodes = %.0f regions were split for one sample; "
              "the bounds may be far too loose (or log_lik far from the proposal).",
              tg->name, cnt->max_nodes);
}

/* The search of Algorithm 2. A leaf popped from the queue is expanded
 * together with the next L - 1 largest Gumbel values below it (a local
 * top-down construction in decreasing G order; Section 4's "several lower
 * bounds per node"), evaluating o at each point, and only the regions left
 * at the end are bounded and queued. L = 1 is Algorithm 2 itself: the popped
 * node's children are bounded and queued. L is fixed, or (lb_random) drawn
 * per pop as 1 + Poisson(lb_mean - 1), as in the paper's Figure 3. The
 * children of a leaf just split at its point draw their maxima below the
 * parent's and are pruned with the parent's bound before their own is
 * computed; the number left live is returned. */
static int local_children(astar_tree *t, astar_queue *loc, astar_target *tg, int node,
                          double G, double LB, double *xc)
{
    int live = 0;
    double Mp = t->M[node];
    for (int s = 0; s < 2; s++) {
        int c = s == 0 ? t->left[node] : t->right[node];
        double Gc = logz_rtruncgumbel1(t->lm[c], G);
        if (!(LB < Gc + Mp) || t->lm[c] == R_NegInf) continue;
        proposal_draw(&tg->prop, t->lo + (size_t) c * t->d, t->hi + (size_t) c * t->d, xc);
        heap_push(loc, queue_item(loc, c, Gc, xc, NA_REAL), Gc);
        live++;
    }
    return live;
}

/* Undo the split of leaf i just made by tree_split (its children are the
 * last two nodes): when the parent's bound prunes both children, the region
 * stays one leaf of the stored partition, so a later sample expands it
 * afresh instead of bounding two children it never needed. */
static void tree_unsplit(astar_tree *t, int i)
{
    t->n -= 2;
    t->left[i] = t->right[i] = -1;
    t->split_dim[i] = -1;
    t->split_val[i] = NA_REAL;
}

/* A region split by an earlier sample (reused bounds), taken from the queue:
 * its Gumbel value and point pass to the child holding the point, the other
 * child draws its maximum below it, and both are queued on their stored
 * bounds. No likelihood is evaluated here: the point's lower bound is taken
 * when the leaf holding it is expanded (Section 4's search over the stored
 * partition), so walking down the stored tree costs bound evaluations only
 * for children never bounded before. */
static void descend_stored(astar_tree *t, astar_queue *q, astar_target *tg, int node, double G,
                           const double *xp, double o, double LB, double *xc)
{
    double Mp = t->M[node];
    int inherit_left = xp[t->split_dim[node]] < t->split_val[node];
    for (int s = 0; s < 2; s++) {
        int c = s == 0 ? t->left[node] : t->right[node];
        int inherit = s == 0 ? inherit_left : !inherit_left;
        double Gc = inherit ? G : logz_rtruncgumbel1(t->lm[c], G);
        if (!(LB < Gc + Mp) || t->lm[c] == R_NegInf) continue;
        double Mc = tree_bound(t, tg, c);
        if (!(LB < Gc + Mc)) continue;
        if (inherit) {
            if (!ISNAN(o)) check_below_bound(tg, o, Mc, xp);
            heap_push(q, queue_item(q, c, Gc, xp, o), Gc + Mc);
        } else {
            proposal_draw(&tg->prop, t->lo + (size_t) c * t->d, t->hi + (size_t) c * t->d, xc);
            heap_push(q, queue_item(q, c, Gc, xc, NA_REAL), Gc + Mc);
        }
    }
}

static double astar_one(astar_tree *t, astar_queue *q, astar_queue *loc, astar_target *tg,
                        double lb_mean, int lb_random, double *x_out, double *scratch,
                        astar_counts *cnt)
{
    int d = t->d;
    double *lo = scratch, *hi = scratch + d, *xc = scratch + 2 * d, *xp = scratch + 3 * d;
    double LB = R_NegInf;
    int found = 0;
    q->n = 0;
    q->hn = 0;
    double G1 = logz_rgumbel1(t->lm[0]);
    double M1 = tree_bound(t, tg, 0);
    if (LB < G1 + M1) {
        proposal_draw(&tg->prop, t->lo, t->hi, xc);
        heap_push(q, queue_item(q, 0, G1, xc, NA_REAL), G1 + M1);
    }
    while (q->hn > 0 && LB < q->pri[q->heap[0]]) {
        int k = heap_pop(q);
        if (t->left[q->node[k]] >= 0) {
            memcpy(xp, q->x + (size_t) k * d, sizeof(double) * d);
            descend_stored(t, q, tg, q->node[k], q->G[k], xp, q->o[k], LB, xc);
            continue;
        }
        int L = lb_random ? 1 + (int) rpois(lb_mean - 1.0) : (int) lb_mean;
        loc->n = 0;
        loc->hn = 0;
        heap_push(loc, queue_item(loc, q->node[k], q->G[k], q->x + (size_t) k * d, q->o[k]),
                  q->G[k]);
        int expanded = 0;
        while (loc->hn > 0) {
            int j = heap_pop(loc), node = loc->node[j];
            double G = loc->G[j], o = loc->o[j];
            if (!(LB < G + t->M[node])) continue;          /* cannot hold the maximum */
            memcpy(xp, loc->x + (size_t) j * d, sizeof(double) * d);
            if (expanded < L) {
                if (ISNAN(o)) o = target_log_lik(tg, xp);
                /* also a point inherited on the stored tree: the leaf's bound may be newer */
                check_below_bound(tg, o, t->M[node], xp);
                cnt->nodes += 1;
                expanded++;
                if (G + o > LB) {
                    LB = G + o;
                    memcpy(x_out, xp, sizeof(double) * d);
                    found = 1;
                }
                /* a leaf: regions of the stored tree are walked in descend_stored */
                tree_split(t, &tg->prop, node, xp, lo, hi);
                if (local_children(t, loc, tg, node, G, LB, xc) == 0) tree_unsplit(t, node);
            } else {
                /* a leaf of the local expansion: bound it and queue it */
                double Mc = tree_bound(t, tg, node);
                /* the point inherited from the parent lies in this box: its
                 * likelihood must not exceed the box's (new) bound */
                if (!ISNAN(o)) check_below_bound(tg, o, Mc, xp);
                if (LB < G + Mc) heap_push(q, queue_item(q, node, G, xp, o), G + Mc);
            }
        }
        target_check_interrupt(tg, &cnt->next_check);
        check_node_limit(tg, cnt);
    }
    if (!found) error("target '%s' has zero mass: every region is bounded by -Inf.", tg->name);
    return LB;
}

/* Drill down (Section 4): for unimodal o in 1-D one child of every split is
 * pruned at once, so there is no queue, only the live node. */
static double drill_down_one(astar_tree *t, astar_target *tg, double *x_out, double *scratch,
                             astar_counts *cnt)
{
    double *lo = scratch, *hi = scratch + 1, *xc = scratch + 2, *xp = scratch + 3;
    double LB = R_NegInf;
    int found = 0, node = 0;
    double G = logz_rgumbel1(t->lm[0]);
    double M = tree_bound(t, tg, 0);
    if (!(LB < G + M)) node = -1;
    else proposal_draw(&tg->prop, t->lo, t->hi, xp);
    while (node >= 0) {
        double o = target_log_lik(tg, xp);
        check_below_bound(tg, o, t->M[node], xp);
        cnt->nodes += 1;
        if (G + o > LB) {
            LB = G + o;
            x_out[0] = xp[0];
            found = 1;
        }
        tree_split(t, &tg->prop, node, xp, lo, hi);
        int next = -1;
        double Gnext = 0.0, Mp = t->M[node];
        for (int s = 0; s < 2; s++) {
            int c = s == 0 ? t->left[node] : t->right[node];
            double Gc = logz_rtruncgumbel1(t->lm[c], G);
            if (!(LB < Gc + Mp) || t->lm[c] == R_NegInf) continue;
            double Mc = tree_bound(t, tg, c);
            if (!(LB < Gc + Mc)) continue;
            if (next >= 0)
                error("target '%s': drill-down found two live regions, so log_lik is not "
                      "unimodal (or its bounds are not tight); use method = \"astar\".",
                      tg->name);
            next = c;
            Gnext = Gc;
            proposal_draw(&tg->prop, t->lo + c, t->hi + c, xc);
        }
        node = next;
        G = Gnext;
        xp[0] = xc[0];
        target_check_interrupt(tg, &cnt->next_check);
        check_node_limit(tg, cnt);
    }
    if (!found) error("target '%s' has zero mass: every region is bounded by -Inf.", tg->name);
    return LB;
}

static void tree_reset(astar_tree *t, const logz_proposal *p, double *lo, double *hi)
{
    t->n = 0;
    proposal_support(p, lo, hi);
    tree_add(t, lo, hi, R_PosInf, proposal_log_mass(p, lo, hi), 0);
}

#define TREE_MAX_NODES (1 << 21)

/* n exact samples by A* sampling or the drill down (o->method), with R's RNG
 * (the caller brackets GetRNGstate / PutRNGstate); fills r. Returns 0 (a
 * target the search cannot handle is an R error from the search). */
int astar_sample_run(astar_target *tg, const astar_opts *o, const logz_progress *pr,
                     astar_result *r)
{
    int n = o->n, d = tg->d, method = o->method;
    astar_tree t;
    memset(&t, 0, sizeof(t));
    t.d = d;
    astar_queue q, loc;
    memset(&q, 0, sizeof(q));
    memset(&loc, 0, sizeof(loc));
    q.d = d;
    loc.d = d;
    double *scratch = (double *) R_alloc(4 * (size_t) d, sizeof(double));
    double *x = (double *) R_alloc(d, sizeof(double));
    for (int s = 0; s < n; s++) {
        if (s == 0 || !o->reuse || method == LOGZ_SEARCH_DRILL_DOWN || t.n > TREE_MAX_NODES)
            tree_reset(&t, &tg->prop, scratch, scratch + d);
        astar_counts cnt = {.lik = 0, .bound = 0, .nodes = 0, .max_nodes = o->max_nodes};
        double l0 = tg->n_lik, b0 = tg->n_bound;
        r->gumbel[s] = method == LOGZ_SEARCH_DRILL_DOWN
                           ? drill_down_one(&t, tg, x, scratch, &cnt)
                           : astar_one(&t, &q, &loc, tg, o->lb_mean, o->lb_random, x, scratch,
                                       &cnt);
        for (int j = 0; j < d; j++) r->samples[s + (size_t) n * j] = x[j];
        r->likelihood[s] = tg->n_lik - l0;
        r->bound[s] = tg->n_bound - b0;
        r->nodes[s] = cnt.nodes;
        R_CheckUserInterrupt();
        logz_progress_tick(pr, s + 1, n);
    }
    r->tree_size = t.n;
    return 0;
}

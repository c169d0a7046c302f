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
 * GetRNGstate/PutRNGstate bracket per .Call. */
#include <math.h>
#include <string.h>
#include <Rmath.h>
#include "logz.h"

enum { MODEL_R = 0, MODEL_PEAKY = 1, MODEL_CLUTTER = 2, MODEL_CAUCHY = 3, MODEL_EXPR = 4,
       MODEL_GAUSS_MEAN = 5 };
enum { BOUND_CONSTANT = 0, BOUND_LINEAR = 1, BOUND_QUADRATIC = 2 };

typedef struct {
    const char *name;
    int d, model;
    logz_proposal prop;
    const double *par;
    int npar;
    const double *X, *y;   /* data: X nrow x ncol (column-major), y nrow */
    int nrow, ncol;
    double *work;          /* per-row constants of the model */
    SEXP log_lik, bound, env;
    logz_program prog;     /* MODEL_EXPR: the compiled expression */
    double *stack, *stack_hi;
    double n_lik, n_bound; /* evaluation counters */
} astar_target;

/* ---- target: log-likelihood difference o(x) and region bound M(B) -------- */

static void target_from_list(SEXP t, astar_target *tg)
{
    SEXP name = logz_get(t, "name"), model = logz_get(t, "model"), par = logz_get(t, "par");
    SEXP X = logz_get(t, "X"), y = logz_get(t, "y");
    if (TYPEOF(name) != STRSXP || TYPEOF(model) != INTSXP || TYPEOF(par) != REALSXP)
        error("internal error: malformed A* target");
    memset(tg, 0, sizeof(*tg));
    tg->name = CHAR(STRING_ELT(name, 0));
    tg->model = INTEGER(model)[0];
    proposal_from_list(logz_get(t, "proposal"), &tg->prop);
    tg->d = tg->prop.d;
    tg->par = REAL(par);
    tg->npar = LENGTH(par);
    if (!isNull(X)) {
        SEXP dim = getAttrib(X, R_DimSymbol);
        if (TYPEOF(X) != REALSXP || LENGTH(dim) != 2) error("internal error: bad target data");
        tg->X = REAL(X);
        tg->nrow = INTEGER(dim)[0];
        tg->ncol = INTEGER(dim)[1];
    }
    if (!isNull(y)) {
        if (TYPEOF(y) != REALSXP || LENGTH(y) != tg->nrow) error("internal error: bad target y");
        tg->y = REAL(y);
    }
    switch (tg->model) {
    case MODEL_R:
        tg->log_lik = logz_get(t, "log_lik");
        tg->bound = logz_get(t, "bound");
        tg->env = logz_get(t, "env");
        if (!isFunction(tg->log_lik) || !isFunction(tg->bound) || !isEnvironment(tg->env))
            error("internal error: R target without functions");
        break;
    case MODEL_PEAKY:
        if (tg->npar != 1 || tg->d != 1) error("internal error: bad peaky target");
        break;
    case MODEL_CLUTTER: {
        /* par: inlier weight w, outlier sd s; o(x) = sum_n log(w N(y_n; x, I) +
         * (1 - w) N(y_n; 0, s^2 I)); work[n] = log of the outlier term. */
        if (tg->npar != 2 || !tg->X || tg->ncol != tg->d) error("internal error: bad clutter target");
        double w = tg->par[0], s = tg->par[1], D = tg->d;
        tg->work = (double *) R_alloc((size_t) tg->nrow + 1, sizeof(double));
        for (int n = 0; n < tg->nrow; n++) {
            double ss = 0.0;
            for (int j = 0; j < tg->d; j++) {
                double v = tg->X[n + (size_t) tg->nrow * j];
                ss += v * v;
            }
            tg->work[n] = log1p(-w) - 0.5 * ss / (s * s) - 0.5 * D * log(2 * M_PI) - D * log(s);
        }
        tg->work[tg->nrow] = log(w) - 0.5 * D * log(2 * M_PI);
        break;
    }
    case MODEL_CAUCHY:
        /* par: prior sd (0: no prior term), offset added to o. */
        if (tg->npar != 2 || !tg->X || !tg->y || tg->ncol != tg->d)
            error("internal error: bad Cauchy regression target");
        break;
    case MODEL_GAUSS_MEAN: {
        /* par: sd, bound type; X: the N observations (N x 1); work: sum x,
         * sum x^2, N log N(0; 0, sd^2) */
        if (tg->npar != 2 || !tg->X || tg->ncol != 1 || tg->d != 1)
            error("internal error: bad Gaussian-mean target");
        double s = tg->par[0], s1 = 0.0, s2 = 0.0;
        for (int n = 0; n < tg->nrow; n++) {
            s1 += tg->X[n];
            s2 += tg->X[n] * tg->X[n];
        }
        tg->work = (double *) R_alloc(3, sizeof(double));
        tg->work[0] = s1;
        tg->work[1] = s2;
        tg->work[2] = tg->nrow * (-0.5 * log(2 * M_PI) - log(s));
        break;
    }
    case MODEL_EXPR:
        program_from_list(logz_get(t, "program"), &tg->prog);
        if (tg->prog.d != tg->d) error("internal error: expression of the wrong dimension");
        tg->stack = (double *) R_alloc((size_t) tg->prog.n + 1, sizeof(double));
        tg->stack_hi = (double *) R_alloc((size_t) tg->prog.n + 1, sizeof(double));
        break;
    default:
        error("internal error: unknown A* model %d", tg->model);
    }
}

static double call_r_scalar(astar_target *tg, SEXP fn, int nargs, const double *a,
                            const double *b, const char *what)
{
    int d = tg->d;
    SEXP xa = PROTECT(allocVector(REALSXP, d));
    memcpy(REAL(xa), a, sizeof(double) * d);
    SEXP call;
    if (nargs == 1) {
        call = PROTECT(lang2(fn, xa));
    } else {
        SEXP xb = PROTECT(allocVector(REALSXP, d));
        memcpy(REAL(xb), b, sizeof(double) * d);
        call = lang3(fn, xa, xb);
        UNPROTECT(1);
        PROTECT(call);
    }
    SEXP r = PROTECT(eval(call, tg->env));
    if (!(TYPEOF(r) == REALSXP || TYPEOF(r) == INTSXP || TYPEOF(r) == LGLSXP) || LENGTH(r) != 1)
        error("target '%s': `%s` must return a single number.", tg->name, what);
    double v = asReal(r);
    UNPROTECT(3);
    return v;
}

static double clutter_term(const astar_target *tg, int n, const double *x)
{
    double ss = 0.0;
    for (int j = 0; j < tg->d; j++) {
        double r = tg->X[n + (size_t) tg->nrow * j] - x[j];
        ss += r * r;
    }
    return logz_log_add_exp(tg->work[tg->nrow] - 0.5 * ss, tg->work[n]);
}

/* 1-D Gaussian mean: o(mu) = sum_n log N(x_n; mu, sd^2), from the sums */
static double gauss_mean_o(const astar_target *tg, double mu)
{
    double s = tg->par[0], N = tg->nrow;
    return tg->work[2] - (tg->work[1] - 2.0 * mu * tg->work[0] + N * mu * mu) / (2.0 * s * s);
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Bounds of o over [l, u] (Section 6.2): "constant" sums each term's maximum
 * (at the point of the box nearest x_n); "linear" sums each term's tangent
 * at the box centre m (an upper bound: the terms are concave) and maximises
 * the sum, o(m) + o'(m)(mu - m), at an end of the box, falling back to
 * constant bounds on unbounded boxes; "quadratic" sums the terms themselves
 * (quadratic, so the bound is tight): o at the clamped mean. */
static double gauss_mean_m(const astar_target *tg, double l, double u)
{
    double s = tg->par[0], N = tg->nrow;
    int type = (int) tg->par[1];
    if (type == BOUND_QUADRATIC) return gauss_mean_o(tg, clamp(tg->work[0] / N, l, u));
    if (type == BOUND_LINEAR && R_FINITE(l) && R_FINITE(u)) {
        double m = 0.5 * (l + u), g = (tg->work[0] - N * m) / (s * s);
        return gauss_mean_o(tg, m) + (g > 0 ? g * (u - m) : g * (l - m));
    }
    double ss = 0.0;
    for (int n = 0; n < tg->nrow; n++) {
        double r = tg->X[n] - clamp(tg->X[n], l, u);
        ss += r * r;
    }
    return tg->work[2] - ss / (2.0 * s * s);
}

static double target_o(astar_target *tg, const double *x)
{
    double o = 0.0;
    switch (tg->model) {
    case MODEL_R:
        o = call_r_scalar(tg, tg->log_lik, 1, x, NULL, "log_lik");
        break;
    case MODEL_PEAKY:
        o = -tg->par[0] * log1p(x[0]);
        break;
    case MODEL_CLUTTER:
        for (int n = 0; n < tg->nrow; n++) o += clutter_term(tg, n, x);
        break;
    case MODEL_CAUCHY: {
        double s = tg->par[0];
        if (s > 0)
            for (int j = 0; j < tg->d; j++) o += dnorm(x[j], 0.0, s, 1);
        for (int n = 0; n < tg->nrow; n++) {
            double r = -tg->y[n];
            for (int j = 0; j < tg->d; j++) r += tg->X[n + (size_t) tg->nrow * j] * x[j];
            o -= log1p(r * r);
        }
        o += tg->par[1] - tg->nrow * log(M_PI);
        break;
    }
    case MODEL_EXPR:
        o = program_point(&tg->prog, x, tg->stack);
        break;
    case MODEL_GAUSS_MEAN:
        o = gauss_mean_o(tg, x[0]);
        break;
    }
    return o;
}

/* o(x), counted; +Inf and NaN are errors, -Inf is zero density. */
static double target_log_lik(astar_target *tg, const double *x)
{
    tg->n_lik += 1;
    double o = target_o(tg, x);
    if (ISNAN(o) || o == R_PosInf)
        error("target '%s': log_lik is %s at x = (%g%s); it must be finite or -Inf.",
              tg->name, ISNAN(o) ? "NaN" : "+Inf", x[0], tg->d > 1 ? ", ..." : "");
    return o;
}

static double target_m(astar_target *tg, const double *lo, const double *hi)
{
    double m = 0.0;
    switch (tg->model) {
    case MODEL_R:
        m = call_r_scalar(tg, tg->bound, 2, lo, hi, "bound");
        break;
    case MODEL_PEAKY:
        m = -tg->par[0] * log1p(lo[0] > 0 ? lo[0] : 0.0);
        break;
    case MODEL_CLUTTER: {
        /* each term is largest at the point of the box nearest y_n */
        double *xs = (double *) R_alloc(tg->d, sizeof(double));
        for (int n = 0; n < tg->nrow; n++) {
            for (int j = 0; j < tg->d; j++)
                xs[j] = clamp(tg->X[n + (size_t) tg->nrow * j], lo[j], hi[j]);
            m += clutter_term(tg, n, xs);
        }
        break;
    }
    case MODEL_CAUCHY: {
        /* prior: at the point of the box nearest 0; each residual r_n ranges
         * over an interval [rl, ru]; -log1p(r^2) is largest at min |r|. */
        double s = tg->par[0];
        if (s > 0)
            for (int j = 0; j < tg->d; j++) m += dnorm(clamp(0.0, lo[j], hi[j]), 0.0, s, 1);
        for (int n = 0; n < tg->nrow; n++) {
            double rl = -tg->y[n], ru = -tg->y[n];
            for (int j = 0; j < tg->d; j++) {
                double c = tg->X[n + (size_t) tg->nrow * j];
                if (c == 0.0) continue;
                double a = c * lo[j], b = c * hi[j];
                rl += a < b ? a : b;
                ru += a < b ? b : a;
            }
            double r = (rl <= 0.0 && ru >= 0.0) ? 0.0 : (rl > 0.0 ? rl : -ru);
            m -= log1p(r * r);
        }
        m += tg->par[1] - tg->nrow * log(M_PI);
        break;
    }
    case MODEL_EXPR: {
        double l;
        program_box(&tg->prog, lo, hi, tg->stack, tg->stack_hi, &l, &m);
        break;
    }
    case MODEL_GAUSS_MEAN:
        m = gauss_mean_m(tg, lo[0], hi[0]);
        break;
    }
    return m;
}

/* M(B), counted; NaN is an error. */
static double target_bound(astar_target *tg, const double *lo, const double *hi)
{
    tg->n_bound += 1;
    const void *vmax = vmaxget();
    double m = target_m(tg, lo, hi);
    vmaxset(vmax);
    if (ISNAN(m)) error("target '%s': bound is NaN on a region.", tg->name);
    return m;
}

static void check_below_bound(const astar_target *tg, double o, double m, const double *x)
{
    /* (an infinite bound gets no tolerance: -Inf + Inf would be NaN) */
    if (o > m + (R_FINITE(m) ? 1e-8 * (1.0 + fabs(m)) : 0.0))
        error("target '%s': log_lik at x = (%g%s) is %g, above the bound %g of its region; "
              "`bound` must return an upper bound of `log_lik` over the box.",
              tg->name, x[0], tg->d > 1 ? ", ..." : "", o, m);
}

/* ---- growable arrays on R_alloc ------------------------------------------ */

static void *grow(void *old, size_t n_old, size_t n_new, size_t size)
{
    void *p = R_alloc(n_new, size);
    if (old && n_old) memcpy(p, old, n_old * size);
    return p;
}

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
static int split_side(int d, const double *lo, const double *hi, int depth)
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
} astar_counts;

static void check_node_limit(const astar_target *tg, const astar_counts *cnt)
{
    if (cnt->nodes > cnt->max_nodes)
        error("target '%s': more than max_nodes = %.0f regions were split for one sample; "
              "the bounds may be far too loose (or log_lik far from the proposal).",
              tg->name, cnt->max_nodes);
}

/* The search of Algorithm 2. A node popped from the queue is expanded
 * together with the next L - 1 largest Gumbel values below it (a local
 * top-down construction in decreasing G order; Section 4's "several lower
 * bounds per node"), evaluating o at each point, and only the regions left
 * at the end are bounded and queued. L = 1 is Algorithm 2 itself: the popped
 * node's children are bounded and queued. L is fixed, or (lb_random) drawn
 * per pop as 1 + Poisson(lb_mean - 1), as in the paper's Figure 3. Children
 * are pruned with the parent's bound before their own is computed; a child
 * of a region split by an earlier sample that holds the parent's point
 * inherits its Gumbel value, point and o (reused bounds). */
static void local_children(astar_tree *t, astar_queue *loc, astar_target *tg, int node,
                           int split_here, double G, const double *xp, double o, double LB,
                           double *xc)
{
    double Mp = t->M[node];
    /* split at xp just now: both children fresh; split earlier: one inherits */
    int inherit_left = split_here ? -1 : xp[t->split_dim[node]] < t->split_val[node];
    for (int s = 0; s < 2; s++) {
        int c = s == 0 ? t->left[node] : t->right[node];
        int inherit = inherit_left >= 0 && (s == 0 ? inherit_left : !inherit_left);
        double Gc = inherit ? G : logz_rtruncgumbel1(t->lm[c], G);
        if (!(LB < Gc + Mp) || t->lm[c] == R_NegInf) continue;
        int k;
        if (inherit) {
            k = queue_item(loc, c, Gc, xp, o);
        } else {
            proposal_draw(&tg->prop, t->lo + (size_t) c * t->d, t->hi + (size_t) c * t->d, xc);
            k = queue_item(loc, c, Gc, xc, NA_REAL);
        }
        heap_push(loc, k, Gc);
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
                /* also an inherited point: the node's own bound may be newer */
                check_below_bound(tg, o, t->M[node], xp);
                cnt->nodes += 1;
                expanded++;
                if (G + o > LB) {
                    LB = G + o;
                    memcpy(x_out, xp, sizeof(double) * d);
                    found = 1;
                }
                int split_here = t->left[node] < 0;
                if (split_here) tree_split(t, &tg->prop, node, xp, lo, hi);
                local_children(t, loc, tg, node, split_here, G, xp, o, LB, xc);
            } else {
                /* a leaf of the local expansion: bound it and queue it */
                double Mc = tree_bound(t, tg, node);
                /* the point inherited from the parent lies in this box: its
                 * likelihood must not exceed the box's (new) bound */
                if (!ISNAN(o)) check_below_bound(tg, o, Mc, xp);
                if (LB < G + Mc) heap_push(q, queue_item(q, node, G, xp, o), G + Mc);
            }
        }
        if (tg->model == MODEL_R || ((long) cnt->nodes & 1023) == 0) R_CheckUserInterrupt();
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
        if (tg->model == MODEL_R || ((long) cnt->nodes & 1023) == 0) R_CheckUserInterrupt();
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

/* control: list(method = 0 astar / 1 drill down, reuse = TRUE/FALSE). */
SEXP astar_sample_call(SEXP target, SEXP n_, SEXP control)
{
    astar_target tg;
    target_from_list(target, &tg);
    int n = asInteger(n_), d = tg.d;
    int method = asInteger(logz_get(control, "method"));
    int reuse = asLogical(logz_get(control, "reuse"));
    double max_nodes = asReal(logz_get(control, "max_nodes"));
    double lb_mean = asReal(logz_get(control, "lower_bounds"));
    int lb_random = asLogical(logz_get(control, "lower_bounds_random"));
    if (n == NA_INTEGER || n < 0 || method == NA_INTEGER || reuse == NA_LOGICAL ||
        ISNAN(max_nodes) || !(lb_mean >= 1.0) || lb_random == NA_LOGICAL)
        error("internal error: bad arguments to astar_sample");
    if (method == 1 && d != 1) error("internal error: drill down needs d = 1");

    const char *names[] = {"samples", "gumbel", "likelihood", "bound", "nodes", "tree_size", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP samples = allocMatrix(REALSXP, n, d);
    SET_VECTOR_ELT(out, 0, samples);
    for (int i = 1; i <= 4; i++) SET_VECTOR_ELT(out, i, allocVector(REALSXP, n));
    double *S = REAL(samples), *gum = REAL(VECTOR_ELT(out, 1));
    double *clik = REAL(VECTOR_ELT(out, 2)), *cbnd = REAL(VECTOR_ELT(out, 3)),
           *cnod = REAL(VECTOR_ELT(out, 4));

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

    GetRNGstate();
    for (int s = 0; s < n; s++) {
        if (s == 0 || !reuse || method == 1 || t.n > TREE_MAX_NODES)
            tree_reset(&t, &tg.prop, scratch, scratch + d);
        astar_counts cnt = {0, 0, 0, max_nodes};
        double l0 = tg.n_lik, b0 = tg.n_bound;
        gum[s] = method == 1 ? drill_down_one(&t, &tg, x, scratch, &cnt)
                 : astar_one(&t, &q, &loc, &tg, lb_mean, lb_random, x, scratch, &cnt);
        for (int j = 0; j < d; j++) S[s + (size_t) n * j] = x[j];
        clik[s] = tg.n_lik - l0;
        cbnd[s] = tg.n_bound - b0;
        cnod[s] = cnt.nodes;
        R_CheckUserInterrupt();
    }
    PutRNGstate();
    SET_VECTOR_ELT(out, 5, ScalarInteger(t.n));
    UNPROTECT(1);
    return out;
}

/* ---- baselines: rejection (refine = 0) and OS* (1 sampled point, 2 largest
 * mass). Pieces are boxes with bounds; a piece is proposed with probability
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
    if (P->mh_n == 0) error("internal error: empty mass heap");
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
    if (n == NA_INTEGER || n < 0 || refine == NA_INTEGER || refine < 0 || refine > 2 ||
        reuse == NA_LOGICAL || ISNAN(max_nodes))
        error("internal error: bad arguments to astar_baseline");

    const char *names[] = {"samples", "likelihood", "bound", "nodes", "log_w_sum",
                           "log_w2_sum", "trials", "pieces", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP samples = allocMatrix(REALSXP, n, d);
    SET_VECTOR_ELT(out, 0, samples);
    for (int i = 1; i <= 3; i++) SET_VECTOR_ELT(out, i, allocVector(REALSXP, n));
    double *S = REAL(samples), *clik = REAL(VECTOR_ELT(out, 1)),
           *cbnd = REAL(VECTOR_ELT(out, 2)), *cnod = REAL(VECTOR_ELT(out, 3));

    os_pieces P;
    memset(&P, 0, sizeof(P));
    P.d = d;
    P.use_mh = refine == 2;
    double *lo = (double *) R_alloc(d, sizeof(double)), *hi = (double *) R_alloc(d, sizeof(double));
    double *x = (double *) R_alloc(d, sizeof(double));
    double lw1 = R_NegInf, lw2 = R_NegInf, trials = 0.0;
    long iter = 0;

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
            /* an R log_lik may take long per call: check after each one */
            if (++iter % 1024 == 0 || tg.model == MODEL_R) R_CheckUserInterrupt();
            if (-exp_rand() < o - P.M[i]) break;     /* log U < o - M: accept */
            if (refine == 1) {
                int j = split_side(d, P.lo + (size_t) i * d, P.hi + (size_t) i * d, P.depth[i]);
                pieces_split(&P, &tg, i, j, x[j], lo, hi);
                splits++;
            } else if (refine == 2) {
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
    }
    PutRNGstate();
    SET_VECTOR_ELT(out, 4, ScalarReal(lw1));
    SET_VECTOR_ELT(out, 5, ScalarReal(lw2));
    SET_VECTOR_ELT(out, 6, ScalarReal(trials));
    SET_VECTOR_ELT(out, 7, ScalarInteger(P.n));
    UNPROTECT(1);
    return out;
}

/* ---- o and M at many points / boxes, for tests, plots and checks --------- */

SEXP astar_log_lik_call(SEXP target, SEXP x_)
{
    astar_target tg;
    target_from_list(target, &tg);
    int d = tg.d;
    if (TYPEOF(x_) != REALSXP || XLENGTH(x_) % d) error("internal error: bad points");
    int k = (int) (XLENGTH(x_) / d);
    double *x = (double *) R_alloc(d, sizeof(double));
    SEXP out = PROTECT(allocVector(REALSXP, k));
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < d; j++) x[j] = REAL(x_)[i + (size_t) k * j];
        REAL(out)[i] = target_log_lik(&tg, x);
    }
    UNPROTECT(1);
    return out;
}

SEXP astar_bound_call(SEXP target, SEXP lower, SEXP upper)
{
    astar_target tg;
    target_from_list(target, &tg);
    int d = tg.d;
    if (TYPEOF(lower) != REALSXP || TYPEOF(upper) != REALSXP ||
        XLENGTH(lower) != XLENGTH(upper) || XLENGTH(lower) % d)
        error("internal error: bad boxes");
    int k = (int) (XLENGTH(lower) / d);
    double *lo = (double *) R_alloc(d, sizeof(double)), *hi = (double *) R_alloc(d, sizeof(double));
    SEXP out = PROTECT(allocVector(REALSXP, k));
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < d; j++) {
            lo[j] = REAL(lower)[i + (size_t) k * j];
            hi[j] = REAL(upper)[i + (size_t) k * j];
        }
        REAL(out)[i] = target_bound(&tg, lo, hi);
    }
    UNPROTECT(1);
    return out;
}

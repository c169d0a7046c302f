/* GumbelMIP (gumbelmip-exact-sampling-ilp.txt, Algorithm 1; NOTES.md
 * "GumbelMIP"): exact samples of binary models by Gumbel-perturbed branch and
 * bound with LP relaxations solved by GNU GLPK.
 *
 * A model has n binary variables x (the branching variables) and a log-weight
 * v(x), either
 *   pairwise: v(x) = c0 + sum_i node_i(x_i) + sum_e edge_e(x_from, x_to)
 *             (tables node[2 i + x_i], edge[4 e + 2 x_from + x_to]), or
 *   linear:   v(x) = c0 + c'x if row_lo <= A x <= row_hi, else -Inf.
 * Its LP relaxation (built in R, R/mip.R) has ncol >= n columns, the first n
 * being x in [0, 1], the others auxiliary (edge indicators), and value
 * LP = glp objective + lp_c0 >= max v over the integer points.
 *
 * One GLPK problem per call is kept and warm-started: a search node only
 * changes the bounds of the columns it fixes, then the dual simplex restarts
 * from the previous optimal basis. GLPK errors reach glp_error_hook, which
 * frees GLPK's environment and longjmps back to the .Call wrapper; it frees
 * our memory and raises an R error, so R never aborts. The engine itself never
 * calls error(): it returns a status code.
 *
 * Randomness: every sample draws from its own MRG32k3a stream (rng.c), seeded
 * in R, so a sample does not depend on how many others were drawn or on any
 * future thread split. Single-threaded: see the note in R/mip.R (threads). */
#include <math.h>
#include <string.h>
#include <time.h>
#include <setjmp.h>
#include <limits.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <glpk.h>
#include <R_ext/Utils.h>
#include "logz.h"

#define MIP_LOG2 0.69314718055994530942

typedef struct {
    int n, kind;                 /* kind 0 pairwise, 1 linear */
    double c0;
    /* pairwise */
    int m;
    const int *from, *to;
    const double *node, *edge;
    /* linear */
    const double *c;
    int nrow, nnz;
    const int *ai, *aj;
    const double *ax, *rlo, *rhi;
} mip_value_model;

typedef struct {
    int ncol, nrow, nnz;
    const double *obj, *clo, *chi, *rlo, *rhi, *ar;
    const int *ia, *ja;
    double c0;
} mip_lp_def;

/* All memory of one call; reachable after a longjmp through a static pointer. */
typedef struct {
    glp_prob *lp;
    unsigned char *state;     /* node slots: n bytes each (bit 0 sigma, bit 1 fixed) */
    double *key, *gam;        /* per slot: upper bound when created, Gumbel value */
    int *nfix, *heap, *freel, *flag;  /* flag 1: LP known = key - gamma, tau in bit 2 */
    int cap, nheap, nfree, nused;
    double *rowact;           /* linear models: row activities */
    int *cur;                 /* current LP column status: -1 free, 0/1 fixed */
    double *tau;
} mip_work;

static mip_work *mip_W = NULL;
static jmp_buf mip_jmp;
static char mip_msg[600];

static void mip_glpk_error_hook(void *info)
{
    (void) info;
    glp_free_env();     /* frees every GLPK object, including mip_W->lp */
    longjmp(mip_jmp, 1);
}

static int mip_glpk_term_hook(void *info, const char *s)
{
    (void) info;
    size_t have = strlen(mip_msg), add = strlen(s);
    if (have + add >= sizeof mip_msg) { have = 0; mip_msg[0] = '\0'; }
    if (add >= sizeof mip_msg) s += add - (sizeof mip_msg - 1);
    strncat(mip_msg, s, sizeof mip_msg - 1 - strlen(mip_msg));
    return 1;           /* do not print */
}

static void mip_work_free(mip_work *W)
{
    if (!W) return;
    free(W->state); free(W->key); free(W->gam); free(W->nfix); free(W->heap);
    free(W->freel); free(W->flag); free(W->rowact); free(W->cur); free(W->tau);
    W->state = NULL; W->key = W->gam = NULL; W->nfix = W->heap = W->freel = W->flag = NULL;
    W->rowact = W->tau = NULL; W->cur = NULL;
}

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* ---- values and the simple bound ---------------------------------------- */

static double mip_value(const mip_value_model *M, const unsigned char *st, double *rowact)
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
static double mip_simple_bound(const mip_value_model *M, const unsigned char *st)
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

/* ---- GLPK ------------------------------------------------------------------ */

static glp_prob *mip_lp_create(const mip_lp_def *L)
{
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_cols(lp, L->ncol);
    for (int j = 0; j < L->ncol; j++) {
        glp_set_obj_coef(lp, j + 1, L->obj[j]);
        int type = L->clo[j] == L->chi[j] ? GLP_FX : GLP_DB;
        glp_set_col_bnds(lp, j + 1, type, L->clo[j], L->chi[j]);
    }
    if (L->nrow > 0) {
        glp_add_rows(lp, L->nrow);
        for (int r = 0; r < L->nrow; r++) {
            double lo = L->rlo[r], hi = L->rhi[r];
            int type = !R_FINITE(lo) && !R_FINITE(hi) ? GLP_FR : !R_FINITE(lo) ? GLP_UP :
                       !R_FINITE(hi) ? GLP_LO : lo == hi ? GLP_FX : GLP_DB;
            glp_set_row_bnds(lp, r + 1, type, R_FINITE(lo) ? lo : 0.0, R_FINITE(hi) ? hi : 0.0);
        }
        /* GLPK arrays are 1-based */
        int *ia = (int *) R_alloc(L->nnz + 1, sizeof(int));
        int *ja = (int *) R_alloc(L->nnz + 1, sizeof(int));
        double *ar = (double *) R_alloc(L->nnz + 1, sizeof(double));
        for (int k = 0; k < L->nnz; k++) {
            ia[k + 1] = L->ia[k] + 1;
            ja[k + 1] = L->ja[k] + 1;
            ar[k + 1] = L->ar[k];
        }
        glp_load_matrix(lp, L->nnz, ia, ja, ar);
    }
    glp_std_basis(lp);
    return lp;
}

/* Set the bounds of the binary columns to the node's fixings (only those that
 * changed) and solve by the dual simplex from the current basis.
 * Returns 1 optimal (*val, tau filled), 0 infeasible, -1 solver failure. */
static int mip_lp_solve(mip_work *W, const mip_lp_def *L, int n, const unsigned char *st,
                        double *val)
{
    for (int j = 0; j < n; j++) {
        int want = (st[j] & 2) ? (st[j] & 1) : -1;
        if (want == W->cur[j]) continue;
        if (want < 0) glp_set_col_bnds(W->lp, j + 1, L->clo[j] == L->chi[j] ? GLP_FX : GLP_DB,
                                       L->clo[j], L->chi[j]);
        else glp_set_col_bnds(W->lp, j + 1, GLP_FX, (double) want, (double) want);
        W->cur[j] = want;
    }
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = GLP_DUALP;
    int ret = glp_simplex(W->lp, &parm);
    if (ret == GLP_EBADB || ret == GLP_ESING || ret == GLP_ECOND || ret == GLP_EFAIL ||
        ret == GLP_EITLIM || ret == GLP_ETMLIM) {
        glp_std_basis(W->lp);
        parm.meth = GLP_PRIMAL;
        ret = glp_simplex(W->lp, &parm);
    }
    if (ret != 0) return -1;
    int status = glp_get_status(W->lp);
    if (status == GLP_NOFEAS || status == GLP_INFEAS) {
        if (status == GLP_INFEAS) return -1;
        return 0;
    }
    if (status != GLP_OPT) return -1;
    *val = glp_get_obj_val(W->lp) + L->c0;
    for (int j = 0; j < n; j++) W->tau[j] = glp_get_col_prim(W->lp, j + 1);
    return 1;
}


/* ---- the LP bound of attractive pairwise models by a minimum cut ---------
 * For v(s) = c0 + a's + sum_e b_e s_i s_j with every b_e >= 0 (supermodular,
 * e.g. ferromagnetic Ising models), the local-polytope LP is tight and its
 * value is max v over the sub-problem, which is -(min cut) of the graph of
 * Kolmogorov & Zabih (2004): -b s_i s_j = -b s_i + b s_i (1 - s_j) gives the
 * arc i -> j of capacity b and the unary u_i = -a_i - sum_{e from i} b_e;
 * s_i = 1 is the source side. Fixed variables get an infinite arc from the
 * source (1) or to the sink (0). Dinic's algorithm on a fixed arc list; only
 * the terminal capacities change between sub-problems. The minimum cut's
 * source side is an integral optimal LP solution. */
typedef struct {
    int V, A, src, snk;
    int *head, *nxt, *to;       /* arc lists (arcs 2k, 2k+1 are mutual reverses) */
    double *cap, *cap0;         /* residual and original capacities */
    int *level, *it, *queue;
    double *u;                  /* unaries */
    int n;
} mip_cut;

static void cut_add_arc(mip_cut *G, int a, int b, double c)
{
    int k = G->A;
    G->to[k] = b; G->cap0[k] = c; G->nxt[k] = G->head[a]; G->head[a] = k;
    G->to[k + 1] = a; G->cap0[k + 1] = 0.0; G->nxt[k + 1] = G->head[b]; G->head[b] = k + 1;
    G->A += 2;
}

/* Built with R_alloc (freed at the end of the .Call). */
static void cut_build(mip_cut *G, int n, int m, const int *from, const int *to,
                      const double *a, const double *b)
{
    G->n = n; G->V = n + 2; G->src = n; G->snk = n + 1; G->A = 0;
    int amax = 2 * (m + 2 * n);
    G->head = (int *) R_alloc(G->V, sizeof(int));
    G->nxt = (int *) R_alloc(amax, sizeof(int));
    G->to = (int *) R_alloc(amax, sizeof(int));
    G->cap = (double *) R_alloc(amax, sizeof(double));
    G->cap0 = (double *) R_alloc(amax, sizeof(double));
    G->level = (int *) R_alloc(G->V, sizeof(int));
    G->it = (int *) R_alloc(G->V, sizeof(int));
    G->queue = (int *) R_alloc(G->V, sizeof(int));
    G->u = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
    for (int v = 0; v < G->V; v++) G->head[v] = -1;
    for (int i = 0; i < n; i++) G->u[i] = -a[i];
    for (int e = 0; e < m; e++) {
        cut_add_arc(G, from[e], to[e], b[e]);
        G->u[from[e]] -= b[e];
    }
    /* terminal arcs: for node i, arc 2(m + i)... : source -> i, then i -> sink */
    for (int i = 0; i < n; i++) cut_add_arc(G, G->src, i, 0.0);
    for (int i = 0; i < n; i++) cut_add_arc(G, i, G->snk, 0.0);
}

static int cut_bfs(mip_cut *G)
{
    for (int v = 0; v < G->V; v++) G->level[v] = -1;
    int qh = 0, qt = 0;
    G->queue[qt++] = G->src;
    G->level[G->src] = 0;
    while (qh < qt) {
        int v = G->queue[qh++];
        for (int k = G->head[v]; k >= 0; k = G->nxt[k])
            if (G->cap[k] > 1e-12 && G->level[G->to[k]] < 0) {
                G->level[G->to[k]] = G->level[v] + 1;
                G->queue[qt++] = G->to[k];
            }
    }
    return G->level[G->snk] >= 0;
}

static double cut_dfs(mip_cut *G, int v, double f)
{
    if (v == G->snk) return f;
    for (; G->it[v] >= 0; G->it[v] = G->nxt[G->it[v]]) {
        int k = G->it[v], w = G->to[k];
        if (G->cap[k] > 1e-12 && G->level[w] == G->level[v] + 1) {
            double d = cut_dfs(G, w, f < G->cap[k] ? f : G->cap[k]);
            if (d > 0) {
                G->cap[k] -= d;
                G->cap[k ^ 1] += d;
                return d;
            }
        }
    }
    return 0.0;
}

/* max over the sub-problem (st: bit 1 fixed, bit 0 value); tau gets the argmax */
static double cut_solve(mip_cut *G, int m, const unsigned char *st, double c0, double *tau)
{
    const double INF = 1e300;
    int n = G->n;
    double cst = c0;
    memcpy(G->cap, G->cap0, sizeof(double) * G->A);
    for (int i = 0; i < n; i++) {
        double u = G->u[i];
        int ks = 2 * (m + i), kt = 2 * (m + n + i);
        if (u < 0) { cst += -u; G->cap[ks] = -u; }   /* v gains -u when s_i = 1 */
        else G->cap[kt] = u;
        if (st[i] & 2) {
            if (st[i] & 1) G->cap[ks] = INF; else G->cap[kt] = INF;
        }
    }
    /* here v(s) = cst - cut(s): cut arcs cost what v loses */
    double flow = 0.0;
    while (cut_bfs(G)) {
        for (int v = 0; v < G->V; v++) G->it[v] = G->head[v];
        double f;
        while ((f = cut_dfs(G, G->src, INF)) > 0) flow += f;
    }
    cut_bfs(G);   /* source side of the minimum cut */
    for (int i = 0; i < n; i++) tau[i] = G->level[i] >= 0 ? 1.0 : 0.0;
    return cst - flow;
}

/* A copy sharing the arc lists but with its own residual and search arrays. */
static mip_cut *cut_clone(const mip_cut *G)
{
    mip_cut *H = (mip_cut *) R_alloc(1, sizeof(mip_cut));
    *H = *G;
    H->cap = (double *) R_alloc(G->A > 0 ? G->A : 1, sizeof(double));
    H->level = (int *) R_alloc(G->V, sizeof(int));
    H->it = (int *) R_alloc(G->V, sizeof(int));
    H->queue = (int *) R_alloc(G->V, sizeof(int));
    return H;
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

typedef struct {
    int bound_lp, best_first, branching, perturb;
    mip_cut *cut;            /* non-NULL: LP bound by minimum cut (attractive) */
    int interrupts;          /* check for user interrupts (single thread only) */
    int cut_m;
    double cut_c0;
    double node_limit, time_limit;
    const int *order;        /* static variable order (0-based) for "first" */
} mip_control;

typedef struct {
    double value, upper, rank_bound, nodes, lp_solves, lp_failures, time;
    int exact, status;       /* status: 0 ok, 1 out of memory, 2 interrupted */
} mip_result;

static void chk_int(void *d) { (void) d; R_CheckUserInterrupt(); }

/* trace: rows (nodes, time, v*, U) appended at nodes 1, 2, 4, ... and the end */
typedef struct { double *buf; int len, cap; } mip_trace;

static void trace_add(mip_trace *T, double nodes, double t, double v, double U)
{
    if (!T->buf || T->len >= T->cap) return;
    double *r = T->buf + 4 * T->len++;
    r[0] = nodes; r[1] = t; r[2] = v; r[3] = U;
}

static void mip_search(mip_work *W, const mip_value_model *M, const mip_lp_def *L,
                       const mip_control *C, logz_stream *rs, int *best, mip_result *R,
                       mip_trace *T)
{
    int n = M->n;
    double t0 = now_sec();
    W->nheap = 0; W->nfree = 0; W->nused = 0;
    memset(R, 0, sizeof *R);
    int root = pool_alloc(W, n);
    if (root < 0) { R->status = 1; return; }
    unsigned char *st = W->state + (size_t) root * n;
    for (int i = 0; i < n; i++) st[i] = logz_stream_unif(rs) < 0.5 ? 1 : 0;
    double g0 = C->perturb ? st_gumbel(rs, n * MIP_LOG2) : 0.0;
    W->gam[root] = g0; W->nfix[root] = 0; W->key[root] = R_PosInf; W->flag[root] = 0;
    double vstar = mip_value(M, st, W->rowact) + g0;
    for (int i = 0; i < n; i++) best[i] = st[i] & 1;
    open_push(W, root, C->best_first);
    double next_trace = 1;
    int limited = 0;
    while (W->nheap > 0) {
        if (R->nodes >= C->node_limit) { limited = 1; break; }
        if (((long) R->nodes & 63) == 0 && R->nodes > 0) {
            if (now_sec() - t0 >= C->time_limit) { limited = 1; break; }
            if (C->interrupts && ((long) R->nodes & 1023) == 0 && !R_ToplevelExec(chk_int, NULL)) {
                R->status = 2; return;
            }
        }
        if (R->nodes >= next_trace) {
            trace_add(T, R->nodes, now_sec() - t0, vstar,
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
                bnd = cut_solve(C->cut, C->cut_m, sp, C->cut_c0, W->tau);
                s = 1;
            } else s = mip_lp_solve(W, L, n, sp, &bnd);
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
        }
        if (x < 0) {
            for (int k = 0; k < n; k++)
                if (!(sp[C->order[k]] & 2)) { x = C->order[k]; break; }
        }
        /* the child with x = sigma_x inherits (gamma_P, sigma); the other gets a
         * truncated Gumbel and a fresh configuration */
        int Q = pool_alloc(W, n);
        if (Q < 0) { R->status = 1; return; }
        sp = W->state + (size_t) P * n;        /* the pool may have moved */
        unsigned char *sq = W->state + (size_t) Q * n;
        double gQ = C->perturb ? st_truncgumbel(rs, (free_vars - 1) * MIP_LOG2, gP) : 0.0;
        for (int j = 0; j < n; j++) {
            if (sp[j] & 2) sq[j] = sp[j] & 3;
            else if (j == x) sq[j] = (unsigned char) (2 | (1 - (sp[j] & 1)));
            else sq[j] = logz_stream_unif(rs) < 0.5 ? 1 : 0;
        }
        W->gam[Q] = gQ; W->nfix[Q] = W->nfix[P] + 1; W->key[Q] = bnd + gQ;
        double vq = mip_value(M, sq, W->rowact) + gQ;
        if (vq > vstar) {
            vstar = vq;
            for (int i = 0; i < n; i++) best[i] = sq[i] & 1;
        }
        sp[x] |= 2;
        W->nfix[P]++;
        W->key[P] = bnd + gP;
        /* the child on the side of an integral LP solution keeps LP and tau */
        W->flag[P] = W->flag[Q] = 0;
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
    R->time = now_sec() - t0;
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
        double ls = log_trunc_survival(vstar - lp_q, W->gam[q]);
        double term = logz_log_add_exp(0.0, (fv * MIP_LOG2 + log1p(-exp(-fv * MIP_LOG2))) + ls);
        lrank = any ? logz_log_add_exp(lrank, term) : term;
        any = 1;
    }
    R->upper = U;
    R->rank_bound = any ? 1.0 + exp(lrank) : 1.0;
    trace_add(T, R->nodes, R->time, vstar, U);
}

/* ---- SEXP glue ------------------------------------------------------------ */

static void value_model_from_list(SEXP cm, mip_value_model *M)
{
    memset(M, 0, sizeof *M);
    M->n = asInteger(logz_need(cm, "n", INTSXP));
    M->kind = asInteger(logz_need(cm, "kind", INTSXP));
    M->c0 = asReal(logz_need(cm, "c0", REALSXP));
    if (M->kind == 0) {
        SEXP from = logz_need(cm, "from", INTSXP), to = logz_need(cm, "to", INTSXP);
        SEXP node = logz_need(cm, "node", REALSXP), edge = logz_need(cm, "edge", REALSXP);
        M->m = LENGTH(from);
        if (LENGTH(to) != M->m || LENGTH(node) != 2 * M->n || LENGTH(edge) != 4 * M->m)
            error("internal error: bad pairwise mip model");
        M->from = INTEGER(from); M->to = INTEGER(to);
        for (int e = 0; e < M->m; e++)
            if (M->from[e] < 0 || M->from[e] >= M->n || M->to[e] < 0 || M->to[e] >= M->n)
                error("internal error: edge end out of range");
        M->node = REAL(node); M->edge = REAL(edge);
    } else {
        SEXP c = logz_need(cm, "c", REALSXP);
        SEXP ai = logz_need(cm, "ai", INTSXP), aj = logz_need(cm, "aj", INTSXP);
        SEXP ax = logz_need(cm, "ax", REALSXP);
        SEXP rlo = logz_need(cm, "rlo", REALSXP), rhi = logz_need(cm, "rhi", REALSXP);
        if (LENGTH(c) != M->n || LENGTH(aj) != LENGTH(ai) || LENGTH(ax) != LENGTH(ai) ||
            LENGTH(rhi) != LENGTH(rlo))
            error("internal error: bad linear mip model");
        M->c = REAL(c); M->nrow = LENGTH(rlo); M->nnz = LENGTH(ai);
        M->ai = INTEGER(ai); M->aj = INTEGER(aj); M->ax = REAL(ax);
        M->rlo = REAL(rlo); M->rhi = REAL(rhi);
        for (int k = 0; k < M->nnz; k++)
            if (M->ai[k] < 0 || M->ai[k] >= M->nrow || M->aj[k] < 0 || M->aj[k] >= M->n)
                error("internal error: constraint index out of range");
    }
}

static void lp_def_from_list(SEXP lp, int n, mip_lp_def *L)
{
    SEXP obj = logz_need(lp, "obj", REALSXP), clo = logz_need(lp, "clo", REALSXP);
    SEXP chi = logz_need(lp, "chi", REALSXP), rlo = logz_need(lp, "rlo", REALSXP);
    SEXP rhi = logz_need(lp, "rhi", REALSXP), ia = logz_need(lp, "ia", INTSXP);
    SEXP ja = logz_need(lp, "ja", INTSXP), ar = logz_need(lp, "ar", REALSXP);
    L->ncol = LENGTH(obj); L->nrow = LENGTH(rlo); L->nnz = LENGTH(ia);
    if (L->ncol < n || LENGTH(clo) != L->ncol || LENGTH(chi) != L->ncol ||
        LENGTH(rhi) != L->nrow || LENGTH(ja) != L->nnz || LENGTH(ar) != L->nnz)
        error("internal error: bad LP definition");
    L->obj = REAL(obj); L->clo = REAL(clo); L->chi = REAL(chi); L->rlo = REAL(rlo);
    L->rhi = REAL(rhi); L->ia = INTEGER(ia); L->ja = INTEGER(ja); L->ar = REAL(ar);
    for (int k = 0; k < L->nnz; k++)
        if (L->ia[k] < 0 || L->ia[k] >= L->nrow || L->ja[k] < 0 || L->ja[k] >= L->ncol)
            error("internal error: LP matrix index out of range");
    L->c0 = asReal(logz_need(lp, "c0", REALSXP));
}

static mip_work *work_new(int n)
{
    mip_work *W = (mip_work *) R_alloc(1, sizeof(mip_work));
    memset(W, 0, sizeof *W);
    W->cur = malloc(sizeof(int) * n);
    W->tau = malloc(sizeof(double) * n);
    return W;
}

static void glpk_begin(void)
{
    mip_msg[0] = '\0';
    glp_term_hook(mip_glpk_term_hook, NULL);
    glp_error_hook(mip_glpk_error_hook, NULL);
}

/* After GLPK's error hook longjmp'd back (its environment is already freed):
 * free our memory, drop the hooks, raise the R error. */
static void NORET glpk_failed(int nprotect, const char *where)
{
    mip_work *W = mip_W;
    W->lp = NULL;
    mip_work_free(W);
    mip_W = NULL;
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
    UNPROTECT(nprotect);
    error("GLPK failed in %s: %s", where, mip_msg[0] ? mip_msg : "(no message)");
}

static void glpk_end(mip_work *W)
{
    if (W->lp) glp_delete_prob(W->lp);
    W->lp = NULL;
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
}

/* mip_sample_call(model, lp, streams (6 x ns), control) */
SEXP mip_sample_call(SEXP cm, SEXP lpdef, SEXP streams, SEXP control)
{
    mip_value_model M;
    mip_lp_def L;
    memset(&L, 0, sizeof L);
    value_model_from_list(cm, &M);
    int n = M.n;
    mip_control C;
    C.bound_lp = asInteger(logz_need(control, "bound_lp", INTSXP));
    C.best_first = asInteger(logz_need(control, "best_first", INTSXP));
    C.branching = asInteger(logz_need(control, "branching", INTSXP));
    C.perturb = asInteger(logz_need(control, "perturb", INTSXP));
    C.node_limit = asReal(logz_need(control, "node_limit", REALSXP));
    C.time_limit = asReal(logz_need(control, "time_limit", REALSXP));
    SEXP order = logz_need(control, "order", INTSXP);
    if (LENGTH(order) != n) error("internal error: bad order");
    C.order = INTEGER(order);
    int selftest = asInteger(logz_need(control, "selftest", INTSXP));
    C.cut = NULL; C.cut_m = 0; C.cut_c0 = 0.0;
    if (C.bound_lp && asInteger(logz_need(control, "cut", INTSXP))) {
        if (M.kind != 0) error("internal error: the cut bound needs a pairwise model");
        /* canonical form c0 + a's + sum b s_i s_j from the tables */
        double *a = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
        double *b = (double *) R_alloc(M.m > 0 ? M.m : 1, sizeof(double));
        double c0 = M.c0;
        for (int i = 0; i < n; i++) { a[i] = M.node[2 * i + 1] - M.node[2 * i]; c0 += M.node[2 * i]; }
        for (int e = 0; e < M.m; e++) {
            const double *t = M.edge + 4 * e;
            c0 += t[0];
            a[M.from[e]] += t[2] - t[0];
            a[M.to[e]] += t[1] - t[0];
            b[e] = t[3] - t[2] - t[1] + t[0];
            if (b[e] < 0) {
                if (b[e] < -1e-12) error("internal error: the cut bound needs b >= 0");
                b[e] = 0.0;
            }
        }
        C.cut = (mip_cut *) R_alloc(1, sizeof(mip_cut));
        cut_build(C.cut, n, M.m, M.from, M.to, a, b);
        C.cut_m = M.m;
        C.cut_c0 = c0;
    }
    int trace_cap = asInteger(logz_need(control, "trace_cap", INTSXP));
    int nthreads_req = asInteger(logz_need(control, "threads", INTSXP));
    if (C.bound_lp && !asInteger(logz_need(control, "cut", INTSXP))) lp_def_from_list(lpdef, n, &L);
    if (TYPEOF(streams) != REALSXP || XLENGTH(streams) % 6 != 0)
        error("internal error: bad streams");
    int ns = (int) (XLENGTH(streams) / 6);
    logz_stream *rs = (logz_stream *) R_alloc(ns > 0 ? ns : 1, sizeof(logz_stream));
    if (!logz_streams_from_double(ns, REAL(streams), rs))
        error("internal error: stream state out of range");

    const char *nm[] = {"states", "value", "upper", "exact", "rank_bound", "nodes",
                        "lp_solves", "lp_failures", "time", "trace", "ntrace", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, nm));
    SEXP states = allocMatrix(INTSXP, n, ns);
    SET_VECTOR_ELT(out, 0, states);
    double *col[8];
    for (int k = 1; k <= 8; k++) {
        SET_VECTOR_ELT(out, k, allocVector(k == 3 ? LGLSXP : REALSXP, ns));
        col[k - 1] = k == 3 ? NULL : REAL(VECTOR_ELT(out, k));
    }
    int *exact = LOGICAL(VECTOR_ELT(out, 3));
    SEXP trace = allocMatrix(REALSXP, 5, (R_xlen_t) trace_cap * (ns > 0 ? ns : 1));
    SET_VECTOR_ELT(out, 9, trace);
    int ntrace = 0;

    mip_work *W = work_new(n);
    if (M.kind == 1 && M.nrow) W->rowact = malloc(sizeof(double) * M.nrow);
    if (!W->cur || !W->tau || (M.kind == 1 && M.nrow && !W->rowact)) {
        mip_work_free(W);
        error("mip_sample: out of memory");
    }
    mip_W = W;
    int status = 0;
    if (setjmp(mip_jmp)) glpk_failed(1, "mip_sample()");
    glpk_begin();
    if (C.bound_lp && !C.cut) {
        W->lp = mip_lp_create(&L);
        for (int j = 0; j < n; j++) W->cur[j] = -1;
        if (selftest) glp_set_col_bnds(W->lp, L.ncol + 7, GLP_FX, 0.0, 0.0);  /* provoke */
    }
    int *best = INTEGER(states);
    /* Threads only without GLPK (simple bound or min cut; checked in R): each
     * thread has its own work space and cut graph; each sample its own stream. */
    int nt = (C.bound_lp && !C.cut) ? 1 : logz_threads(nthreads_req);
    if (nt > ns) nt = ns > 0 ? ns : 1;
    C.interrupts = nt == 1;
    mip_work **Wt = (mip_work **) R_alloc(nt, sizeof(mip_work *));
    mip_control *Ct = (mip_control *) R_alloc(nt, sizeof(mip_control));
    Wt[0] = W;
    Ct[0] = C;
    int oom = 0;
    for (int t = 1; t < nt; t++) {
        Wt[t] = work_new(n);
        if (M.kind == 1 && M.nrow) Wt[t]->rowact = malloc(sizeof(double) * M.nrow);
        if (!Wt[t]->cur || !Wt[t]->tau || (M.kind == 1 && M.nrow && !Wt[t]->rowact)) oom = 1;
        Ct[t] = C;
        if (C.cut) Ct[t].cut = cut_clone(C.cut);
    }
    double *tball = (double *) R_alloc((size_t) 4 * trace_cap * (ns > 0 ? ns : 1), sizeof(double));
    int *tlen = (int *) R_alloc(ns > 0 ? ns : 1, sizeof(int));
    int *sstat = (int *) R_alloc(ns > 0 ? ns : 1, sizeof(int));
    for (int s = 0; s < ns; s++) { sstat[s] = 0; tlen[s] = 0; }
    volatile int stop = 0;   /* a sample was interrupted (or ran out of memory): skip the rest */
    if (!oom) {
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
#endif
        for (int s = 0; s < ns; s++) {
            int t = 0;
#ifdef _OPENMP
            t = omp_get_thread_num();
#endif
            if (stop) continue;
            mip_result R;
            mip_trace T = {tball + (size_t) 4 * trace_cap * s, 0, trace_cap};
            mip_search(Wt[t], &M, &L, &Ct[t], rs + s, best + (size_t) s * n, &R, &T);
            sstat[s] = R.status;
            if (R.status) stop = 1;
            col[0][s] = R.value; col[1][s] = R.upper; exact[s] = R.exact;
            col[3][s] = R.rank_bound; col[4][s] = R.nodes; col[5][s] = R.lp_solves;
            col[6][s] = R.lp_failures; col[7][s] = R.time;
            tlen[s] = T.len;
        }
    }
    for (int t = 1; t < nt; t++) mip_work_free(Wt[t]);
    status = oom ? 1 : 0;
    for (int s = 0; s < ns && !status; s++) status = sstat[s];
    for (int s = 0; s < ns && !status; s++)
        for (int k = 0; k < tlen[s]; k++) {
            double *r = REAL(trace) + 5 * (size_t) ntrace++;
            r[0] = s + 1;
            memcpy(r + 1, tball + (size_t) 4 * trace_cap * s + 4 * k, 4 * sizeof(double));
        }
    glpk_end(W);
    mip_work_free(W);
    mip_W = NULL;
    if (status == 1) { UNPROTECT(1); error("mip_sample: out of memory for search nodes"); }
    if (status == 2) { UNPROTECT(1); error("mip_sample: interrupted"); }
    SEXP ntr = PROTECT(ScalarInteger(ntrace));
    SET_VECTOR_ELT(out, 10, ntr);
    UNPROTECT(2);
    return out;
}

/* LP bounds for partial assignments: fix is an n x J integer matrix (NA free,
 * else 0/1). Returns J LP values (-Inf when infeasible, NaN on solver failure). */
SEXP mip_lp_bounds_call(SEXP cm, SEXP lpdef, SEXP fix)
{
    mip_value_model M;
    mip_lp_def L;
    value_model_from_list(cm, &M);
    int n = M.n;
    lp_def_from_list(lpdef, n, &L);
    if (TYPEOF(fix) != INTSXP || XLENGTH(fix) % (n > 0 ? n : 1) != 0)
        error("internal error: bad fixings");
    int J = n > 0 ? (int) (XLENGTH(fix) / n) : 0;
    SEXP out = PROTECT(allocVector(REALSXP, J));
    unsigned char *st = (unsigned char *) R_alloc(n > 0 ? n : 1, 1);
    mip_work *W = work_new(n);
    if (!W->cur || !W->tau) { mip_work_free(W); UNPROTECT(1); error("out of memory"); }
    mip_W = W;
    if (setjmp(mip_jmp)) glpk_failed(1, "an LP bound");
    glpk_begin();
    W->lp = mip_lp_create(&L);
    for (int j = 0; j < n; j++) W->cur[j] = -1;
    for (int k = 0; k < J; k++) {
        const int *f = INTEGER(fix) + (size_t) k * n;
        for (int j = 0; j < n; j++) st[j] = f[j] == NA_INTEGER ? 0 : (unsigned char) (2 | (f[j] & 1));
        double v;
        int s = mip_lp_solve(W, &L, n, st, &v);
        REAL(out)[k] = s == 1 ? v : s == 0 ? R_NegInf : R_NaN;
    }
    glpk_end(W);
    mip_work_free(W);
    mip_W = NULL;
    UNPROTECT(1);
    return out;
}

/* GLPK version string (for benchmark headers). */
SEXP mip_glpk_version_call(void)
{
    return mkString(glp_version());
}

/* GumbelMIP: the LP bound of attractive pairwise models by a minimum cut.
 * For v(s) = c0 + a's + sum_e b_e s_i s_j with every b_e >= 0 (supermodular,
 * e.g. ferromagnetic Ising models), the local-polytope LP is tight and its
 * value is max v over the sub-problem, which is -(min cut) of the graph of
 * Kolmogorov & Zabih (2004): -b s_i s_j = -b s_i + b s_i (1 - s_j) gives the
 * arc i -> j of capacity b and the unary u_i = -a_i - sum_{e from i} b_e;
 * s_i = 1 is the source side. Fixed variables are eliminated (their edges
 * become unaries or constants), so each sub-problem's graph has only its
 * free variables, and Dinic's algorithm runs on it. The minimum cut's source
 * side is an integral optimal LP solution. */
#include <string.h>
#include "mip.h"

/* The per-solve arrays of G (arc lists, residuals, BFS/DFS state, scratch),
 * by R_alloc: each thread's copy gets its own (mip_cut_clone()). */
static void cut_alloc_work(mip_cut *G)
{
    int amax = 2 * (G->m + 2 * G->n), n1 = G->n > 0 ? G->n : 1;
    if (amax < 1) amax = 1;
    G->head = (int *) R_alloc(G->V, sizeof(int));
    G->nxt = (int *) R_alloc(amax, sizeof(int));
    G->to = (int *) R_alloc(amax, sizeof(int));
    G->cap = (double *) R_alloc(amax, sizeof(double));
    G->level = (int *) R_alloc(G->V, sizeof(int));
    G->it = (int *) R_alloc(G->V, sizeof(int));
    G->queue = (int *) R_alloc(G->V, sizeof(int));
    G->w = (double *) R_alloc(n1, sizeof(double));
    G->src_cap = (double *) R_alloc(n1, sizeof(double));
}

/* Built with R_alloc (freed at the end of the .Call). The arc lists are
 * rebuilt for every sub-problem over its free variables only (see
 * mip_cut_solve()); the edge list and unaries are kept. */
void mip_cut_build(mip_cut *G, int n, int m, const int *from, const int *to,
                   const double *a, const double *b)
{
    G->n = n; G->V = n + 2; G->src = n; G->snk = n + 1; G->A = 0;
    G->ef = from; G->et = to; G->eb = b; G->m = m;
    cut_alloc_work(G);
    G->u = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
    for (int i = 0; i < n; i++) G->u[i] = -a[i];
    for (int e = 0; e < m; e++) G->u[from[e]] -= b[e];
}

static void cut_add_arc(mip_cut *G, int a, int b, double c)
{
    int k = G->A;
    G->to[k] = b; G->cap[k] = c; G->nxt[k] = G->head[a]; G->head[a] = k;
    G->to[k + 1] = a; G->cap[k + 1] = 0.0; G->nxt[k + 1] = G->head[b]; G->head[b] = k + 1;
    G->A += 2;
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

/* max over the sub-problem (st: state bytes, MIP_FIXED and MIP_SIGMA); tau
 * gets the argmax.
 * With cost C(s) = sum_i u_i s_i + sum_e b_e s_i (1 - s_j) (v = c0 - C), the
 * fixed variables are eliminated: a fixed s_i = 1 tail adds b_e to its free
 * head's source arc, a fixed s_j = 0 head adds b_e to its free tail's unary,
 * and terms among fixed variables are constants; the max flow then runs on
 * the free variables only, so graphs get smaller deep in the search. */
double mip_cut_solve(mip_cut *G, const unsigned char *st, double c0, double *tau)
{
    int n = G->n;
    double K = 0.0;
    double *w = G->w, *sc = G->src_cap;
    for (int i = 0; i < n; i++) {
        w[i] = G->u[i];
        sc[i] = 0.0;
        if (st[i] & MIP_FIXED) K += (st[i] & MIP_SIGMA) ? G->u[i] : 0.0;
    }
    for (int v = 0; v < G->V; v++) G->head[v] = -1;
    G->A = 0;
    for (int e = 0; e < G->m; e++) {
        int i = G->ef[e], j = G->et[e];
        double b = G->eb[e];
        int fi = st[i] & MIP_FIXED, fj = st[j] & MIP_FIXED;
        if (fi && fj) { if ((st[i] & MIP_SIGMA) && !(st[j] & MIP_SIGMA)) K += b; }
        else if (fi) { if (st[i] & MIP_SIGMA) sc[j] += b; }
        else if (fj) { if (!(st[j] & MIP_SIGMA)) w[i] += b; }
        else if (b > 0) cut_add_arc(G, i, j, b);
    }
    for (int i = 0; i < n; i++) {
        if (st[i] & MIP_FIXED) continue;
        double wi = w[i] - sc[i];       /* cost sc (1 - s) + w s = sc + (w - sc) s */
        K += sc[i];
        if (wi < 0) { K += wi; cut_add_arc(G, G->src, i, -wi); }
        else if (wi > 0) cut_add_arc(G, i, G->snk, wi);
    }
    const double INF = 1e300;
    double flow = 0.0;
    while (cut_bfs(G)) {
        for (int v = 0; v < G->V; v++) G->it[v] = G->head[v];
        double f;
        while ((f = cut_dfs(G, G->src, INF)) > 0) flow += f;
    }
    /* the last cut_bfs() above, which found no path to the sink, left
     * level >= 0 on exactly the source side of the minimum cut */
    for (int i = 0; i < n; i++)
        tau[i] = (st[i] & MIP_FIXED) ? (double) (st[i] & MIP_SIGMA) : (G->level[i] >= 0 ? 1.0 : 0.0);
    return c0 - K - flow;
}

/* A copy sharing the edge list and unaries, with its own arc lists and
 * search arrays. */
mip_cut *mip_cut_clone(const mip_cut *G)
{
    mip_cut *H = (mip_cut *) R_alloc(1, sizeof(mip_cut));
    *H = *G;
    cut_alloc_work(H);
    return H;
}

/* The min-cut graph of an attractive pairwise model (R_alloc): the canonical
 * form c0 + a's + sum b s_i s_j of the tables, *c0_out its constant. NULL if
 * an edge has b < 0 beyond rounding (not attractive). */
mip_cut *mip_cut_from_model(const mip_value_model *M, double *c0_out)
{
    int n = M->n;
    double *a = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
    double *b = (double *) R_alloc(M->m > 0 ? M->m : 1, sizeof(double));
    double c0 = mip_canonical(M, a, b);
    for (int e = 0; e < M->m; e++)
        if (b[e] < 0) {
            if (b[e] < -1e-12) return NULL;
            b[e] = 0.0;
        }
    mip_cut *G = (mip_cut *) R_alloc(1, sizeof(mip_cut));
    mip_cut_build(G, n, M->m, M->from, M->to, a, b);
    *c0_out = c0;
    return G;
}

/* The min-cut bound (max of v) of J partial assignments, the columns of the
 * n x J matrix fix (NA free, else 0/1), into out[J]. */
void mip_cut_bounds(mip_cut *G, double c0, int n, const int *fix, int J, double *out)
{
    unsigned char *st = (unsigned char *) R_alloc(n > 0 ? n : 1, 1);
    double *tau = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
    for (int k = 0; k < J; k++) {
        mip_fix_state(fix + (size_t) k * n, n, st);
        out[k] = mip_cut_solve(G, st, c0, tau);
    }
}

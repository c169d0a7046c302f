/* GumbelMIP: the LP bound of attractive pairwise models by a minimum cut.
 * For v(s) = c0 + a's + sum_e b_e s_i s_j with every b_e >= 0 (supermodular,
 * e.g. ferromagnetic Ising models), the local-polytope LP is tight and its
 * value is max v over the sub-problem, which is -(min cut) of the graph of
 * Kolmogorov & Zabih (2004): -b s_i s_j = -b s_i + b s_i (1 - s_j) gives the
 * arc i -> j of capacity b and the unary u_i = -a_i - sum_{e from i} b_e;
 * s_i = 1 is the source side. Fixed variables get an infinite arc from the
 * source (1) or to the sink (0). Dinic's algorithm on a fixed arc list; only
 * the terminal capacities change between sub-problems. The minimum cut's
 * source side is an integral optimal LP solution.
 * Tried and dropped (issue 19): warm-starting each node's flow from a kept
 * maximum flow of an ancestor (fixing only raises terminal capacities, so it
 * stays feasible). Same samples, but 10-30 % slower on cliques of n = 40-60
 * (copying the residual graph costs about what the saved augmentations do:
 * Dinic needs only a few phases on these dense graphs). */
#include <string.h>
#include "mip.h"

static void cut_add_arc(mip_cut *G, int a, int b, double c)
{
    int k = G->A;
    G->to[k] = b; G->cap0[k] = c; G->nxt[k] = G->head[a]; G->head[a] = k;
    G->to[k + 1] = a; G->cap0[k + 1] = 0.0; G->nxt[k + 1] = G->head[b]; G->head[b] = k + 1;
    G->A += 2;
}

/* Built with R_alloc (freed at the end of the .Call). */
void mip_cut_build(mip_cut *G, int n, int m, const int *from, const int *to,
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
double mip_cut_solve(mip_cut *G, int m, const unsigned char *st, double c0, double *tau)
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
    /* the last cut_bfs() above, which found no path to the sink, left
     * level >= 0 on exactly the source side of the minimum cut */
    for (int i = 0; i < n; i++) tau[i] = G->level[i] >= 0 ? 1.0 : 0.0;
    return cst - flow;
}

/* A copy sharing the arc lists but with its own residual and search arrays. */
mip_cut *mip_cut_clone(const mip_cut *G)
{
    mip_cut *H = (mip_cut *) R_alloc(1, sizeof(mip_cut));
    *H = *G;
    H->cap = (double *) R_alloc(G->A > 0 ? G->A : 1, sizeof(double));
    H->level = (int *) R_alloc(G->V, sizeof(int));
    H->it = (int *) R_alloc(G->V, sizeof(int));
    H->queue = (int *) R_alloc(G->V, sizeof(int));
    return H;
}

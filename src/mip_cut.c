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
 *
 * Flow reuse between branch-and-bound nodes: fixing a variable only raises a
 * terminal capacity (to infinity), so a maximum flow of a sub-problem is a
 * feasible flow of every sub-problem below it. The solver keeps the maximum
 * flows of its last MIP_CUT_KEEP solves; for a new sub-problem it takes the
 * kept flow of the deepest ancestor (a saved fixing that the sub-problem
 * extends with the same values), raises the newly fixed terminal arcs in that
 * residual graph and augments from there instead of from zero. The source side reachable in the final residual
 * graph is the same for every maximum flow (the smallest minimum cut), so the
 * bound and its argmax are those of a cold solve. */
#include <string.h>
#include "mip.h"

static void cut_add_arc(mip_cut *G, int a, int b, double c)
{
    int k = G->A;
    G->to[k] = b; G->cap0[k] = c; G->nxt[k] = G->head[a]; G->head[a] = k;
    G->to[k + 1] = a; G->cap0[k + 1] = 0.0; G->nxt[k + 1] = G->head[b]; G->head[b] = k + 1;
    G->A += 2;
}

static void mip_cut_keep_alloc(mip_cut *G)
{
    G->kept_cap = NULL;   /* sized once the arcs are known (mip_cut_build's end) */
    G->kept_fix = (signed char *) R_alloc((size_t) MIP_CUT_KEEP * (G->n > 0 ? G->n : 1), 1);
    G->kept_flow = (double *) R_alloc(MIP_CUT_KEEP, sizeof(double));
    G->kept_n = (int *) R_alloc(MIP_CUT_KEEP, sizeof(int));
    for (int k = 0; k < MIP_CUT_KEEP; k++) G->kept_n[k] = -1;
    G->next_keep = 1;
    G->reuse = 1;
    G->warm = G->cold = 0.0;
}

/* Forget the kept flows (at the start of every sample, so that a sample's
 * bounds, to the last bit, do not depend on the samples its thread ran before). */
void mip_cut_reset(mip_cut *G)
{
    for (int k = 0; k < MIP_CUT_KEEP; k++) G->kept_n[k] = -1;
    G->next_keep = 1;
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
    mip_cut_keep_alloc(G);
    for (int v = 0; v < G->V; v++) G->head[v] = -1;
    for (int i = 0; i < n; i++) G->u[i] = -a[i];
    for (int e = 0; e < m; e++) {
        cut_add_arc(G, from[e], to[e], b[e]);
        G->u[from[e]] -= b[e];
    }
    /* terminal arcs: for node i, arc 2(m + i)... : source -> i, then i -> sink */
    for (int i = 0; i < n; i++) cut_add_arc(G, G->src, i, 0.0);
    for (int i = 0; i < n; i++) cut_add_arc(G, i, G->snk, 0.0);
    G->kept_cap = (double *) R_alloc((size_t) MIP_CUT_KEEP * (G->A > 0 ? G->A : 1), sizeof(double));
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
    for (int i = 0; i < n; i++) if (G->u[i] < 0) cst -= G->u[i];   /* v gains -u when s_i = 1 */
    /* the deepest kept ancestor */
    int from = -1, best = -1;
    for (int k = 0; k < MIP_CUT_KEEP && G->reuse; k++) {
        if (G->kept_n[k] <= best) continue;
        const signed char *f = G->kept_fix + (size_t) k * n;
        int ok = 1;
        for (int i = 0; i < n && ok; i++)
            if (f[i] >= 0 && (!(st[i] & 2) || (st[i] & 1) != f[i])) ok = 0;
        if (ok) { from = k; best = G->kept_n[k]; }
    }
    double flow;
    if (from >= 0) {         /* raise the newly fixed terminal arcs, keep the flow */
        memcpy(G->cap, G->kept_cap + (size_t) from * G->A, sizeof(double) * G->A);
        const signed char *f = G->kept_fix + (size_t) from * n;
        for (int i = 0; i < n; i++)
            if (f[i] < 0 && (st[i] & 2)) G->cap[(st[i] & 1) ? 2 * (m + i) : 2 * (m + n + i)] = INF;
        flow = G->kept_flow[from];
        G->warm++;
    } else {
        memcpy(G->cap, G->cap0, sizeof(double) * G->A);
        for (int i = 0; i < n; i++) {
            double u = G->u[i];
            int ks = 2 * (m + i), kt = 2 * (m + n + i);
            if (u < 0) G->cap[ks] = -u; else G->cap[kt] = u;
            if (st[i] & 2) {
                if (st[i] & 1) G->cap[ks] = INF; else G->cap[kt] = INF;
            }
        }
        flow = 0.0;
        G->cold++;
    }
    /* here v(s) = cst - cut(s): cut arcs cost what v loses */
    while (cut_bfs(G)) {
        for (int v = 0; v < G->V; v++) G->it[v] = G->head[v];
        double f;
        while ((f = cut_dfs(G, G->src, INF)) > 0) flow += f;
    }
    /* keep this flow: slot 0 for the unconstrained problem (the root, an
     * ancestor of every sub-problem), a ring over the others */
    int nf = 0;
    for (int i = 0; i < n; i++) nf += (st[i] & 2) != 0;
    int k = 0;
    if (nf > 0) {
        k = G->next_keep;
        G->next_keep = k + 1 < MIP_CUT_KEEP ? k + 1 : 1;
    }
    signed char *f = G->kept_fix + (size_t) k * n;
    for (int i = 0; i < n; i++) f[i] = (st[i] & 2) ? (signed char) (st[i] & 1) : -1;
    memcpy(G->kept_cap + (size_t) k * G->A, G->cap, sizeof(double) * G->A);
    G->kept_flow[k] = flow;
    G->kept_n[k] = nf;
    cut_bfs(G);   /* source side of the minimum cut */
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
    mip_cut_keep_alloc(H);
    H->kept_cap = (double *) R_alloc((size_t) MIP_CUT_KEEP * (G->A > 0 ? G->A : 1), sizeof(double));
    return H;
}

/* GumbelMIP: an upper bound of a binary pairwise sub-problem tightened by
 * the triangles of the model's graph, by dual decomposition (Sontag et al.
 * 2008, "Tightening LP relaxations for MAP using message passing"), without
 * an LP solver.
 *
 * In spins s = 2x - 1, with a constant spin s_0 = +1 for the fields,
 *   v(x) = k0 + sum_e J_e s_u s_v
 * over the edges of the graph on {0, 1, ..., n}: a field edge (0, i) for
 * every variable and a coupling edge for every model edge. A sub-problem
 * folds its fixed spins into the constant and the free variables' fields, so
 * it is the same kind of function on {0} and its free variables. Its edges
 * are covered by triangles: (0, i, j) for every coupling edge (these alone
 * give the local polytope, the roof dual of mip_roof.c) and (i, j, k) for
 * every triangle of the model's graph. A decomposition splits every J_e
 * into an allocation per triangle holding e and a remainder,
 *   J_e = sum_{T containing e} a_{T,e} + r_e,
 * so that v = k0 + sum_T f_T + sum_e r_e s_u s_v identically, with
 * f_T = sum_{e in T} a_{T,e} s_u s_v; hence
 *   max v <= k0 + sum_T max f_T + sum_e |r_e|
 * for every decomposition (weak duality: the bound is valid at any point of
 * the descent, so it may stop early). The maximum of a triangle's
 * f = a s_0 s_1 + b s_0 s_2 + c s_1 s_2 is |a| + |b| + |c|, less
 * 2 min(|a|, |b|, |c|) when abc < 0 (a frustrated triangle). As a function
 * of one allocation t, with x and y the triangle's other two, it is
 * |x| + |y| - m + |t - t*|, m = min(|x|, |y|), t* = -sign(xy) m; so the best
 * split of one edge's J_e given the others' is exact (block coordinate
 * descent): every triangle at its t*, the rest J_e - sum t* shared equally
 * with the remainder. The minimum over decompositions is the LP over the
 * triangle (cycle) inequalities of the cut polytope on the covered
 * triangles; the descent is monotone but may stall above it.
 *
 * The search takes the smaller of this bound and the roof dual
 * (mip_roof_bound()). The root's decomposition is computed once (read-only
 * and shared by the threads, so the bound is a function of the node), on
 * the (0, i, j) triangles and the graph's triangles that are frustrated
 * there. Each node starts from it: a graph triangle with one fixed variable
 * is added to the (0, j, k) triangle of its free pair, the others with a
 * fixed variable go to the remainders; then at most `sweeps` sweeps, which
 * stop once the bound falls to the node's pruning target, stalls, or cannot
 * reach the target at the rate of its last sweep. */
#include <limits.h>
#include <math.h>
#include <string.h>
#include "mip.h"

#define ROOT_SWEEPS 200
#define KEEP_TOL 1e-6     /* a kept triangle's smallest allocation, relative to max |J| */

/* the maximum of a s0 s1 + b s0 s2 + c s1 s2 over the spins */
static inline double tri_max(double a, double b, double c)
{
    double fa = fabs(a), fb = fabs(b), fc = fabs(c), s = fa + fb + fc;
    if (a * b * c < 0) {
        double m = fa < fb ? fa : fb;
        s -= 2.0 * (m < fc ? m : fc);
    }
    return s;
}

/* the best allocation of one edge of a triangle given the other two */
static inline double tri_target(double x, double y)
{
    double p = x * y;
    if (p == 0) return 0.0;
    double m = fabs(x) < fabs(y) ? fabs(x) : fabs(y);
    return p > 0 ? -m : m;
}

/* The active edges (act_e) and triangles (act_t) as compact lists: ce
 * (nce edges), each edge's active entries cstart[k] .. cstart[k + 1] - 1 as
 * the index of its allocation (cq) and of the triangle's other two (co1,
 * co2), and ct (nct triangles). */
static void compact(mip_tri *T)
{
    static const int o1[3] = {1, 0, 0}, o2[3] = {2, 2, 1};
    int k = 0, c = 0;
    T->cstart[0] = 0;
    for (int e = 0; e < T->ne; e++) {
        if (!T->act_e[e]) continue;
        for (int p = T->estart[e]; p < T->estart[e + 1]; p++) {
            int q = T->elist[p], t = q / 3, sl = q - 3 * t;
            if (!T->act_t[t]) continue;
            T->cq[c] = q; T->co1[c] = 3 * t + o1[sl]; T->co2[c] = 3 * t + o2[sl];
            c++;
        }
        T->ce[k++] = e;
        T->cstart[k] = c;
    }
    T->nce = k;
    int m = 0;
    for (int t = 0; t < T->nt; t++) if (T->act_t[t]) T->ct[m++] = t;
    T->nct = m;
}

/* One sweep of block coordinate descent over the compact lists: allocations
 * a (3 per triangle), remainders r, totals Jn. */
static void sweep(const mip_tri *T, double *a, double *r, const double *Jn)
{
    double *ts = T->tstar;
    for (int k = 0; k < T->nce; k++) {
        int e = T->ce[k], p0 = T->cstart[k], p1 = T->cstart[k + 1];
        double sum = 0.0;
        for (int p = p0; p < p1; p++) {
            ts[p] = tri_target(a[T->co1[p]], a[T->co2[p]]);
            sum += ts[p];
        }
        double share = (Jn[e] - sum) / (p1 - p0 + 1);
        for (int p = p0; p < p1; p++) a[T->cq[p]] = ts[p] + share;
        r[e] = share;
    }
}

static double evaluate(const mip_tri *T, const double *a, const double *r, double k0)
{
    double v = k0;
    for (int k = 0; k < T->nce; k++) v += fabs(r[T->ce[k]]);
    for (int k = 0; k < T->nct; k++) {
        const double *x = a + 3 * T->ct[k];
        v += tri_max(x[0], x[1], x[2]);
    }
    return v;
}

/* the remainders of the active edges: their totals less the allocations */
static void remainders(const mip_tri *T, const double *a, double *r, const double *Jn)
{
    for (int k = 0; k < T->nce; k++) {
        int e = T->ce[k];
        double s = Jn[e];
        for (int p = T->cstart[k]; p < T->cstart[k + 1]; p++) s -= a[T->cq[p]];
        r[e] = s;
    }
}

/* the edge index of (i, j) in Y (mip_cycle.c's sorted neighbour lists), -1 */
static int find_edge(const mip_cycle *Y, int i, int j)
{
    if (i > j) { int t = i; i = j; j = t; }
    int lo = Y->start[i], hi = Y->start[i + 1] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (Y->nb[mid] == j) return Y->col[mid] - Y->n;
        if (Y->nb[mid] < j) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
}

/* per edge: its (triangle, slot) entries 3 t + slot (estart: ne + 1,
 * elist: 3 nt, allocated) */
static void edge_lists(mip_tri *T)
{
    int ne = T->ne, nt = T->nt;
    memset(T->estart, 0, sizeof(int) * ((size_t) ne + 1));
    for (int q = 0; q < 3 * nt; q++) T->estart[T->te[q] + 1]++;
    for (int e = 0; e < ne; e++) T->estart[e + 1] += T->estart[e];
    int *fill = (int *) R_alloc(ne > 0 ? ne : 1, sizeof(int));
    for (int e = 0; e < ne; e++) fill[e] = T->estart[e];
    for (int q = 0; q < 3 * nt; q++) T->elist[fill[T->te[q]]++] = q;
}

/* descent on the root decomposition a0 until it stalls (at most
 * ROOT_SWEEPS sweeps); the remainders are J less the allocations */
static void root_descent(mip_tri *T)
{
    memset(T->act_e, 1, T->ne > 0 ? (size_t) T->ne : 1);
    memset(T->act_t, 1, T->nt > 0 ? (size_t) T->nt : 1);
    compact(T);
    remainders(T, T->a0, T->r, T->J);
    double prev = evaluate(T, T->a0, T->r, T->k0);
    for (int it = 0; it < ROOT_SWEEPS; it++) {
        sweep(T, T->a0, T->r, T->J);
        double b = evaluate(T, T->a0, T->r, T->k0);
        if (prev - b <= 1e-9 * (1.0 + fabs(b))) break;
        prev = b;
    }
}

static void alloc_scratch(mip_tri *T)
{
    size_t nt = T->nt > 0 ? (size_t) T->nt : 1, ne = T->ne > 0 ? (size_t) T->ne : 1;
    size_t nl = T->estart[T->ne] > 0 ? (size_t) T->estart[T->ne] : 1;
    T->a = (double *) R_alloc(3 * nt, sizeof(double));
    T->r = (double *) R_alloc(ne, sizeof(double));
    T->Jn = (double *) R_alloc(ne, sizeof(double));
    T->tstar = (double *) R_alloc(nl, sizeof(double));
    T->act_e = (unsigned char *) R_alloc(ne, 1);
    T->act_t = (unsigned char *) R_alloc(nt, 1);
    T->ce = (int *) R_alloc(ne, sizeof(int));
    T->cstart = (int *) R_alloc(ne + 1, sizeof(int));
    T->ct = (int *) R_alloc(nt, sizeof(int));
    T->cq = (int *) R_alloc(nl, sizeof(int));
    T->co1 = (int *) R_alloc(nl, sizeof(int));
    T->co2 = (int *) R_alloc(nl, sizeof(int));
    T->sg = (signed char *) R_alloc((size_t) T->n + 1, 1);
}

/* The triangle structure of a pairwise model M (R_alloc) and its root
 * decomposition; at most `sweeps` sweeps per node. NULL when M has more than
 * MIP_TRI_MAX triangles of its own (the bound would cost too much per node:
 * the search keeps roof duality alone). */
mip_tri *mip_tri_from_model(const mip_value_model *M, int sweeps)
{
    int n = M->n, m = M->m, ne = n + m;
    const mip_cycle *Y = mip_cycle_new(M);
    /* count the model's triangles i < j < k */
    double cnt = 0;
    for (int i = 0; i < n; i++)
        for (int p = Y->start[i]; p < Y->start[i + 1]; p++)
            for (int q = p + 1; q < Y->start[i + 1]; q++)
                if (find_edge(Y, Y->nb[p], Y->nb[q]) >= 0) cnt++;
    if (cnt > MIP_TRI_MAX || cnt + m > (double) INT_MAX / 3) return NULL;
    mip_tri *T = (mip_tri *) R_alloc(1, sizeof(mip_tri));
    T->n = n; T->m = m; T->ne = ne; T->nt = m + (int) cnt; T->sweeps = sweeps;
    T->eu = (int *) R_alloc(ne > 0 ? ne : 1, sizeof(int));
    T->ev = (int *) R_alloc(ne > 0 ? ne : 1, sizeof(int));
    T->J = (double *) R_alloc(ne > 0 ? ne : 1, sizeof(double));
    /* spins: x = (1 + s)/2, x_i x_j = (1 + s_i + s_j + s_i s_j)/4 */
    double *ca = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
    double *cb = (double *) R_alloc(m > 0 ? m : 1, sizeof(double));
    double k0 = mip_canonical(M, ca, cb);
    for (int i = 0; i < n; i++) {
        T->eu[i] = 0; T->ev[i] = i + 1;
        T->J[i] = 0.5 * ca[i];
        k0 += 0.5 * ca[i];
    }
    for (int e = 0; e < m; e++) {
        double q = 0.25 * cb[e];
        T->eu[n + e] = M->from[e] + 1; T->ev[n + e] = M->to[e] + 1;
        T->J[n + e] = q;
        T->J[M->from[e]] += q;
        T->J[M->to[e]] += q;
        k0 += q;
    }
    T->k0 = k0;
    /* triangles: slots (v0 v1), (v0 v2), (v1 v2) */
    int nt = T->nt;
    T->te = (int *) R_alloc(3 * (size_t) (nt > 0 ? nt : 1), sizeof(int));
    T->tv = (int *) R_alloc(3 * (size_t) (nt > 0 ? nt : 1), sizeof(int));
    int t = 0;
    for (int e = 0; e < m; e++, t++) {
        T->te[3 * t] = M->from[e]; T->te[3 * t + 1] = M->to[e]; T->te[3 * t + 2] = n + e;
        T->tv[3 * t] = 0; T->tv[3 * t + 1] = M->from[e] + 1; T->tv[3 * t + 2] = M->to[e] + 1;
    }
    for (int i = 0; i < n; i++)
        for (int p = Y->start[i]; p < Y->start[i + 1]; p++)
            for (int q = p + 1; q < Y->start[i + 1]; q++) {
                int ejk = find_edge(Y, Y->nb[p], Y->nb[q]);
                if (ejk < 0) continue;
                T->te[3 * t] = Y->col[p]; T->te[3 * t + 1] = Y->col[q];   /* n + e */
                T->te[3 * t + 2] = n + ejk;
                T->tv[3 * t] = i + 1; T->tv[3 * t + 1] = Y->nb[p] + 1; T->tv[3 * t + 2] = Y->nb[q] + 1;
                t++;
            }
    T->estart = (int *) R_alloc((size_t) ne + 1, sizeof(int));
    T->elist = (int *) R_alloc(3 * (size_t) (nt > 0 ? nt : 1), sizeof(int));
    edge_lists(T);
    alloc_scratch(T);
    /* the root decomposition: an equal split, then descent */
    T->a0 = (double *) R_alloc(3 * (size_t) (nt > 0 ? nt : 1), sizeof(double));
    for (int e = 0; e < ne; e++) {
        int k = T->estart[e + 1] - T->estart[e];
        for (int p = T->estart[e]; p < T->estart[e + 1]; p++) T->a0[T->elist[p]] = T->J[e] / (k + 1);
    }
    root_descent(T);
    /* keep the (0, i, j) triangles and the graph's triangles frustrated at
     * the root (abc < 0: the others add nothing there); the dropped ones'
     * allocations go to the remainders, and the descent resumes */
    double scale = 0.0;
    for (int e = 0; e < ne; e++) scale = fmax(scale, fabs(T->J[e]));
    int kept = T->m;
    for (int t = T->m; t < nt; t++) {
        const double *a = T->a0 + 3 * t;
        double mn = fmin(fabs(a[0]), fmin(fabs(a[1]), fabs(a[2])));
        if (!(a[0] * a[1] * a[2] < 0 && mn > KEEP_TOL * scale)) continue;
        memmove(T->a0 + 3 * kept, a, 3 * sizeof(double));
        memmove(T->te + 3 * kept, T->te + 3 * t, 3 * sizeof(int));
        memmove(T->tv + 3 * kept, T->tv + 3 * t, 3 * sizeof(int));
        kept++;
    }
    if (kept < nt) {
        T->nt = kept;
        edge_lists(T);
        root_descent(T);
    }
    return T;
}

/* A copy with its own scratch (one per thread); the structure and the root
 * decomposition are shared, read-only. */
mip_tri *mip_tri_clone(const mip_tri *T)
{
    mip_tri *H = (mip_tri *) R_alloc(1, sizeof(mip_tri));
    *H = *T;
    alloc_scratch(H);
    return H;
}

/* The bound of the sub-problem st (state bytes: MIP_FIXED, MIP_SIGMA), the
 * descent stopped once it is at most target. */
double mip_tri_bound(mip_tri *T, const unsigned char *st, double target)
{
    int n = T->n, ne = T->ne, nt = T->nt;
    signed char *sg = T->sg;
    sg[0] = 1;
    for (int i = 0; i < n; i++) sg[i + 1] = (st[i] & MIP_FIXED) ? ((st[i] & MIP_SIGMA) ? 1 : -1) : 0;
    /* fold the fixed spins: the constant and the free variables' fields */
    double k0 = T->k0;
    for (int e = 0; e < ne; e++) T->Jn[e] = T->J[e];
    for (int e = 0; e < ne; e++) {
        int u = T->eu[e], v = T->ev[e], su = u > 0 ? sg[u] : 0, sv = sg[v];
        T->act_e[e] = !su && !sv;          /* an edge of free variables (or 0) */
        if (e < n) { if (sv) k0 += T->J[e] * sv; }
        else if (su && sv) k0 += T->J[e] * su * sv;
        else if (su) T->Jn[v - 1] += T->J[e] * su;
        else if (sv) T->Jn[u - 1] += T->J[e] * sv;
    }
    /* the root's allocations on the triangles of free variables; the rest
     * of every active edge's total is its remainder */
    for (int t = 0; t < nt; t++) {
        const int *te = T->te + 3 * t;
        int on = T->act_e[te[0]] && T->act_e[te[1]] && T->act_e[te[2]];
        T->act_t[t] = (unsigned char) on;
        if (on) memcpy(T->a + 3 * t, T->a0 + 3 * t, 3 * sizeof(double));
    }
    /* a triangle (i, j, k) of the graph with one fixed variable, say i, is
     * a function of s_j and s_k of the same form as the triangle (0, j, k):
     * added to it (the sum of two such functions is one, and the maximum of
     * a sum is at most the sum of the maxima) */
    for (int t = T->m; t < nt; t++) {
        const int *tv = T->tv + 3 * t;
        int f0 = sg[tv[0]] != 0, f1 = sg[tv[1]] != 0, f2 = sg[tv[2]] != 0;
        if (f0 + f1 + f2 != 1) continue;
        /* the fixed vertex x, the free pair (y, z) and the slots of (x, y),
         * (x, z) and (y, z) */
        int x, y, z, sxy, sxz, syz;
        if (f0) { x = tv[0]; y = tv[1]; z = tv[2]; sxy = 0; sxz = 1; syz = 2; }
        else if (f1) { x = tv[1]; y = tv[0]; z = tv[2]; sxy = 0; sxz = 2; syz = 1; }
        else { x = tv[2]; y = tv[0]; z = tv[1]; sxy = 1; sxz = 2; syz = 0; }
        const double *a0 = T->a0 + 3 * t;
        int t0 = T->te[3 * t + syz] - n;        /* the triangle (0, y, z) */
        double *a = T->a + 3 * t0, sx = sg[x];
        int yfirst = T->tv[3 * t0 + 1] == y;
        a[yfirst ? 0 : 1] += sx * a0[sxy];
        a[yfirst ? 1 : 0] += sx * a0[sxz];
        a[2] += a0[syz];
    }
    compact(T);
    remainders(T, T->a, T->r, T->Jn);
    double best = evaluate(T, T->a, T->r, k0);
    for (int it = 0; it < T->sweeps && best > target; it++) {
        sweep(T, T->a, T->r, T->Jn);
        double b = evaluate(T, T->a, T->r, k0), d = best - b;
        best = fmin(best, b);
        /* stalled, or the target out of reach at this sweep's rate (the
         * descent slows down): the node will not be pruned here */
        if (d <= 1e-9 * (1.0 + fabs(b)) || best - target > d * (T->sweeps - it - 1)) break;
    }
    return best;
}

/* Exact inference for low-treewidth Ising models: variable elimination along
 * a min-fill order and the junction tree it induces (Koller & Friedman 2009,
 * ch. 9-10), in log space.
 *
 * Eliminating v (step t = pos[v]) creates the clique C_t = {v} ∪ N(v) of the
 * current (filled) graph; its vars are stored as v first and then the
 * separator S_t = C_t \ {v} sorted by elimination step, so the parent clique
 * is that of S_t's first var, which contains S_t. Table index bits follow the
 * var order (bit k set <=> var k at its `hi` value); S_t's index is the
 * clique index >> 1. Each field term goes to its node's clique and each edge
 * term to the clique of whichever end is eliminated first (both ends are in
 * it, at bits 0 and k).
 *
 * Upward pass (= variable elimination): psi_t = own terms + children's
 * messages; msg_t(s) = log sum_{x_v} exp psi_t. Roots (empty separators, one
 * per connected component) give log Z = sum of root messages. Downward pass
 * (marginals): belief_t = psi_t + down_t, down_t(s) = log sum over the parent's
 * other vars of exp(belief_parent - msg_t). Marginals are read off beliefs.
 * Sub-table indices are extracted with per-byte lookup tables. */
#include <math.h>
#include <string.h>
#include "logz.h"

typedef struct {
    int n, words;
    uint64_t *adj;      /* n rows of `words` 64-bit words */
} bitgraph;

static inline int bg_has(const bitgraph *g, int a, int b)
{
    return (int) ((g->adj[(size_t) a * g->words + (b >> 6)] >> (b & 63)) & 1ULL);
}
static inline void bg_set(bitgraph *g, int a, int b)
{
    g->adj[(size_t) a * g->words + (b >> 6)] |= 1ULL << (b & 63);
}
static inline void bg_clear(bitgraph *g, int a, int b)
{
    g->adj[(size_t) a * g->words + (b >> 6)] &= ~(1ULL << (b & 63));
}

static void bg_init(bitgraph *g, int n, int ne, const int *from, const int *to)
{
    g->n = n;
    g->words = (n + 63) / 64;
    g->adj = (uint64_t *) R_alloc((size_t) n * g->words, sizeof(uint64_t));
    memset(g->adj, 0, sizeof(uint64_t) * (size_t) n * g->words);
    for (int e = 0; e < ne; e++) {
        bg_set(g, from[e], to[e]);
        bg_set(g, to[e], from[e]);
    }
}

/* Neighbours of v into nb; returns their number. */
static int bg_neighbours(const bitgraph *g, int v, int *nb)
{
    int d = 0;
    const uint64_t *row = g->adj + (size_t) v * g->words;
    for (int w = 0; w < g->words; w++) {
        uint64_t x = row[w];
        while (x) {
            int b = __builtin_ctzll(x);
            nb[d++] = w * 64 + b;
            x &= x - 1;
        }
    }
    return d;
}

/* Fill-in edges eliminating u would add; *deg gets its degree. Counts
 * missing pairs directly when that is cheaper than row intersections. */
static double fill_score(const bitgraph *g, int u, int *nb, int *deg)
{
    int d = bg_neighbours(g, u, nb);
    double missing = 0.0;
    *deg = d;
    if (d < 2) return 0.0;
    if (d / 2 < g->words) {
        for (int i = 0; i < d; i++)
            for (int j = i + 1; j < d; j++) missing += !bg_has(g, nb[i], nb[j]);
        return missing;
    }
    const uint64_t *ru = g->adj + (size_t) u * g->words;
    for (int i = 0; i < d; i++) {
        const uint64_t *ra = g->adj + (size_t) nb[i] * g->words;
        int common = 0;
        for (int w = 0; w < g->words; w++) common += __builtin_popcountll(ra[w] & ru[w]);
        missing += (double) (d - 1 - common);
    }
    return missing / 2.0;
}

/* Eliminate v: connect its neighbours, remove it. nb holds its d neighbours. */
static void bg_eliminate(bitgraph *g, int v, const int *nb, int d)
{
    for (int i = 0; i < d; i++) {
        bg_clear(g, nb[i], v);
        for (int j = i + 1; j < d; j++) {
            bg_set(g, nb[i], nb[j]);
            bg_set(g, nb[j], nb[i]);
        }
    }
    memset(g->adj + (size_t) v * g->words, 0, sizeof(uint64_t) * g->words);
}

/* Min-fill order (ties: fewest neighbours, then lowest index). Writes order
 * (n) and clique sizes (n, in elimination order); returns the width
 * (largest clique size - 1). Stops as soon as a clique has more than cap + 1
 * variables (the return value then exceeds cap and the order is incomplete). */
int jt_min_fill(int n, int ne, const int *from, const int *to, int cap, int *order, int *csize)
{
    bitgraph g;
    bg_init(&g, n, ne, from, to);
    int *nb = (int *) R_alloc((size_t) n + 1, sizeof(int));
    int *nb2 = (int *) R_alloc((size_t) n + 1, sizeof(int));
    int *deg = (int *) R_alloc((size_t) n, sizeof(int));
    int *stamp = (int *) R_alloc((size_t) n, sizeof(int));
    int *todo = (int *) R_alloc((size_t) n, sizeof(int));
    double *score = (double *) R_alloc((size_t) n, sizeof(double));
    char *alive = (char *) R_alloc((size_t) n, 1);
    for (int u = 0; u < n; u++) {
        score[u] = fill_score(&g, u, nb, &deg[u]);
        alive[u] = 1;
        stamp[u] = -1;
    }
    int width = 0;
    for (int t = 0; t < n; t++) {
        int best = -1;
        for (int u = 0; u < n; u++) {
            if (!alive[u]) continue;
            if (best < 0 || score[u] < score[best] ||
                (score[u] == score[best] && deg[u] < deg[best]))
                best = u;
        }
        int v = best;
        int d = bg_neighbours(&g, v, nb);
        order[t] = v;
        csize[t] = d + 1;
        if (d > width) width = d;
        if (d > cap) {
            for (int u = 0, k = t + 1; u < n; u++)
                if (alive[u] && u != v) {
                    order[k] = u;
                    csize[k++] = 0;
                }
            break;
        }
        bg_eliminate(&g, v, nb, d);
        alive[v] = 0;
        /* rescore the neighbours and their neighbours: only their fill
         * counts can have changed */
        int nr = 0;
        for (int i = 0; i < d; i++)
            if (stamp[nb[i]] != t) {
                stamp[nb[i]] = t;
                todo[nr++] = nb[i];
            }
        for (int i = 0; i < d; i++) {
            int d2 = bg_neighbours(&g, nb[i], nb2);
            for (int j = 0; j < d2; j++)
                if (stamp[nb2[j]] != t) {
                    stamp[nb2[j]] = t;
                    todo[nr++] = nb2[j];
                }
        }
        for (int r = 0; r < nr; r++) score[todo[r]] = fill_score(&g, todo[r], nb2, &deg[todo[r]]);
        if (t % 256 == 255) R_CheckUserInterrupt();
    }
    return width;
}

/* Clique sizes (n, in elimination order) of eliminating along `order`;
 * returns the width, stopping early (with sizes 0) once it exceeds cap. */
int jt_sizes(int n, int ne, const int *from, const int *to, const int *order, int cap, int *csize)
{
    bitgraph g;
    bg_init(&g, n, ne, from, to);
    int *nb = (int *) R_alloc((size_t) n + 1, sizeof(int));
    int width = 0;
    for (int t = 0; t < n; t++) {
        int d = bg_neighbours(&g, order[t], nb);
        csize[t] = d + 1;
        if (d > width) width = d;
        if (d > cap) {
            for (int k = t + 1; k < n; k++) csize[k] = 0;
            break;
        }
        bg_eliminate(&g, order[t], nb, d);
        if (t % 256 == 255) R_CheckUserInterrupt();
    }
    return width;
}

/* ---- calibration ------------------------------------------------------------ */

typedef struct {
    int n;
    int *order, *pos, *cptr, *cvars, *parent, *kptr, *kids;
    size_t *toff, *moff;     /* offsets of clique tables / messages */
} jtree;

static void sort_by_pos(int *v, int d, const int *pos)
{
    for (int i = 1; i < d; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && pos[v[j]] > pos[x]) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

/* Cliques, parents and children of the elimination along `order`. */
static void jt_build(int n, int ne, const int *from, const int *to, const int *order, jtree *T)
{
    bitgraph g;
    bg_init(&g, n, ne, from, to);
    T->n = n;
    T->order = (int *) order;
    T->pos = (int *) R_alloc((size_t) n, sizeof(int));
    for (int t = 0; t < n; t++) T->pos[order[t]] = t;
    int *nb = (int *) R_alloc((size_t) n + 1, sizeof(int));
    T->cptr = (int *) R_alloc((size_t) n + 1, sizeof(int));
    /* pass 1: sizes */
    int *sizes = (int *) R_alloc((size_t) n, sizeof(int));
    jt_sizes(n, ne, from, to, order, n, sizes);
    T->cptr[0] = 0;
    for (int t = 0; t < n; t++) T->cptr[t + 1] = T->cptr[t] + sizes[t];
    T->cvars = (int *) R_alloc((size_t) T->cptr[n] + 1, sizeof(int));
    T->parent = (int *) R_alloc((size_t) n, sizeof(int));
    for (int t = 0; t < n; t++) {
        int v = order[t], *cv = T->cvars + T->cptr[t];
        int d = bg_neighbours(&g, v, nb);
        cv[0] = v;
        memcpy(cv + 1, nb, sizeof(int) * d);
        sort_by_pos(cv + 1, d, T->pos);
        T->parent[t] = d > 0 ? T->pos[cv[1]] : -1;
        bg_eliminate(&g, v, nb, d);
    }
    T->kptr = (int *) R_alloc((size_t) n + 1, sizeof(int));
    T->kids = (int *) R_alloc((size_t) n + 1, sizeof(int));
    for (int t = 0; t <= n; t++) T->kptr[t] = 0;
    for (int t = 0; t < n; t++) if (T->parent[t] >= 0) T->kptr[T->parent[t] + 1]++;
    for (int t = 0; t < n; t++) T->kptr[t + 1] += T->kptr[t];
    int *fill = (int *) R_alloc((size_t) n + 1, sizeof(int));
    for (int t = 0; t < n; t++) fill[t] = T->kptr[t];
    for (int t = 0; t < n; t++) if (T->parent[t] >= 0) T->kids[fill[T->parent[t]]++] = t;
}

/* Lookup tables mapping an index of clique p to the separator index of its
 * child c: lut[b * 256 + byte] is the contribution of byte b. */
static void make_lut(const jtree *T, int c, int p, int *where, int *lut, int *nbytes)
{
    int sp = T->cptr[p + 1] - T->cptr[p], sc = T->cptr[c + 1] - T->cptr[c];
    const int *pv = T->cvars + T->cptr[p], *cv = T->cvars + T->cptr[c];
    for (int k = 0; k < sp; k++) where[pv[k]] = k;
    int nb = (sp + 7) / 8;
    memset(lut, 0, sizeof(int) * 256 * (size_t) nb);
    for (int j = 1; j < sc; j++) {
        int k = where[cv[j]];
        if (k < 0) logz_internal_error("separator not in parent clique");
        int b = k / 8, bit = k % 8;
        for (int x = 0; x < 256; x++)
            if ((x >> bit) & 1) lut[b * 256 + x] |= 1 << (j - 1);
    }
    for (int k = 0; k < sp; k++) where[pv[k]] = -1;
    *nbytes = nb;
}

static inline int lut_index(const int *lut, int nbytes, uint32_t idx)
{
    int s = 0;
    for (int b = 0; b < nbytes; b++) s |= lut[b * 256 + ((idx >> (8 * b)) & 255)];
    return s;
}

/* Own terms of clique t: field of its first var; edges whose earlier-
 * eliminated end is that var. Edge lists are by node (CSR from ising_model). */
static void own_terms(const jtree *T, const ising_model *m, int t, double *psi, int *where)
{
    int size = T->cptr[t + 1] - T->cptr[t];
    const int *cv = T->cvars + T->cptr[t];
    int v = cv[0];
    size_t len = (size_t) 1 << size;
    double lo = m->lo, hi = m->hi, f = m->f[v];
    for (size_t idx = 0; idx < len; idx++) psi[idx] = f * ((idx & 1) ? hi : lo);
    for (int k = 1; k < size; k++) where[cv[k]] = k;
    for (int p = m->ptr[v]; p < m->ptr[v + 1]; p++) {
        int u = m->nbr[p];
        if (T->pos[u] < t) continue;          /* term belongs to u's clique */
        int k = where[u];
        if (k < 0) logz_internal_error("edge end not in clique");
        double w = m->nw[p];
        for (size_t idx = 0; idx < len; idx++)
            psi[idx] += w * ((idx & 1) ? hi : lo) * (((idx >> k) & 1) ? hi : lo);
    }
    for (int k = 1; k < size; k++) where[cv[k]] = -1;
}

/* log Z of the model along `order`; with marg != NULL also P(x_i = hi) (n)
 * and, with pair != NULL, P(x_i = hi, x_j = hi) for each edge (ne). */
/* Count `add` table entries of work and check for an interrupt every 2^20
 * of them, so that a wide clique (2^22 entries and more per pass) is not
 * waited for. */
static void jt_tick(size_t *work, size_t add)
{
    *work += add;
    if (*work >= ((size_t) 1 << 20)) {
        *work = 0;
        R_CheckUserInterrupt();
    }
}

double jt_calibrate(const ising_model *m, const int *order, double *marg, double *pair)
{
    int n = m->n;
    jtree T;
    jt_build(n, m->ne, m->from, m->to, order, &T);
    int maxsize = 0;
    T.toff = (size_t *) R_alloc((size_t) n + 1, sizeof(size_t));
    T.moff = (size_t *) R_alloc((size_t) n + 1, sizeof(size_t));
    T.toff[0] = T.moff[0] = 0;
    for (int t = 0; t < n; t++) {
        int s = T.cptr[t + 1] - T.cptr[t];
        if (s > maxsize) maxsize = s;
        T.toff[t + 1] = T.toff[t] + ((size_t) 1 << s);
        T.moff[t + 1] = T.moff[t] + ((size_t) 1 << (s - 1));
    }
    if (maxsize > 30) logz_internal_error("clique too large");
    int keep = marg != NULL;
    double *tab = (double *) R_alloc(keep ? T.toff[n] : ((size_t) 1 << maxsize), sizeof(double));
    double *msg = (double *) R_alloc(T.moff[n], sizeof(double));
    int *where = (int *) R_alloc((size_t) n, sizeof(int));
    for (int i = 0; i < n; i++) where[i] = -1;
    int *lut = (int *) R_alloc((size_t) 256 * 4, sizeof(int));
    double log_z = 0.0;
    size_t work = 0;

    /* upward pass in elimination order (children first) */
    for (int t = 0; t < n; t++) {
        int size = T.cptr[t + 1] - T.cptr[t], nbytes;
        size_t len = (size_t) 1 << size;
        double *psi = keep ? tab + T.toff[t] : tab;
        own_terms(&T, m, t, psi, where);
        jt_tick(&work, len * (size_t) (1 + m->ptr[T.cvars[T.cptr[t]] + 1] - m->ptr[T.cvars[T.cptr[t]]]));
        for (int q = T.kptr[t]; q < T.kptr[t + 1]; q++) {
            int c = T.kids[q];
            const double *mc = msg + T.moff[c];
            make_lut(&T, c, t, where, lut, &nbytes);
            for (size_t idx = 0; idx < len; idx++) psi[idx] += mc[lut_index(lut, nbytes, (uint32_t) idx)];
            jt_tick(&work, len);
        }
        double *mt = msg + T.moff[t];
        for (size_t s = 0; s < len / 2; s++) mt[s] = logz_log_add_exp(psi[2 * s], psi[2 * s + 1]);
        if (T.parent[t] < 0) log_z += mt[0];
        jt_tick(&work, 16 + len);
    }
    if (!keep) return log_z;

    /* downward pass: beliefs in place of psi, parents before children */
    double *dmax = (double *) R_alloc((size_t) 1 << (maxsize - 1 > 0 ? maxsize - 1 : 0), sizeof(double));
    double *dsum = (double *) R_alloc((size_t) 1 << (maxsize - 1 > 0 ? maxsize - 1 : 0), sizeof(double));
    for (int t = n - 1; t >= 0; t--) {
        int p = T.parent[t];
        if (p < 0) continue;
        int size = T.cptr[t + 1] - T.cptr[t], psize = T.cptr[p + 1] - T.cptr[p], nbytes;
        size_t slen = (size_t) 1 << (size - 1), plen = (size_t) 1 << psize;
        const double *bp = tab + T.toff[p], *mt = msg + T.moff[t];
        double *bt = tab + T.toff[t];
        make_lut(&T, t, p, where, lut, &nbytes);
        for (size_t s = 0; s < slen; s++) {
            dmax[s] = R_NegInf;
            dsum[s] = 0.0;
        }
        for (size_t idx = 0; idx < plen; idx++) {
            int s = lut_index(lut, nbytes, (uint32_t) idx);
            double v = bp[idx] - mt[s];
            if (v > dmax[s]) dmax[s] = v;
        }
        for (size_t idx = 0; idx < plen; idx++) {
            int s = lut_index(lut, nbytes, (uint32_t) idx);
            dsum[s] += exp(bp[idx] - mt[s] - dmax[s]);
        }
        for (size_t s = 0; s < slen; s++) dmax[s] += log(dsum[s]);
        for (size_t idx = 0; idx < 2 * slen; idx++) bt[idx] += dmax[idx >> 1];
        jt_tick(&work, 16 + 3 * plen);
    }
    /* marginals from beliefs */
    for (int i = 0; i < n; i++) {
        int t = T.pos[i], size = T.cptr[t + 1] - T.cptr[t];
        size_t len = (size_t) 1 << size;
        const double *b = tab + T.toff[t];
        double mx = R_NegInf, s_all = 0.0, s_hi = 0.0;
        for (size_t idx = 0; idx < len; idx++) if (b[idx] > mx) mx = b[idx];
        for (size_t idx = 0; idx < len; idx++) {
            double e = exp(b[idx] - mx);
            s_all += e;
            if (idx & 1) s_hi += e;
        }
        marg[i] = s_hi / s_all;
        jt_tick(&work, 2 * len);
    }
    if (pair) {
        for (int e = 0; e < m->ne; e++) {
            int a = m->from[e], c = m->to[e];
            int t = T.pos[a] < T.pos[c] ? T.pos[a] : T.pos[c];
            int u = T.pos[a] < T.pos[c] ? c : a;
            int size = T.cptr[t + 1] - T.cptr[t], k = -1;
            for (int j = 1; j < size; j++) if (T.cvars[T.cptr[t] + j] == u) k = j;
            if (k < 0) logz_internal_error("edge not in clique");
            size_t len = (size_t) 1 << size;
            const double *b = tab + T.toff[t];
            double mx = R_NegInf, s_all = 0.0, s_hh = 0.0;
            for (size_t idx = 0; idx < len; idx++) if (b[idx] > mx) mx = b[idx];
            for (size_t idx = 0; idx < len; idx++) {
                double ex = exp(b[idx] - mx);
                s_all += ex;
                if ((idx & 1) && ((idx >> k) & 1)) s_hh += ex;
            }
            pair[e] = s_hh / s_all;
            jt_tick(&work, 2 * len);
        }
    }
    return log_z;
}


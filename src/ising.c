/* Ising models (pairwise binary MRFs)
 *   p(x) ∝ exp( sum_e w_e x_i x_j + sum_i f_i x_i ),  x_i in {lo, hi}
 * with {lo, hi} = {-1, +1} ("pm1") or {0, 1} ("01"):
 *
 * - exact log Z and marginals by enumerating all 2^n states in Gray-code
 *   order (one flip per state, local fields updated along the flipped node's
 *   edges, streaming log-sum-exp), split into a fixed number of blocks that
 *   threads share and that are merged in a fixed order, so the answer does not
 *   depend on the thread count;
 * - single-site Gibbs sweeps in a fixed node order (colour 0 then colour 1 for
 *   bipartite graphs: a checkerboard sweep, in which each half is an exact
 *   block draw because nodes of one colour are conditionally independent);
 * - AIS on the path
 *     log f_beta(x) = beta * sum_e w_e x_i x_j + (1 - beta) a0'x + beta f'x
 *   from the independent base with field a0 (a0 = 0: uniform; a0 = f: the
 *   field-only model) to the Ising model.
 * Chains own MRG32k3a streams (rng.c), so Gibbs samples and AIS weights are
 * identical for any thread count. The SEXP glue is ising_call.c. */
#include <limits.h>
#include <math.h>
#include <string.h>
#include "logz.h"

#define RESYNC 4096
#define NBLOCKS 64

/* ---- model ---------------------------------------------------------------- */

void ising_model_init(ising_model *m, int n, int ne, const int *from, const int *to,
                      const double *w, const double *f, double lo, double hi)
{
    m->n = n;
    m->ne = ne;
    m->from = from;
    m->to = to;
    m->w = w;
    m->f = f;
    m->lo = lo;
    m->hi = hi;
    int *ptr = (int *) R_alloc((size_t) n + 1, sizeof(int));
    int *nbr = (int *) R_alloc((size_t) 2 * ne + 1, sizeof(int));
    double *nw = (double *) R_alloc((size_t) 2 * ne + 1, sizeof(double));
    int *fill = (int *) R_alloc((size_t) n + 1, sizeof(int));
    for (int i = 0; i <= n; i++) ptr[i] = 0;
    for (int e = 0; e < ne; e++) {
        ptr[from[e] + 1]++;
        ptr[to[e] + 1]++;
    }
    for (int i = 0; i < n; i++) ptr[i + 1] += ptr[i];
    for (int i = 0; i < n; i++) fill[i] = ptr[i];
    for (int e = 0; e < ne; e++) {
        int a = from[e], b = to[e];
        nbr[fill[a]] = b; nw[fill[a]++] = w[e];
        nbr[fill[b]] = a; nw[fill[b]++] = w[e];
    }
    m->ptr = ptr;
    m->nbr = nbr;
    m->nw = nw;
}

/* sum_e w_e x_i x_j + sum_i c_i x_i */
double ising_energy(const ising_model *m, const double *c, const double *x)
{
    double s = 0.0;
    for (int e = 0; e < m->ne; e++) s += m->w[e] * x[m->from[e]] * x[m->to[e]];
    for (int i = 0; i < m->n; i++) s += c[i] * x[i];
    return s;
}

/* ---- enumeration ------------------------------------------------------------ */

/* State with Gray-code bits g: x, local fields L_i = sum_j w_ij x_j; returns log f(x). */
static double enum_set(const ising_model *m, uint64_t g, double *x, double *L)
{
    int n = m->n;
    for (int i = 0; i < n; i++) x[i] = ((g >> i) & 1ULL) ? m->hi : m->lo;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int p = m->ptr[i]; p < m->ptr[i + 1]; p++) s += m->nw[p] * x[m->nbr[p]];
        L[i] = s;
    }
    return ising_energy(m, m->f, x);
}

/* Add weight e of state x to the marginal accumulators. */
static void enum_add(const ising_model *m, const double *x, double e, double *sm, double *sp)
{
    double hi = m->hi;
    for (int i = 0; i < m->n; i++)
        if (x[i] == hi) sm[i] += e;
    if (sp)
        for (int k = 0; k < m->ne; k++)
            if (x[m->from[k]] == hi && x[m->to[k]] == hi) sp[k] += e;
}

/* Block [from, to) of Gray-code indices: (max, sum) for log-sum-exp and, if
 * sm != NULL, the sums of exp(val - max) over states with x_i = hi (sm, n)
 * and with both ends of edge k at hi (sp, ne; may be NULL). */
static void enum_block(const ising_model *m, uint64_t from, uint64_t to, double *x, double *L,
                       double *out_max, double *out_sum, double *sm, double *sp)
{
    int n = m->n, ne = m->ne;
    double mx = R_NegInf, s = 0.0, d = m->hi - m->lo;
    uint64_t g = from ^ (from >> 1);
    double val = enum_set(m, g, x, L);
    if (sm) {
        for (int i = 0; i < n; i++) sm[i] = 0.0;
        if (sp) for (int k = 0; k < ne; k++) sp[k] = 0.0;
    }
    for (uint64_t i = from; i < to; i++) {
        if (i > from) {
            if ((i - from) % RESYNC == 0) {
                g = i ^ (i >> 1);
                val = enum_set(m, g, x, L);
            } else {
                int b = __builtin_ctzll(i);
                g ^= 1ULL << b;
                double dx = ((g >> b) & 1ULL) ? d : -d;
                val += dx * (m->f[b] + L[b]);
                x[b] += dx;
                for (int p = m->ptr[b]; p < m->ptr[b + 1]; p++) L[m->nbr[p]] += m->nw[p] * dx;
            }
        }
        if (val > mx) {
            double sc = exp(mx - val);
            s = s * sc + 1.0;
            if (sm) {
                for (int j = 0; j < n; j++) sm[j] *= sc;
                if (sp) for (int k = 0; k < ne; k++) sp[k] *= sc;
                enum_add(m, x, 1.0, sm, sp);
            }
            mx = val;
        } else {
            double e = exp(val - mx);
            s += e;
            if (sm) enum_add(m, x, e, sm, sp);
        }
    }
    *out_max = mx;
    *out_sum = s;
}

typedef struct {
    const ising_model *m;
    double *work, *bmax, *bsum, *bm, *bp;
} ising_enum_ctx;

static void ising_enum_block(int blk, uint64_t from, uint64_t to, int tid, void *ctx)
{
    ising_enum_ctx *c = (ising_enum_ctx *) ctx;
    int n = c->m->n, ne = c->m->ne;
    double *x = c->work + (size_t) 2 * n * tid, *L = x + n;
    enum_block(c->m, from, to, x, L, &c->bmax[blk], &c->bsum[blk],
               c->bm ? c->bm + (size_t) n * blk : NULL, c->bp ? c->bp + (size_t) ne * blk : NULL);
}

double ising_enumerate(const ising_model *m, int nthreads, double *marg, double *pair)
{
    int n = m->n, ne = m->ne;
    uint64_t total = 1ULL << n;
    /* per-block marginals take n + ne doubles a block: at most 128 MB */
    int cap = marg ? (int) ((1 << 24) / ((size_t) n + (size_t) ne + 1)) : 1 << 20;
    int nblocks = logz_enum_blocks(total, 16.0, NBLOCKS, cap > NBLOCKS ? cap : NBLOCKS);
    ising_enum_ctx c = {.m = m,
                        .work = (double *) R_alloc((size_t) 2 * n * nthreads, sizeof(double)),
                        .bmax = (double *) R_alloc((size_t) nblocks, sizeof(double)),
                        .bsum = (double *) R_alloc((size_t) nblocks, sizeof(double)),
                        .bm = NULL, .bp = NULL};
    if (marg) c.bm = (double *) R_alloc((size_t) n * nblocks, sizeof(double));
    if (marg && pair && ne > 0) c.bp = (double *) R_alloc((size_t) ne * nblocks, sizeof(double));
    logz_for_blocks(total, nblocks, nthreads, ising_enum_block, &c);
    /* merge in block order: the result does not depend on nthreads */
    double *share = (double *) R_alloc((size_t) nblocks, sizeof(double));
    double log_z = logz_merge_blocks(c.bmax, c.bsum, nblocks, share);
    if (marg) {
        for (int i = 0; i < n; i++) marg[i] = 0.0;
        if (pair) for (int k = 0; k < ne; k++) pair[k] = 0.0;
        for (int blk = 0; blk < nblocks; blk++) {
            double sc = share[blk];
            for (int i = 0; i < n; i++) marg[i] += c.bm[(size_t) n * blk + i] * sc;
            if (c.bp) for (int k = 0; k < ne; k++) pair[k] += c.bp[(size_t) ne * blk + k] * sc;
        }
    }
    return log_z;
}

/* ---- Gibbs sweeps --------------------------------------------------------- */

/* One sweep in `order` at inverse temperature beta: each x_i is drawn from its
 * conditional with log-odds (hi - lo) ((1 - beta) a0_i + beta (f_i + sum_j w_ij x_j)). */
void ising_sweep(const ising_model *m, const int *order, const double *a0, double beta,
                 double *x, logz_stream *st)
{
    double d = m->hi - m->lo, hi = m->hi, lo = m->lo;
    for (int k = 0; k < m->n; k++) {
        int i = order[k];
        double s = 0.0;
        for (int p = m->ptr[i]; p < m->ptr[i + 1]; p++) s += m->nw[p] * x[m->nbr[p]];
        double t = d * ((1.0 - beta) * a0[i] + beta * (m->f[i] + s)), e = exp(-fabs(t));
        double u = logz_stream_unif(st);
        /* u < sigmoid(t)  <=>  u (1 + e) < (t >= 0 ? 1 : e) */
        x[i] = u * (1.0 + e) < (t >= 0 ? 1.0 : e) ? hi : lo;
    }
}

/* x ~ independent units with P(x_i = hi) = sigmoid((hi - lo) a0_i). */
static void ising_draw_base(const ising_model *m, const double *a0, double *x, logz_stream *st)
{
    double d = m->hi - m->lo;
    for (int i = 0; i < m->n; i++) {
        double t = d * a0[i], e = exp(-fabs(t));
        double u = logz_stream_unif(st);
        x[i] = u * (1.0 + e) < (t >= 0 ? 1.0 : e) ? m->hi : m->lo;
    }
}

/* ising_draw_base() for chains 0..M-1 (X, n x M), with an interrupt check
 * after every ~2e6 spins: a large X is slow to touch for the first time. */
void ising_draw_base_all(const ising_model *m, const double *a0, double *X, logz_stream *st,
                         int M)
{
    const int every = (int) (2000000L / m->n) + 1;
    for (int c = 0; c < M; c++) {
        ising_draw_base(m, a0, X + (size_t) m->n * c, &st[c]);
        if ((c + 1) % every == 0) R_CheckUserInterrupt();
    }
}

/* Rows [r0, r0 + cnt) of out from buf (n x cnt, one state a column), in
 * tiles so that both sides are read and written in runs. */
static void gibbs_store(const gibbs_out *o, int n, long r0, const int *buf, int cnt)
{
    if (r0 + cnt > o->n_rows) cnt = (int) (o->n_rows - r0);
    for (int i0 = 0; i0 < n; i0 += 64)
        for (int k0 = 0; k0 < cnt; k0 += 64) {
            int i1 = i0 + 64 < n ? i0 + 64 : n, k1 = k0 + 64 < cnt ? k0 + 64 : cnt;
            for (int i = i0; i < i1; i++) {
                int *col = o->out + (size_t) o->n_rows * i + r0;
                for (int k = k0; k < k1; k++) col[k] = buf[i + (size_t) n * k];
            }
        }
}

/* M chains (states X, n x M) each run burn_in sweeps and then record n_per
 * states `sweeps` sweeps apart into o. The work is done in rounds of about
 * GIBBS_ROUND_WORK elementary updates a thread (about a hundredth of a
 * second), whole chains when a round holds at least one sweep of every
 * chain, else groups of chains one sweep at a time, so that the user can
 * interrupt between parallel regions. Each chain's states of a round are
 * gathered in a per-thread buffer of at most `per_round` states and then
 * stored in rows. */
#define GIBBS_ROUND_WORK 1048576.0
typedef struct {
    const ising_model *m;
    const int *order;
    int burn_in, sweeps;
    long per_round;
    double *X;
    int *buf;
    logz_stream *st;
    const gibbs_out *o;
} gibbs_run;

/* sweeps [start, end) of the chains [c0, c1) (one thread's slice of a round) */
static void ising_gibbs_round(void *ctx, long start, long end, int c0, int c1, int tid)
{
    const gibbs_run *g = (const gibbs_run *) ctx;
    const ising_model *m = g->m;
    int n = m->n, sweeps = g->sweeps;
    int *b = g->buf + (size_t) n * g->per_round * tid;
    for (int c = c0; c < c1; c++) {
        double *x = g->X + (size_t) n * c;
        long first = -1;
        int cnt = 0;
        for (long t = start; t < end; t++) {
            ising_sweep(m, g->order, m->f, 1.0, x, &g->st[c]);
            long after = t + 1 - g->burn_in;
            if (after > 0 && after % sweeps == 0) {
                if (first < 0) first = after / sweeps - 1;
                int *s = b + (size_t) n * cnt++;
                for (int i = 0; i < n; i++) s[i] = (int) x[i];
            }
        }
        long row = (long) c * g->o->n_per_total + g->o->offset + first;
        if (cnt > 0 && row < g->o->n_rows) gibbs_store(g->o, n, row, b, cnt);
    }
}

void ising_gibbs_run(const ising_model *m, const int *order, int M,
                     int burn_in, int sweeps, int n_per, double *X, logz_stream *st,
                     int nthreads, const gibbs_out *o)
{
    int n = m->n;
    double per = (double) n + 2.0 * m->ne;            /* work of one sweep of one chain */
    double chains_per_thread = ceil((double) M / nthreads);
    logz_rounds r = {.total = (long) burn_in + (long) n_per * sweeps, .n_items = M,
                     .nthreads = nthreads, .split = LOGZ_SPLIT_SLICES, .limit_blas = 0};
    logz_round_plan(per, chains_per_thread, r.total, GIBBS_ROUND_WORK, M, nthreads, nthreads,
                    &r.units, &r.items);
    /* at most per_round states of one chain in a round (the buffer's size) */
    gibbs_run g = {.m = m, .order = order, .burn_in = burn_in, .sweeps = sweeps, .X = X,
                   .st = st, .o = o};
    g.per_round = (long) (GIBBS_ROUND_WORK / n);
    if (g.per_round < 1) g.per_round = 1;
    if (g.per_round > 4096) g.per_round = 4096;
    if (r.units > g.per_round * sweeps) r.units = g.per_round * sweeps;
    if (r.units < 1) r.units = 1;
    g.buf = (int *) R_alloc((size_t) n * g.per_round * nthreads, sizeof(int));
    logz_rounds_run(&r, ising_gibbs_round, &g);
}

/* ---- AIS ---------------------------------------------------------------------- */

/* Steps betas[1..L] from betas[0] for M chains (X, n x M); a0 the base field.
 * A chain's work is the sequence, for k = 1..L, of the weight update of step k
 * and then `sweeps` sweeps at betas[k] (none after the last step when final);
 * the chains advance through it in rounds of about GIBBS_ROUND_WORK updates
 * a thread (a range of units for all chains, or one unit for a block of
 * chains when one unit over all chains is more), one parallel region a round, with an interrupt check between rounds
 * (also inside a long step). Each chain does the same work in the same order
 * in any case, so the result does not depend on the rounds or threads. Its
 * running log weight after step k goes to hist[k * M + c], from which trace
 * (L x 2: ESS and running log Z after each step) is computed serially.
 * Returns the number of sweeps made per chain. */
typedef struct {
    const ising_model *m;
    const int *order;
    const double *a0, *betas, *df;
    long per_step;
    int M;
    double *X, *logw, *hist;
    logz_stream *st;
} ising_ais_job;

/* units [t0, t1) of the chains [c0, c1) (one thread's slice of a round) */
static void ising_ais_round(void *ctx, long t0, long t1, int c0, int c1, int tid)
{
    (void) tid;
    const ising_ais_job *j = (const ising_ais_job *) ctx;
    const ising_model *m = j->m;
    for (int c = c0; c < c1; c++) {
        double *x = j->X + (size_t) m->n * c, lw = j->logw[c];
        for (long t = t0; t < t1; t++) {
            int k = (int) (t / j->per_step) + 1;
            if (t % j->per_step == 0) {
                lw += (j->betas[k] - j->betas[k - 1]) * ising_energy(m, j->df, x);
                j->hist[(size_t) (k - 1) * j->M + c] = lw;
            } else {
                ising_sweep(m, j->order, j->a0, j->betas[k], x, &j->st[c]);
            }
        }
        j->logw[c] = lw;
    }
}

int ising_ais_run(const ising_model *m, const int *order, const double *a0,
                  const double *betas, int L, int final, int sweeps, double log_z0,
                  int M, double *X, double *logw, logz_stream *st, int nthreads,
                  double *df, double *hist, double *trace)
{
    int n = m->n;
    for (int i = 0; i < n; i++) df[i] = m->f[i] - a0[i];
    ising_ais_job j = {.m = m, .order = order, .a0 = a0, .betas = betas, .df = df,
                       .per_step = 1 + (long) sweeps, .M = M, .X = X, .logw = logw,
                       .hist = hist, .st = st};
    logz_rounds r = {.total = (long) L * j.per_step - (final && L > 0 ? sweeps : 0),
                     .n_items = M, .nthreads = nthreads, .split = LOGZ_SPLIT_SLICES,
                     .limit_blas = 0};
    double per = (double) n + 2.0 * m->ne, chains_per_thread = ceil((double) M / nthreads);
    logz_round_plan(per, chains_per_thread, r.total, GIBBS_ROUND_WORK, M, nthreads, nthreads,
                    &r.units, &r.items);
    logz_rounds_run(&r, ising_ais_round, &j);
    logz_ais_trace(hist, L, M, log_z0, trace);
    return (final ? L - 1 : L) * sweeps;
}

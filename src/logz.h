/* logz: the one internal header. Every .Call routine and every engine shared
 * between files is declared here, so prototypes never drift (survival's
 * survproto.h). Engines take plain C types; *_call functions are SEXP glue. */
#ifndef LOGZ_H
#define LOGZ_H

#define USE_FC_LEN_T
#include <limits.h>
#include <stdint.h>
#include <R.h>
#include <Rinternals.h>
#include <R_ext/BLAS.h>
#ifndef FCONE
#define FCONE
#endif

/* ---- integer codes read by R and C -------------------------------------- */
/* Each enum here (and in mip.h) is mirrored by a named R integer vector:
 * AIS_KERNEL, RBM_LAYER, MARGINALS, PROP_FAMILY, INTERVAL_OP, ASTAR_MODEL,
 * ASTAR_SEARCH, OS_REFINE, GAUSS_BOUND, CONT_KERNEL, RTS_STAT, ARM_MODEL,
 * MIP_KIND, MIP_BRANCHING, MIP_SHARE, MIP_TRIANGLE. logz_codes_call() (contract.c) returns
 * them by name, and test-contract.R checks the R side against it. */
typedef enum {                 /* ais_rbm: how the products W'v and W h are formed */
    LOGZ_KERNEL_AUTO = 0,      /* per layer, sparse below control$crossover active units */
    LOGZ_KERNEL_DENSE = 1,     /* BLAS dgemm */
    LOGZ_KERNEL_SPARSE = 2     /* sums of the weight columns of the active units */
} logz_ais_kernel;
typedef enum {                 /* rbm_exact_log_z: the layer that is enumerated */
    LOGZ_LAYER_HIDDEN = 0,
    LOGZ_LAYER_VISIBLE = 1
} logz_rbm_layer;
typedef enum {                 /* ising_enumerate, jt_calibrate: marginals returned */
    LOGZ_MARGINALS_NONE = 0,   /* log Z only */
    LOGZ_MARGINALS_NODE = 1,   /* and P(x_i = hi) */
    LOGZ_MARGINALS_PAIR = 2    /* and P(x_i = hi, x_j = hi) for every edge */
} logz_marginals;
typedef enum {                 /* proposal families (logz_proposal$family) */
    LOGZ_PROP_UNIFORM = 1, LOGZ_PROP_NORMAL = 2, LOGZ_PROP_EXPONENTIAL = 3,
    LOGZ_PROP_CAUCHY = 4, LOGZ_PROP_STUDENT = 5
} logz_prop_family;
typedef enum {                 /* opcodes of an expression program (interval.c) */
    LOGZ_OP_CONST = 1, LOGZ_OP_VAR = 2, LOGZ_OP_COL = 3, LOGZ_OP_ADD = 4, LOGZ_OP_SUB = 5,
    LOGZ_OP_MUL = 6, LOGZ_OP_DIV = 7, LOGZ_OP_NEG = 8, LOGZ_OP_POWI = 9, LOGZ_OP_POWR = 10,
    LOGZ_OP_POW = 11, LOGZ_OP_EXP = 12, LOGZ_OP_LOG = 13, LOGZ_OP_SQRT = 14, LOGZ_OP_ABS = 15,
    LOGZ_OP_SIN = 16, LOGZ_OP_COS = 17, LOGZ_OP_TANH = 18, LOGZ_OP_SUM = 19
} logz_op;
typedef enum {                 /* A* target models (astar_target$model) */
    LOGZ_ASTAR_R = 0, LOGZ_ASTAR_PEAKY = 1, LOGZ_ASTAR_CLUTTER = 2, LOGZ_ASTAR_CAUCHY = 3,
    LOGZ_ASTAR_EXPR = 4, LOGZ_ASTAR_GAUSS_MEAN = 5
} logz_astar_model;
typedef enum {                 /* astar_sample: the search */
    LOGZ_SEARCH_ASTAR = 0,     /* A* sampling */
    LOGZ_SEARCH_DRILL_DOWN = 1 /* the queue-free drill down (d = 1) */
} logz_astar_search;
typedef enum {                 /* astar_baseline: how the proposal's bound is refined */
    LOGZ_REFINE_NONE = 0,      /* rejection sampling with the global bound */
    LOGZ_REFINE_SAMPLED_POINT = 1, /* OS*: split the region at the rejected point */
    LOGZ_REFINE_LARGEST_MASS = 2   /* OS*: split the region of largest bound mass */
} logz_os_refine;
typedef enum {                 /* region bounds of the built-in Gaussian-mean model */
    LOGZ_GAUSS_BOUND_CONSTANT = 0, LOGZ_GAUSS_BOUND_LINEAR = 1, LOGZ_GAUSS_BOUND_QUADRATIC = 2
} logz_gauss_bound;

/* ---- rng.c: per-chain L'Ecuyer-CMRG (MRG32k3a) streams ------------------ */
typedef struct {
    double s[6];    /* MRG32k3a state: integers below the moduli, held as doubles */
} logz_stream;

double logz_stream_unif(logz_stream *st);          /* U(0,1), as R's "L'Ecuyer-CMRG" */
double logz_stream_norm(logz_stream *st);          /* N(0, 1) by Box-Muller */
void logz_streams_fill(logz_stream *st, int nst, int n, double *out, int ld);
void logz_stream_next(const logz_stream *in, logz_stream *out); /* nextRNGStream */
/* Seed n streams from R's RNG (caller brackets with GetRNGstate/PutRNGstate). */
void logz_streams_seed(int n, logz_stream *out);
void logz_streams_to_double(int n, const logz_stream *st, double *out);
int logz_streams_from_double(int n, const double *in, logz_stream *st);
SEXP rng_streams_call(SEXP n);
SEXP rng_stream_unif_call(SEXP state, SEXP n);

/* ---- vexp.c: y[i] = exp(-|x[i]|), vectorised where libmvec is available -- */
void logz_exp_neg_abs(const double *x, double *y, int n);

/* ---- contract.c: the R/C boundary ------------------------------------------ */
/* What an R wrapper passes is re-checked here; a failure is an error
 * "internal error: ..." naming what was wrong (the wrappers are the only
 * callers, so it means a bug on the R side). */
void logz_internal_error(const char *fmt, ...);              /* error("internal error: ...") */
SEXP logz_get(SEXP list, const char *name);    /* element of a named list or R_NilValue */
SEXP logz_need(SEXP list, const char *name, SEXPTYPE type);  /* ... of this type, or an error */
SEXP logz_arg(SEXP x, const char *what, SEXPTYPE type, R_xlen_t len); /* len < 0: any length */
SEXP logz_need_len(SEXP list, const char *name, SEXPTYPE type, R_xlen_t len); /* both */
#define LOGZ_NO_MIN (-INT_MAX)
int logz_arg_int(SEXP x, const char *what, int min);         /* one integer, not NA, >= min */
double logz_arg_real(SEXP x, const char *what);              /* one number, not NA */
int logz_arg_code(int code, const char *what, int lo, int hi); /* an enum code in [lo, hi] */
void *logz_arg_ptr(SEXP x, const char *what);  /* the address of a live external pointer */
/* results: out = PROTECT(mkNamed(VECSXP, names)) filled by name, never by position */
SEXP logz_set(SEXP list, const char *name, SEXP value);
SEXP logz_codes_call(void);    /* the codes of the enums mirrored in R, by name */

/* ---- rounds.c: rounds of parallel blocks between interrupt checks -------- */
int logz_threads(int requested);     /* clamp to [1, omp max / OMP_THREAD_LIMIT] */
/* Rounds of about `work` a thread between interrupt checks. per: the work of
 * one unit (a sweep) of one block of chains; per_thread: blocks a thread owns
 * when all blocks run; total: units per chain. When a unit of every block
 * fits in a round: *units = whole units a round (at most total, at least 1)
 * and *blocks = n_blocks; else *units = 1 and *blocks = blocks a round,
 * floor(work / per) * nthreads clamped to [min_blocks, n_blocks]. */
void logz_round_plan(double per, double per_thread, long total, double work, int n_blocks,
                     int min_blocks, int nthreads, long *units, int *blocks);
typedef enum {
    LOGZ_SPLIT_SLICES = 0,  /* each thread: one call on its contiguous slice of the round's items */
    LOGZ_SPLIT_EACH = 1,    /* one call per item, items to the next free thread */
    LOGZ_SPLIT_MAIN = 2     /* one call per round on the main thread (it opens its own regions) */
} logz_split;
typedef struct {
    long total;        /* units every item goes through */
    long units;        /* units a round */
    int n_items;       /* items: chains, groups of chains, blocks */
    int items;         /* items a round */
    int nthreads;
    logz_split split;
    int limit_blas;    /* OpenBLAS on one thread inside each round */
} logz_rounds;
/* units [t0, t1) of items [i0, i1) on thread tid; no R API (but LOGZ_SPLIT_MAIN) */
typedef void (*logz_round_fn)(void *ctx, long t0, long t1, int i0, int i1, int tid);
/* every round in turn, R_CheckUserInterrupt() after each (main thread); memory
 * R_alloc'ed inside a round is released after it */
void logz_rounds_run(const logz_rounds *r, logz_round_fn fn, void *ctx);
typedef void (*logz_block_fn)(int blk, uint64_t from, uint64_t to, int tid, void *ctx);
/* `total` enumeration states in nblocks fixed blocks, 2 nthreads blocks a round */
void logz_for_blocks(uint64_t total, int nblocks, int nthreads, logz_block_fn fn, void *ctx);
int logz_enum_blocks(uint64_t total, double cost, int base, int cap);
/* Ask OpenBLAS (when it is R's BLAS) for n threads; returns the old count or -1. */
int blas_threads_limit(int n);
void blas_threads_restore(int old);

/* ---- util.c (numerical helpers) and util_call.c (glue helpers) ----------- */
double logz_softplus(double x);      /* log(1 + exp(x)), stable */
double logz_log_add_exp(double a, double b);   /* log(exp(a) + exp(b)), stable */
double logz_log_sum_exp(const double *x, int n);
/* column j of V (nrow x ncol) = column j / copies of V0, in interruptible slices */
void logz_fill_columns(double *V, const double *V0, int nrow, int ncol, int copies);
typedef struct {
    int M, L, nthreads, sweeps, final;
    double log_z0;
    SEXP x0;               /* chain states at entry (rows x M), or R_NilValue */
    const double *log_w;   /* log weights at entry (M) */
    logz_stream *st;       /* the chains' streams, decoded */
} logz_chunk;
void logz_chunk_unpack(SEXP state, SEXP betas, SEXP control, const char *xname, int rows,
                       logz_chunk *c);
/* the result list of a chunk (chain states, log_w, streams, trace, ...) and
 * its streams at the end */
SEXP logz_chunk_result(const logz_chunk *c, const char **names, int rows);
void logz_chunk_streams(SEXP out, const logz_chunk *c);
double logz_merge_blocks(const double *bmax, const double *bsum, int nblocks, double *weight);
/* For long loops written in R: R_CheckUserInterrupt() */
SEXP check_interrupt_call(void);
/* progress from a C loop: the R function control$tick (or NULL) and its period
 * control$tick_every; logz_tick() calls tick(done) after every `every`-th unit
 * and the last, with R's RNG state saved around the call */
int logz_tick_every(SEXP control);
void logz_tick(SEXP control, int every, int done, int total);
/* progress for an engine: tick(ctx, done, total) after each unit, or nothing */
typedef struct {
    void (*tick)(void *ctx, int done, int total);
    void *ctx;
} logz_progress;
static inline void logz_progress_tick(const logz_progress *p, int done, int total)
{
    if (p && p->tick) p->tick(p->ctx, done, total);
}
typedef struct {
    SEXP control;
    int every;
} logz_tick_ctx;
void logz_progress_init(logz_progress *p, logz_tick_ctx *c, SEXP control); /* control$tick */
void logz_ais_trace(const double *LW, int L, int M, double log_z0, double *trace);

/* ---- rbm.c: exact log Z by enumeration ---------------------------------- */
/* Enumerate the `ne` units of one layer (biases be, size ne) against the other
 * layer (biases bo, size no); Wt is no x ne column-major (the coupling with
 * the enumerated layer in columns). Returns log Z. */
double rbm_exact_log_z(int ne, int no, const double *Wt, const double *be,
                       const double *bo, int nthreads);
SEXP rbm_exact_log_z_call(SEXP W, SEXP a, SEXP b, SEXP layer, SEXP threads);

/* ---- rbm_train.c: CD-k / PCD (glue: rbm_train_call.c) -------------------- */
/* Sizes and step settings of one training epoch. */
typedef struct {
    int nv, nh, N;      /* visible units, hidden units, training examples */
    int pcd, k;         /* persistent chains (else CD), Gibbs steps per update */
    int B, C;           /* batch size, negative chains (C = B for CD) */
    double lr, lr_step; /* learning rate at the first update, its fall per update */
    double momentum, weight_decay;
} rbm_train_opts;
/* one epoch over data (nv x N) in the order perm, parameters updated in place;
 * returns the mean squared reconstruction error (R's RNG) */
double rbm_train_epoch(const rbm_train_opts *o, const double *data, const int *perm, double *W,
                       double *a, double *b, double *dW, double *da, double *db, double *P,
                       int fresh_chains);
SEXP rbm_train_epoch_call(SEXP data_t, SEXP params, SEXP state, SEXP control);



/* ---- rbm_gibbs.c: block-Gibbs pieces shared by ais.c and raise.c --------- */
typedef struct {
    int nv, nh, M;
    const double *Wx;   /* nv x (nh + 2): [W, a, a0] */
    const double *a, *b, *a0;
} logz_rbm_path;
void logz_rbm_gemm_x(const logz_rbm_path *m, const double *V, double *X, int c0, int c1);
void logz_rbm_gemm_y(const logz_rbm_path *m, const double *H, double *Y, int c0, int c1);
int logz_bernoulli_logit(const double *t, const double *e, const double *u, double *s, int n);
/* sum_j softplus(t1_j) - softplus(t0_j) given e = exp(-|t|), n <= 512 */
double logz_softplus_diff(const double *t1, const double *t0, const double *e1, const double *e0,
                          int n);
void logz_rbm_fill_wx(int nv, int nh, const double *W, const double *a, const double *a0,
                      double *Wx);                           /* Wx = [W a a0] */
void logz_rbm_path_from_list(SEXP model, int M, logz_rbm_path *m); /* list(W, a, b, a0) */

/* ---- ais.c: annealed importance sampling for RBMs (glue: ais_call.c) ---- */
typedef struct {                      /* one chunk of AIS steps */
    int L, final, sweeps, nthreads;   /* steps, no transition after the last, sweeps per step */
    logz_ais_kernel kernel;
    double crossover;                 /* LOGZ_KERNEL_AUTO: sparse below this fraction of ones */
    double log_z0;
    double *blocked_x, *blocked_y;    /* blocked copies of ais_rbm_prepare_call(), or NULL */
} ais_rbm_opts;
/* steps betas[1..L] for the chains V (nv x M), log weights logw; density (2):
 * active fractions in and out; trace (L x 2); mom (L x 3) or NULL. Returns the
 * sweeps made per chain. */
int ais_rbm_chunk(const logz_rbm_path *m, const ais_rbm_opts *o, const double *betas, double *V,
                  double *logw, logz_stream *st, double *density, double *trace, double *mom);
/* v ~ the base (Bernoulli(sigmoid(a0))) for each chain, from its stream */
void ais_draw_base(int nv, int M, const double *a0, double *V, logz_stream *st);
SEXP ais_rbm_call(SEXP model, SEXP betas, SEXP state, SEXP control);
SEXP ais_rbm_prepare_call(SEXP model);

/* ---- raise.c: reverse AIS (RAISE) from data points (glue: raise_call.c) --- */
/* the descending steps betas[0..L] for the chains V (nv x M) from data points,
 * log weights logw updated in place; BLAS on one thread when limit_blas */
void raise_rbm_run(const logz_rbm_path *m, const double *betas, int L, int sweeps, double *V,
                   double *logw, logz_stream *st, int nthreads, int limit_blas);
SEXP raise_rbm_call(SEXP model, SEXP betas, SEXP state, SEXP control);

/* ---- binary_kernels.c: products of weights with sparse 0/1 states -------- */
/* Weights reorganised in row blocks of LOGZ_BLK so that the rows of one block
 * stay in cache while all of a thread's chains use them. */
#define LOGZ_BLK 32
typedef struct {
    int rows, cols, nblk;  /* the product is out[rows] = sum_{active k} M[:, k] */
    double *blk;           /* nblk x cols x LOGZ_BLK, zero-padded */
    int isa;               /* the instruction set of its products (a logz_isa, kernels.h) */
} logz_blocked;
size_t logz_blocked_size(int rows, int cols);
/* Point B at `store` (logz_blocked_size(rows, cols) doubles); if fill, copy M
 * into it (else `store` already holds the blocked copy). */
void logz_blocked_init(logz_blocked *B, const double *M, int rows, int cols, int ld_rows_first,
                       double *store, int fill);
/* For one block of rows: out = (or +=) sum of the columns in plus - those in minus */
void logz_blocked_accumulate(const logz_blocked *B, int blk, const int *plus, int np,
                             const int *minus, int nm, double *out, int overwrite);
/* out[:, c0:c1) = B S[:, c0:c1) for 0/1 states S, from scratch or updated
 * from the flips in plus/minus rows (see binary_kernels.c) */
void logz_binary_product(const logz_blocked *B, const double *S, double *out, int c0, int c1,
                         int *plus, int *minus, int ld, int *np, int *nm, const int *on,
                         int have_prev, int *full);
SEXP binary_product_call(SEXP W, SEXP S, SEXP reps);  /* W S for 0/1 S, all columns from scratch */
SEXP kernel_isa_call(void);   /* kernels_dispatch.c: the instruction set in use */

/* ---- ising.c: pairwise binary MRFs (enumeration, Gibbs, AIS) ------------- */
typedef struct {
    int n, ne;               /* variables, edges */
    const int *from, *to;    /* 0-based edge ends (ne) */
    const double *w, *f;     /* edge weights (ne), fields (n) */
    double lo, hi;           /* spin values: -1/+1 or 0/1 */
    int *ptr, *nbr;          /* CSR adjacency: neighbours of i at nbr[ptr[i]..ptr[i+1]) */
    double *nw;              /* the matching weights */
} ising_model;

/* Fill m (CSR arrays by R_alloc; the other arrays are borrowed). */
void ising_model_init(ising_model *m, int n, int ne, const int *from, const int *to,
                      const double *w, const double *f, double lo, double hi);
/* From list(n, from, to, weight, field, lo, hi) with 0-based ends (checked). */
void ising_model_from_list(SEXP model, ising_model *m);
double ising_energy(const ising_model *m, const double *c, const double *x); /* w-terms + c'x */
/* log Z by enumeration; marg (n) gets P(x_i = hi) and pair (ne) P(both ends hi) if non-NULL. */
double ising_enumerate(const ising_model *m, int nthreads, double *marg, double *pair);
/* One Gibbs sweep in `order` at beta on the path from the base field a0. */
void ising_sweep(const ising_model *m, const int *order, const double *a0, double beta,
                 double *x, logz_stream *st);
/* Where the recorded states go: out is an n_rows x n integer matrix (one
 * state a row); chain c's k-th state (counting from `offset`) is row
 * c * n_per_total + offset + k, kept only while that row is < n_rows. */
typedef struct {
    int *out;
    long n_rows, n_per_total, offset;
} gibbs_out;
/* a draw from the base (field a0) for chains 0..M-1 (X, n x M) */
void ising_draw_base_all(const ising_model *m, const double *a0, double *X, logz_stream *st,
                         int M);
/* M chains: burn_in sweeps, then n_per states `sweeps` sweeps apart into o */
void ising_gibbs_run(const ising_model *m, const int *order, int M, int burn_in, int sweeps,
                     int n_per, double *X, logz_stream *st, int nthreads, const gibbs_out *o);
/* AIS steps betas[1..L] (X n x M, logw M; df n and hist L x M work space,
 * trace L x 2); returns the sweeps made per chain */
int ising_ais_run(const ising_model *m, const int *order, const double *a0, const double *betas,
                  int L, int final, int sweeps, double log_z0, int M, double *X, double *logw,
                  logz_stream *st, int nthreads, double *df, double *hist, double *trace);
/* ising_call.c: the glue.
 * list(log_z, node, pair) as `marginals` asks; *marg, *pair its arrays or NULL */
SEXP ising_exact_result(const ising_model *m, SEXP marginals, double **marg, double **pair);
SEXP ising_enumerate_call(SEXP model, SEXP marginals, SEXP threads);
SEXP ising_gibbs_call(SEXP model, SEXP state, SEXP control);
SEXP ising_ais_call(SEXP model, SEXP betas, SEXP state, SEXP control);

/* ---- junction_tree.c: variable elimination / junction tree -------------- */
int jt_min_fill(int n, int ne, const int *from, const int *to, int cap, int *order, int *csize);
int jt_sizes(int n, int ne, const int *from, const int *to, const int *order, int cap,
             int *csize);
double jt_calibrate(const ising_model *m, const int *order, double *marg, double *pair);
SEXP jt_order_call(SEXP n, SEXP from, SEXP to, SEXP given, SEXP cap);
SEXP jt_calibrate_call(SEXP model, SEXP marginals);

/* ---- gumbel.c: Gumbel and truncated Gumbel draws (R's RNG) --------------- */
double logz_rgumbel1(double location);                 /* Gumbel(location) */
double logz_rtruncgumbel1(double location, double bound); /* at most bound */
SEXP gumbel_rand_call(SEXP n, SEXP location, SEXP bound);

/* ---- proposal.c: products of univariate distributions over boxes -------- */
typedef struct {
    int d;
    const int *family;   /* LOGZ_PROP_* per dimension */
    const double *par;   /* 3 x d, column j: the parameters of dimension j */
} logz_proposal;
void proposal_from_list(SEXP prop, logz_proposal *p);
void proposal_support(const logz_proposal *p, double *lo, double *hi);
double proposal_log_density(const logz_proposal *p, const double *x);
double proposal_log_mass(const logz_proposal *p, const double *lo, const double *hi);
/* u-quantile of dimension j restricted to [lo, hi] (truncated inversion) */
double proposal_quantile1(const logz_proposal *p, int j, double lo, double hi, double u);
void proposal_draw(const logz_proposal *p, const double *lo, const double *hi, double *x);
SEXP proposal_log_mass_call(SEXP prop, SEXP lower, SEXP upper);
SEXP proposal_draw_call(SEXP prop, SEXP n, SEXP lower, SEXP upper);
SEXP proposal_log_density_call(SEXP prop, SEXP x);

/* proposal.c: d/dx log density of dimension j at x (0 inside a uniform's box) */
double proposal_grad_log_density1(const logz_proposal *p, int j, double x);

/* ---- cont_kernel.c: kernels on the tempered path to an R log density ------ */
enum { LOGZ_KERNEL_RWM = 1, LOGZ_KERNEL_MALA = 2, LOGZ_KERNEL_HMC = 3 };
typedef struct {
    /* log f (and, when grad != NULL, its gradient, M x d) at the M rows of X;
     * with `trial` set (points of a trajectory) a non-finite gradient marks
     * the point as a divergence (log f = -Inf) instead of an error */
    void (*eval)(void *ctx, const double *X, int M, double *lf, double *grad, int trial);
    void *ctx;
} cont_target;
typedef struct {
    int M, d;
    double *X, *lf, *lb;   /* states (M x d), log f and log p0 there */
    double *gf, *gb;       /* their gradients (M x d; gradient kernels only) */
} cont_chains;
typedef struct {
    int kind, n_leapfrog;  /* LOGZ_KERNEL_*; leapfrog steps of HMC */
    const double *step;    /* M, per chain: RWM multiplier of scale; MALA/HMC leapfrog step */
    const double *scale;   /* d: RWM step sd at step 1; MALA/HMC: 1 / sqrt(mass) */
    int scale_per_chain;   /* 1: scale is M x d (column-major), one row per chain */
} cont_kernel;
typedef struct {
    double *Xp, *lfp, *lbp, *gfp, *gbp, *P, *row, *H0;
    int *alive;
} cont_work;
typedef struct {
    double mu, h_bar, log_step;
    int t;
} cont_dual;
double cont_path_log_density(double beta, double lf, double lb);
/* cont_target.c: an R log density as a cont_target, and one kernel sweep from R */
typedef struct {
    SEXP fn, Xs, flag;     /* the R wrapper, its argument (M x d), its gradient code */
    int M, d;
    double evals, grad_evals;
} cont_r_target;
int cont_r_target_init(cont_r_target *ctx, cont_target *t, SEXP fn, int M, int d);
void cont_base_eval(const logz_proposal *p, const double *X, int M, double *row, double *lb,
                    double *gb);
void cont_work_alloc(cont_work *w, int M, int d, int gradient);
/* one transition of every chain c at beta[c]; accept[c] (M): 0/1 accepted for
 * RWM, the acceptance probability for MALA/HMC; returns their mean */
double cont_kernel_sweep(const cont_kernel *k, const double *beta, cont_chains *ch,
                         const cont_target *t, const logz_proposal *p, logz_stream *st,
                         cont_work *w, double *accept);
int cont_kernel_evals(const cont_kernel *k);
/* `sweeps` sweeps (after the gradients at entry when fresh); accept: mean a chain */
int cont_kernel_sweeps(const cont_kernel *k, const double *beta, int sweeps, int fresh,
                       cont_chains *ch, const cont_target *t, const logz_proposal *p,
                       logz_stream *st, double *accept);
void cont_dual_init(cont_dual *a, double log_step);
void cont_dual_update(cont_dual *a, double accept, double target);

/* ---- ais_function.c: AIS on a continuous target (glue: ais_function_call.c) */
typedef struct {
    int M, K, sweeps, kind, n_leapfrog;   /* chains, steps, sweeps a step, LOGZ_KERNEL_* */
    int adapt;                   /* adapt the step towards target_accept (and MALA/HMC scales) */
    double target_accept, gain;  /* gain: the Robbins-Monro gain of RWM */
    const double *log_scale;     /* K: the log step a step (element 1 the start when adapting) */
    const double *tmpl;          /* d: the position scale at log step 0 */
    const double *scales;        /* K x d: the position scales a step (when not adapting) */
} ais_function_opts;
typedef struct {                 /* filled by ais_function_run() */
    double *log_w;               /* M */
    double *trace;               /* K x 2: ESS and running log Z */
    double *log_scale, *accept;  /* K each */
    double *x;                   /* M x d: the final states */
    double *scales;              /* K x d */
} ais_function_out;
int ais_function_run(const ais_function_opts *o, const logz_proposal *p, const double *betas,
                     const cont_target *t, logz_stream *st, ais_function_out *out);
SEXP ais_function_call(SEXP fn, SEXP base, SEXP betas, SEXP control);
/* cont_kernel_call.c: kernel sweeps of chains at their own betas, from R */
SEXP cont_sweep_call(SEXP fn, SEXP base, SEXP state, SEXP control);

/* ---- astar*.c: A* sampling, drill-down, OS* and rejection (astar.h) ------ */
SEXP astar_sample_call(SEXP target, SEXP n, SEXP control);
SEXP astar_baseline_call(SEXP target, SEXP n, SEXP control);
SEXP astar_log_lik_call(SEXP target, SEXP x);
SEXP astar_bound_call(SEXP target, SEXP lower, SEXP upper);

/* ---- interval.c: expressions at points and over boxes ------------------- */
typedef struct {
    int n, nk, d, nrow, ncol;
    const int *op, *arg;   /* postfix program */
    const double *k;       /* constants */
    const double *data;    /* nrow x ncol data columns for sums over rows */
} logz_program;
void program_from_list(SEXP prog, logz_program *p);
/* stack, L, H: work space of n + 1 doubles each */
double program_point(const logz_program *p, const double *x, double *stack);
void program_box(const logz_program *p, const double *lo, const double *hi, double *L,
                 double *H, double *out_lo, double *out_hi);
SEXP interval_eval_call(SEXP prog, SEXP lower, SEXP upper);

/* ---- mip*.c: GumbelMIP (perturbed branch and bound; types in mip.h) ------ */
SEXP mip_sample_call(SEXP model, SEXP lp, SEXP streams, SEXP control);
SEXP mip_lp_bounds_call(SEXP model, SEXP lp, SEXP fix);
SEXP mip_cut_bounds_call(SEXP model, SEXP fix);
SEXP mip_roof_bounds_call(SEXP model, SEXP fix);
SEXP mip_tree_call(SEXP tree, SEXP fix, SEXP streams);
SEXP mip_glpk_version_call(void);
SEXP mip_has_glpk_call(void);

/* ---- rts.c: Rao-Blackwellized tempered sampling (RBM, Ising) -------------- */
/* The statistics accumulated per temperature and chain: the middle index of the
 * K x RTS_NSTAT x M array `acc` of a run, named in R by RTS_STAT (R/rts_engine.R). */
enum logz_rts_stat {
    RTS_SUM_Q = 0,    /* sum_i q(k | x_i)                      (c_hat_k, Eq. 9) */
    RTS_SUM_Q_D,      /* sum_i q(k | x_i) D_k(x_i)             (TI-RB, Eq. 21) */
    RTS_N,            /* #{i : k_i = k}                        (TS counts, TI bins) */
    RTS_SUM_D,        /* sum_{i: k_i = k} D_k(x_i)             (TI) */
    RTS_SUM_D_SQ,     /* sum_{i: k_i = k} D_k(x_i)^2           (TI, Friel) */
    RTS_SUM_D2,       /* sum_{i: k_i = k} D2_k(x_i)            (TI, Friel) */
    RTS_NSTAT
};
typedef struct {                 /* one call: settings, and the output arrays */
    int K, M, sweeps, thin, offset, nstore, moments;
    double step;                 /* beta spacing if even, else 0 */
    const double *betas, *lrz;   /* lrz_k = log r_k - log Z_hat_k */
    double *acc;                 /* K x RTS_NSTAT per chain */
    int *kk;                     /* current k per chain (0-based) */
    double *store;               /* K x (nstore * M) or NULL */
    int *store_k;                /* nstore * M */
} rts_run;
/* all chains through r->sweeps sweeps (RBM: V nv x M; Ising: X n x M spins) */
void rts_rbm_run(const logz_rbm_path *m, const logz_blocked *BX, const logz_blocked *BY,
                 rts_run *r, double *V, logz_stream *st, int nthreads);
void rts_ising_run(const ising_model *m, const int *order, const double *a0, rts_run *r,
                   double *X, logz_stream *st, int nthreads);
/* log f_k(v) (lk), and with moments D_k, D2_k, for all K rungs of one chain from
 * x = [W a a0]'v (nh + 2); E: K x nh scratch, z: the hidden logits b + W'v on
 * exit, az: nh scratch; step > 0: betas evenly spaced from 0 by step */
void rbm_ladder(const logz_rbm_path *m, const double *betas, int K, double step,
                const double *x, double *E, double *z, double *az, int moments,
                double *lk, double *D, double *D2);
/* rts_call.c: a call's settings from betas and control (list(threads, sweeps,
 * thin, offset, step, moments, lrz)), checked against state$k; the chains'
 * streams from state$streams; the result list(X, k, streams, acc, store,
 * store_k) with r's output pointers set into it */
rts_run rts_unpack(SEXP betas, SEXP state, SEXP control, int *nthreads, logz_stream **st);
SEXP rts_result_new(SEXP state, int nx, rts_run *r);
SEXP rts_rbm_call(SEXP model, SEXP betas, SEXP state, SEXP control);   /* rts_call.c */

/* ---- rbm_tempered.c: RBM training's negative phase on persistent simulated-
 * tempering chains (glue: rbm_tempered_call.c) ------------------------------- */
void rbm_tempered_run(const logz_rbm_path *m, rts_run *r, double *V, logz_stream *st,
                      int nthreads, double *wq, double *H, double *Gw, double *ga,
                      double *gb);
SEXP rbm_tempered_call(SEXP model, SEXP betas, SEXP state, SEXP control);
SEXP rts_ising_call(SEXP model, SEXP betas, SEXP state, SEXP control);

/* ---- gpc.c / arm.c: GP classification and Adaptive Resample-Move (arm) --- */
double gpc_log_lik(const double *y, const double *f, int n);   /* sum log Phi(y f) */
typedef struct {
    int n, M, L, sweeps, final, nthreads;  /* points, chains, steps, sweeps a step */
    double log_z0;
    const double *A, *y, *betas;   /* A A' = K (n x n), labels in {-1, +1}, L + 1 betas */
} gpc_ais_opts;
int gpc_ais_run(const gpc_ais_opts *o, int first, double *F, double *log_w, logz_stream *st,
                double *trace, int *sweeps_made, double *evals);
SEXP gpc_ais_call(SEXP model, SEXP betas, SEXP state, SEXP control);   /* gpc_call.c */
/* The sequences of an ARM particle store, named in R by ARM_MODEL (R/arm_engine.R). */
enum logz_arm_model { ARM_GPC = 1, ARM_ISING = 2, ARM_RBM = 3 };
/* arm.c: the particle store (glue: arm_call.c); slots are 0-based */
typedef struct {
    int type;           /* enum logz_arm_model */
    int N, n, cap, H;
    double *X;          /* N x cap particles */
    double *G;          /* RBM: H x cap, g = b + W_[n]' x_[n] */
    logz_stream *st;    /* cap streams */
    /* RBM */
    double *W, *a, *b;  /* W: N x H (rows in added order) */
    /* GPC */
    double *Sig, *S, *y, *c, var;   /* Sig, S: N x N; c: N */
    int prepared;
    /* Ising */
    int *ptr, *nbr;
    double *nw, *f, lo, hi;
} arm_state;
void arm_free(arm_state *s);
void arm_reserve(arm_state *s, int cap);   /* new slots get streams from R's RNG */
void arm_move(arm_state *s, int c0, int c1, int steps, int nthreads);
void arm_smooth(arm_state *s, int c0, int c1, double *lw);    /* lw: log W(x_[n]) a slot */
/* slots dst0 + j <- slots src[j] (tx, tg: work space of k N and k H doubles) */
void arm_copy(arm_state *s, const int *src, int k, int dst0, double *tx, double *tg);
void arm_augment(arm_state *s, int R);                         /* x_{n+1} for slots [0, R) */
void arm_particles(const arm_state *s, int c0, int c1, double *out);   /* n x (c1 - c0) */
void arm_set(arm_state *s, const double *x, int k, int c0);    /* slots c0.. <- x (n x k) */

SEXP arm_new_call(SEXP type, SEXP model, SEXP cap);
SEXP arm_reserve_call(SEXP p, SEXP cap);
SEXP arm_move_call(SEXP p, SEXP c0, SEXP c1, SEXP steps, SEXP threads);
SEXP arm_smooth_call(SEXP p, SEXP c0, SEXP c1);
SEXP arm_copy_call(SEXP p, SEXP src, SEXP dst0);
SEXP arm_augment_call(SEXP p, SEXP R);
SEXP arm_particles_call(SEXP p, SEXP c0, SEXP c1);
SEXP arm_set_call(SEXP p, SEXP x, SEXP c0);

#endif

/* GumbelMIP internals shared by src/mip*.c (the .Call entry points are
 * declared in logz.h). See the comment at the top of mip_search.c for the
 * model and the search.
 *
 * Layers, bottom to top; a file calls only files below it (checked by
 * tools/check-call-cycles.R), and no file holds global state:
 *   mip_work.c    memory of one search (mip_work_new/_free), the clock,
 *                 polling for interrupts and time limits, mip_sleep()
 *   mip_key.c     node keys and the random stream of each node
 *   mip_shared.c  the state threads share while searching one sample: lock
 *   mip_value.c   v(x), the canonical form of pairwise tables and the simple
 *                 per-factor bound
 *   mip_cut.c     the exact LP bound of attractive pairwise models (min cut)
 *   mip_cycle.c   triangle (cycle) inequalities separated on an LP solution
 *   mip_tri.c     a bound tightened by the graph's triangles (dual
 *                 decomposition, no LP solver)
 *   mip_roof.c    the LP bound of any binary pairwise model by roof duality
 *                 (a min cut of mip_cut.c on two nodes per variable), and
 *                 its minimum with mip_tri.c's bound
 *   mip_tree.c    the tree-structured proposal (log q of a region, draws)
 *   mip_glpk.c    the LP bound by GNU GLPK (the only file using GLPK)
 *   mip_branch.c  ICM (the dive's target) and forced branching on an
 *                 integral LP solution
 *   mip_topk.c    the k best perturbed configurations of a search (Theorem 1)
 *                 and Proposition 1's rank bound over the open nodes
 *   mip_search.c  one sample's perturbed branch and bound (Algorithm 1),
 *                 with the join/release of threads sharing it
 *   mip_batch.c   a batch of samples over threads (sample_job, run_samples),
 *                 and each thread's GLPK error trap (setjmp on the thread
 *                 that runs GLPK: no longjmp crosses threads)
 *   mip.c         .Call glue: reading the R lists, the GLPK error trap of
 *                 calls outside a batch (setjmp), error(), building the results
 * Everything below mip.c works on plain C types and reports failures by
 * status codes; only mip.c raises R errors. */
#ifndef LOGZ_MIP_H
#define LOGZ_MIP_H

#include <setjmp.h>
#include "logz.h"

#define MIP_LOG2 0.69314718055994530942

/* ---- codes read by R and C (R/codes.R mirrors them) ------------------------ */
typedef enum { MIP_KIND_PAIRWISE = 0, MIP_KIND_LINEAR = 1 } mip_kind;
typedef enum {
    MIP_BRANCH_AUTO = 0,             /* most fractional, else forced branching */
    MIP_BRANCH_MOST_FRACTIONAL = 1,  /* most fractional, else the static order */
    MIP_BRANCH_FIRST = 2             /* the first free variable in the static order */
} mip_branching;
typedef enum {
    MIP_SHARE_NONE = 0,              /* each thread searches its own samples */
    MIP_SHARE_IDLE = 1,              /* idle threads join running searches */
    MIP_SHARE_FORCED = 2             /* every thread joins each sample in turn (tests) */
} mip_share;
typedef enum {
    MIP_TRI_OFF = 0,                 /* roof duality alone */
    MIP_TRI_ON = 1                   /* roof duality and the triangle bound (mip_tri.c) */
} mip_triangle;
#define MIP_TRI_SWEEPS 8             /* sweeps of the triangle bound per node at most */
#define MIP_TRI_MAX 2e6              /* more of the model's own triangles: roof duality alone */

/* ---- bits of a node's state byte for one variable ---------------------------- */
#define MIP_SIGMA 1                  /* the variable's value in the node's sigma */
#define MIP_FIXED 2                  /* fixed in the node (its value: MIP_SIGMA) */
#define MIP_TAU   4                  /* the kept integral LP solution's value */
#define MIP_SIGMA_FIXED (MIP_SIGMA | MIP_FIXED)

/* ---- status codes ------------------------------------------------------------ */
enum { MIP_OK = 0, MIP_OUT_OF_MEMORY = 1, MIP_INTERRUPTED = 2,       /* a search, a batch */
       MIP_LP_ERROR = 3 };                                               /* a batch: GLPK failed */
enum { MIP_POLL_GO = 0, MIP_POLL_TIME_LIMIT = 1, MIP_POLL_INTERRUPT = 2 };   /* mip_poll() */
enum {                                                                   /* mip_lp_solve() */
    MIP_LP_OPTIMAL = 1, MIP_LP_INFEASIBLE = 0, MIP_LP_FAILED = -1,
    MIP_LP_INTERRUPTED = -2, MIP_LP_TIME_LIMIT = -3
};

typedef struct {
    int n;
    mip_kind kind;
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

/* All memory of one search (one per thread). */
typedef struct mip_work_s {
    void *lp;                 /* glp_prob * (mip_glpk.c), NULL without GLPK */
    unsigned char *state;     /* node slots: n state bytes each (MIP_SIGMA, ...) */
    double *key, *gam;        /* per slot: upper bound when created, Gumbel value */
    uint64_t *nkey;           /* per slot: the node's key (mip_key.c), seeds its draws */
    unsigned char *sbuf;      /* a thread's copy of the node it bounds (n bytes) */
    struct mip_work_s *stage; /* a thread's staging pool: the split outside the lock
                               * (mip_search.c); its cur holds the new child's sigma */
    int *nfix, *heap, *freel;
    int *flag;                /* per slot, 1: LP known (= key - gamma), tau in MIP_TAU */
    int cap, nheap, nfree, nused;
    double *rowact;           /* linear models: row activities */
    int *cur;                 /* current LP column status: -1 free, 0/1 fixed */
    double *tau;
    unsigned char *dive;      /* the dive's target configuration (n bytes) */
    double *flip;             /* branching scratch: single-flip losses (n) */
    double *tq;               /* tree proposal scratch (2 n, allocated on first use) */
    void *lpbuf[2];           /* GLPK's scratch (mip_glpk.c: cut loop, row lists), grown by
                               * mip_work_buffer() and freed with W, so a GLPK error's
                               * longjmp out of the cut loop leaks nothing */
    size_t lpcap[2];
    /* polling (mip_poll): interrupts only on R's main thread, through
     * R_ToplevelExec; stop is shared by the threads of one call */
    int interrupts;
    volatile int *stop;
    double next_poll, deadline;
} mip_work;

/* ---- mip_work.c ---------------------------------------------------------------- */
mip_work *mip_work_new(int n);
int mip_work_stage(mip_work *W, const mip_value_model *M);
int mip_work_search(mip_work *W, const mip_value_model *M);
void mip_work_free(mip_work *W);
int mip_work_more_slots(mip_work *W, int n);
void *mip_work_buffer(mip_work *W, int which, size_t bytes);
double mip_now(void);
int mip_poll(mip_work *W);   /* MIP_POLL_GO, MIP_POLL_TIME_LIMIT or MIP_POLL_INTERRUPT */
void mip_sleep(double seconds);
void mip_fix_state(const int *fix, int n, unsigned char *st);

/* ---- mip_key.c ----------------------------------------------------------------- */
uint64_t mip_key_child(uint64_t key, int x, int side);
uint64_t mip_key_root(logz_stream *rs);
void mip_node_stream(uint64_t key, logz_stream *s);

/* ---- mip_value.c --------------------------------------------------------------- */
double mip_value(const mip_value_model *M, const unsigned char *st, double *rowact);
double mip_simple_bound(const mip_value_model *M, const unsigned char *st);
double mip_canonical(const mip_value_model *M, double *a, double *b);

/* ---- mip_cut.c ----------------------------------------------------------------- */
typedef struct {
    int V, A, src, snk;
    int *head, *nxt, *to;       /* arc lists (arcs 2k, 2k+1 are mutual reverses) */
    double *cap;                /* residual capacities */
    int *level, *it, *queue;
    double *u;                  /* unaries */
    int n, m;
    const int *ef, *et;         /* edge list (shared, read-only) */
    const double *eb;           /* edge weights b_e >= 0 */
    double *w, *src_cap;        /* per-solve scratch (n each) */
} mip_cut;

void mip_cut_build(mip_cut *G, int n, int m, const int *from, const int *to,
                   const double *a, const double *b);
mip_cut *mip_cut_from_model(const mip_value_model *M, double *c0_out);
double mip_cut_solve(mip_cut *G, const unsigned char *st, double c0, double *tau);
mip_cut *mip_cut_clone(const mip_cut *G);
void mip_cut_bounds(mip_cut *G, double c0, int n, const int *fix, int J, double *out);

/* ---- mip_cycle.c --------------------------------------------------------------- */
typedef struct {
    int n;
    int *start, *nb, *col;      /* per variable: neighbours above it (sorted), their y columns */
} mip_cycle;

mip_cycle *mip_cycle_new(const mip_value_model *M);
int mip_cycle_separate(const mip_cycle *Y, const double *x, double tol, int maxcuts,
                       int *nz, int *cols, double *coef, double *rhs);

/* ---- mip_tri.c ----------------------------------------------------------------- */
typedef struct {
    int n, m, ne, nt;           /* variables, couplings; edges: n fields (0, i + 1), then
                                 * the m couplings; triangles: m (0, i, j), then the graph's */
    int sweeps;                 /* at most this many sweeps per node */
    int *eu, *ev;               /* edge endpoints (0 the constant spin, i + 1 variable i) */
    double *J, k0;              /* spin couplings, constant */
    int *te, *tv;               /* 3 edges (slots v0 v1, v0 v2, v1 v2) and 3 vertices per triangle */
    int *estart, *elist;        /* per edge: its entries 3 t + slot */
    double *a0;                 /* the root decomposition (3 per triangle, read-only) */
    double *a, *r, *Jn, *tstar; /* per-thread scratch */
    unsigned char *act_e, *act_t;
    signed char *sg;
    int nce, nct, *ce, *cstart, *ct, *cq, *co1, *co2;   /* active lists (mip_tri.c) */
} mip_tri;

mip_tri *mip_tri_from_model(const mip_value_model *M, int sweeps);
mip_tri *mip_tri_clone(const mip_tri *T);
double mip_tri_bound(mip_tri *T, const unsigned char *st, double target);

/* ---- mip_roof.c ---------------------------------------------------------------- */
typedef struct {
    int n;
    double c0;                  /* constant of the doubled model */
    mip_tri *tri;               /* non-NULL: also the triangle bound (mip_tri.c) */
    mip_cut *G;                 /* the doubled attractive model: s (0..n-1), t = 1 - s (n..2n-1) */
    unsigned char *st2;         /* per-solve scratch (2n) */
    double *tau2;
} mip_roof;

mip_roof *mip_roof_from_model(const mip_value_model *M);
mip_roof *mip_roof_clone(const mip_roof *R);
double mip_roof_solve(mip_roof *R, const unsigned char *st, double *tau);
double mip_roof_bound(mip_roof *R, const unsigned char *st, double target, double *tau);
void mip_roof_bounds(mip_roof *R, int n, const int *fix, int J, double *out, double *tau);

/* ---- mip_tree.c ---------------------------------------------------------------- */
typedef struct {
    int n;
    const int *order, *parent;  /* every variable after its parent (-1 at roots) */
    const double *th, *psi;     /* th[2 i + c], psi[4 i + 2 c_parent + c] */
    double logz;                /* log Z_q */
} mip_tree;

double mip_tree_region(const mip_tree *T, const unsigned char *st, double *bel);
void mip_tree_draw(const mip_tree *T, unsigned char *st, const double *bel, logz_stream *rs);

/* ---- mip_glpk.c ---------------------------------------------------------------- */
/* GLPK's error trap: the thread that runs GLPK sets jmp (setjmp) and passes
 * the trap to mip_lp_hooks_on(); GLPK's error hook gets it through its info
 * pointer, frees the thread's GLPK environment and longjmps to jmp; msg holds
 * GLPK's output. */
typedef struct {
    jmp_buf jmp;
    char msg[600];
} mip_lp_trap;

int mip_lp_available(void);
const char *mip_lp_version(void);   /* NULL without GLPK */
void mip_lp_hooks_on(mip_lp_trap *trap);
void mip_lp_hooks_off(void);
int mip_lp_threads_ok(void);        /* GLPK built with thread-local environments */
void mip_lp_env_free(void);         /* free the calling thread's GLPK environment */
int mip_lp_open(mip_work *W, const mip_lp_def *L, int n);   /* 1: out of memory */
void mip_lp_close(mip_work *W);
int mip_lp_solve(mip_work *W, const mip_lp_def *L, int n, const unsigned char *st, double *val);
void mip_lp_selftest(mip_work *W, const mip_lp_def *L);
int mip_lp_bounds(mip_work *W, const mip_lp_def *L, int n, const int *fix, int J, double *out);
void mip_lp_reset(mip_work *W, const mip_lp_def *L);
int mip_lp_solve_cycle(mip_work *W, const mip_lp_def *L, const mip_cycle *Y, int n,
                       const unsigned char *st, double target, double *val);

/* ---- mip_branch.c -------------------------------------------------------------- */
void mip_icm(const mip_value_model *M, unsigned char *x, double *rowact);
int mip_flip_loss_branch(const mip_value_model *M, mip_work *W, const unsigned char *sp,
                         int fallback);

/* ---- mip_search.c (control; mip_topk.c reads it) ------------------------------- */
typedef struct {
    int bound_lp, best_first, perturb;
    mip_branching branching;
    int dive;                /* primal heuristic: dive to ICM(round(root LP)) */
    mip_cut *cut;            /* non-NULL: LP bound by minimum cut (attractive) */
    mip_roof *roof;          /* non-NULL: LP bound by roof duality (pairwise) */
    const mip_cycle *cycle;  /* non-NULL: GLPK's LP with triangle cuts (pairwise) */
    double cut_c0;
    double node_limit, time_limit;
    const int *order;        /* static variable order (0-based) for "first" */
    /* proposal (A* sampling, Maddison et al. 2014): NULL for the paper's
     * uniform sigma and Gumbel(|X_P| log 2) locations; else lq[2 i + c] =
     * log q_i(c) and q1[i] = q_i(1) of a factorised proposal q, whose
     * -log q(x) the caller has already added to the model's unaries */
    const double *lq, *q1;
    /* or a tree-structured proposal (mip_tree.c), whose -log q(x) the caller
     * has already added to the model (lq NULL) */
    const mip_tree *tree;
} mip_control;

/* ---- mip_topk.c ---------------------------------------------------------------- */
/* The k largest perturbed values offered so far, decreasing, and their
 * configurations: position j holds value[j] and the state in slot[j] of
 * states (k x n ints); rank[j] its rank bound once the search ended. */
typedef struct {
    int k, n, count;
    double *value, *rank;
    int *slot, *states;
} mip_topk;

void mip_topk_reset(mip_topk *K);
double mip_topk_threshold(const mip_topk *K);
double mip_topk_offer(mip_topk *K, double v, const int *sigma);
double mip_rank_bound(mip_work *W, const mip_control *C, int n, double v, double *U);
void mip_topk_ranks(mip_topk *K, mip_work *W, const mip_control *C);
void mip_topk_export(const mip_topk *K, int *states, double *value, double *rank);

/* ---- mip_search.c -------------------------------------------------------------- */
typedef struct {
    double value, upper, rank_bound, nodes, lp_solves, lp_failures, time;
    double helped;           /* nodes bounded by threads other than the owner */
    int exact, status;       /* status: MIP_OK, MIP_OUT_OF_MEMORY, MIP_INTERRUPTED */
} mip_result;

/* trace: rows (nodes, time, v*, U) appended at nodes 1, 2, 4, ... and the end */
typedef struct { double *buf; int len, cap; } mip_trace;

/* ---- mip_shared.c -------------------------------------------------------------- */
/* One sample's search, shared by the threads that join it. The owner runs
 * mip_search(); under `lock` (when `locking`): the node pool and open list
 * of W, the incumbent, the counters in R and the trace. */
typedef struct {
    mip_work *W;             /* the owner's work space: pool and open list */
    const mip_value_model *M;
    const mip_lp_def *L;
    int *best;               /* the incumbent sigma (0/1) */
    mip_topk *topk;          /* NULL, or the k best (then vstar is their threshold) */
    double vstar, t0, next_trace;
    mip_result *R;
    mip_trace *T;
    int owner;               /* the owner's thread number */
    int locking;             /* other threads may join: take the lock */
    int joinable, helpers, inflight, done, limited;
    int wait_helpers;        /* tests: the owner waits for every thread to join */
    int nthreads;
    double *ikey;            /* per thread: key of the node it bounds (-Inf: none) */
    void *lock;              /* omp_lock_t, NULL without OpenMP */
} mip_shared;

void mip_shared_init(mip_shared *S, mip_share share, int nthreads);
void mip_shared_done(mip_shared *S);
void mip_lock(mip_shared *S);
void mip_unlock(mip_shared *S);

/* ---- mip_search.c -------------------------------------------------------------- */
void mip_search(mip_shared *S, mip_work *W, const mip_value_model *M, const mip_lp_def *L,
                const mip_control *C, logz_stream *rs, int *best, mip_result *R,
                mip_trace *T);
int mip_search_join(mip_shared *S, int tid, mip_work *Ws, const mip_control *Cs);

/* ---- mip_batch.c --------------------------------------------------------------- */
/* A batch of samples: inputs, then the per-sample outputs (arrays of ns; the
 * glue points them into the result list). */
typedef struct {
    int ns, trace_cap, threads;
    int k;                   /* > 1: each sample's k best configurations (mip_topk.c) */
    int selftest;            /* provoke a GLPK error: 1 on the first thread, 2 on the last */
    int no_tls;              /* tests: treat GLPK as built without thread-local environments */
    mip_share share;
    logz_stream *rs;         /* per sample: its stream */
    int *states;             /* n x ns: the samples' sigma (0/1) */
    double *value, *upper, *rank_bound, *nodes, *lp_solves, *lp_failures, *time, *helped;
    int *exact;
    int *kstates;            /* k > 1: n x k x ns states (-1: empty), k x ns values and rank bounds */
    double *kvalue, *krank;
    double *trace;           /* 5 x (trace_cap ns): sample, nodes, time, v*, U */
    int ntrace;              /* columns of trace filled */
    int threads_used;        /* threads run */
    int lp_serial;           /* 1: GLPK bounds on one thread (no thread-local environments) */
    const char *lp_error;    /* MIP_LP_ERROR: GLPK's output on the failing thread */
} mip_batch;

int mip_batch_run(mip_batch *B, mip_work *W, const mip_value_model *M, const mip_lp_def *L,
                  const mip_control *C);

#endif

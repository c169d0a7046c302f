/* GumbelMIP internals shared by src/mip*.c (the public .Call entry points are
 * declared in logz.h). Layers:
 *   mip_search.c  the perturbed branch and bound (Algorithm 1) on plain C types
 *   mip_value.c   v(x) and the simple bound
 *   mip_par.c     what lets threads share one search: node keys and their
 *                 random streams, the lock, joining a running search
 *   mip_cut.c     the exact LP bound of attractive pairwise models by a min cut
 *   mip_glpk.c    the LP bound by GNU GLPK (and its error/interrupt traps)
 *   mip.c         SEXP glue: reading the model and control lists, threads
 * See the comment at the top of mip.c for the model. */
#ifndef LOGZ_MIP_H
#define LOGZ_MIP_H

#include <setjmp.h>
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

/* All memory of one search (one per thread); reachable after a longjmp out of
 * GLPK through mip_W. */
typedef struct mip_work_s {
    void *lp;                 /* glp_prob * (mip_glpk.c), NULL without GLPK */
    unsigned char *state;     /* node slots: n bytes each (bit 0 sigma, bit 1 fixed) */
    double *key, *gam;        /* per slot: upper bound when created, Gumbel value */
    uint64_t *nkey;           /* per slot: the node's key (mip_par.c), seeds its draws */
    unsigned char *sbuf;      /* a thread's copy of the node it bounds (n bytes) */
    struct mip_work_s *stage; /* a thread's staging pool: the split outside the lock
                               * (mip_search.c); its cur holds the new child's sigma */
    int *nfix, *heap, *freel, *flag;  /* flag 1: LP known = key - gamma, tau in bit 2 */
    int cap, nheap, nfree, nused;
    double *rowact;           /* linear models: row activities */
    int *cur;                 /* current LP column status: -1 free, 0/1 fixed */
    double *tau;
    unsigned char *dive;      /* the dive's target configuration (n bytes) */
    double *flip;             /* branching scratch: single-flip losses (n) */
    double *tq;               /* tree proposal scratch (2 n, allocated on first use) */
    /* polling (mip_poll): interrupts only on R's main thread, through
     * R_ToplevelExec; stop is shared by the threads of one call */
    int interrupts;
    volatile int *stop;
    double next_poll, deadline;
} mip_work;

/* ---- mip_cut.c -------------------------------------------------------------- */
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
double mip_cut_solve(mip_cut *G, const unsigned char *st, double c0, double *tau);
mip_cut *mip_cut_clone(const mip_cut *G);

/* ---- mip_tree.c ------------------------------------------------------------- */
typedef struct {
    int n;
    const int *order, *parent;  /* every variable after its parent (-1 at roots) */
    const double *th, *psi;     /* th[2 i + c], psi[4 i + 2 c_parent + c] */
    double logz;                /* log Z_q */
} mip_tree;

double mip_tree_region(const mip_tree *T, const unsigned char *st, double *bel);
void mip_tree_draw(const mip_tree *T, unsigned char *st, const double *bel, logz_stream *rs);
const mip_tree *mip_tree_from_list(SEXP tr, int n);

/* ---- mip_search.c ----------------------------------------------------------- */
typedef struct {
    int bound_lp, best_first, branching, perturb;
    int dive;                /* primal heuristic: dive to ICM(round(root LP)) */
    mip_cut *cut;            /* non-NULL: LP bound by minimum cut (attractive) */
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

typedef struct {
    double value, upper, rank_bound, nodes, lp_solves, lp_failures, time;
    double helped;           /* nodes bounded by threads other than the owner */
    int exact, status;       /* status: 0 ok, 1 out of memory, 2 interrupted */
} mip_result;

/* trace: rows (nodes, time, v*, U) appended at nodes 1, 2, 4, ... and the end */
typedef struct { double *buf; int len, cap; } mip_trace;

double mip_now(void);
int mip_poll(mip_work *W);   /* 0 go on, 1 time limit reached, 2 interrupted */
double mip_value(const mip_value_model *M, const unsigned char *st, double *rowact);
double mip_simple_bound(const mip_value_model *M, const unsigned char *st);
void mip_work_free(mip_work *W);

/* One sample's search, shared by the threads that join it (mip_par.c). The
 * owner runs mip_search(); under `lock` (when `locking`): the node pool and
 * open list of W, the incumbent, the counters in R and the trace. */
typedef struct {
    mip_work *W;             /* the owner's work space: pool and open list */
    const mip_value_model *M;
    const mip_lp_def *L;
    int *best;               /* the incumbent sigma (0/1) */
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

void mip_search(mip_shared *S, mip_work *W, const mip_value_model *M, const mip_lp_def *L,
                const mip_control *C, logz_stream *rs, int *best, mip_result *R,
                mip_trace *T);
void mip_search_loop(mip_shared *S, int tid, mip_work *Ws, const mip_control *Cs);

/* ---- mip_par.c -------------------------------------------------------------- */
uint64_t mip_key_child(uint64_t key, int x, int side);
uint64_t mip_key_root(logz_stream *rs);
void mip_node_stream(uint64_t key, logz_stream *s);
void mip_shared_init(mip_shared *S, int share, int nthreads);
void mip_shared_done(mip_shared *S);
void mip_lock(mip_shared *S);
void mip_unlock(mip_shared *S);
void mip_pause(void);
int mip_search_join(mip_shared *S, int tid, mip_work *Ws, const mip_control *Cs);
void mip_search_release(mip_shared *S);

/* ---- mip_glpk.c ------------------------------------------------------------- */
extern mip_work *mip_W;      /* the work space GLPK's error hook must free */
extern jmp_buf mip_jmp;      /* where GLPK's error hook longjmps to */
void mip_lp_open(mip_work *W, const mip_lp_def *L, int n);
/* 1 optimal, 0 infeasible, -1 solver failure, -2 interrupted, -3 time limit */
int mip_lp_solve(mip_work *W, const mip_lp_def *L, int n, const unsigned char *st, double *val);
void mip_lp_selftest(mip_work *W, const mip_lp_def *L);
void mip_glpk_begin(void);
void NORET mip_glpk_failed(int nprotect, const char *where);
void mip_glpk_end(mip_work *W);

/* ---- mip.c ------------------------------------------------------------------ */
void mip_value_model_from_list(SEXP cm, mip_value_model *M);
void mip_lp_def_from_list(SEXP lp, int n, mip_lp_def *L);
mip_work *mip_work_new(int n);
int mip_work_stage(mip_work *W, const mip_value_model *M);

#endif

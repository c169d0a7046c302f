/* A* sampling internals shared by src/astar*.c (the .Call entry points are
 * declared in logz.h). Layers:
 *   astar_target.c    the target: o(x) and M(B), R callbacks or built-in C models,
 *                     and o / M at many points or boxes (.Call glue for R)
 *   astar_cauchy.c    the region bounds of the Cauchy regression model
 *   astar.c           A* sampling and drill-down: partition tree, queue, search
 *                     (.Call glue in astar_call.c)
 *   astar_baseline.c  rejection sampling and OS* with the same counters
 *                     (.Call glue in astar_baseline_call.c)
 * See the comment at the top of astar.c for the model. */
#ifndef LOGZ_ASTAR_H
#define LOGZ_ASTAR_H

#include <string.h>
#include "logz.h"


typedef struct {
    const char *name;
    int d, model;
    logz_proposal prop;
    const double *par;
    int npar;
    const double *X, *y;   /* data: X nrow x ncol (column-major), y nrow */
    int nrow, ncol;
    double *work;          /* per-row constants of the model */
    SEXP log_lik, bound, env;
    logz_program prog;     /* MODEL_EXPR: the compiled expression */
    double *stack, *stack_hi;
    double n_lik, n_bound; /* evaluation counters */
} astar_target;

/* astar_target.c */
void target_from_list(SEXP t, astar_target *tg);
double target_log_lik(astar_target *tg, const double *x);
double target_bound(astar_target *tg, const double *lo, const double *hi);
void check_below_bound(const astar_target *tg, double o, double m, const double *x);
void target_check_interrupt(const astar_target *tg, double *next);

/* astar_cauchy.c */
double cauchy_bound(const astar_target *tg, const double *lo, const double *hi, int type);

/* astar_baseline.c: rejection sampling and OS* (glue: astar_baseline_call.c) */
enum { ASTAR_OK = 0, ASTAR_ZERO_MASS = 1, ASTAR_INFINITE_BOUND = 2, ASTAR_ZERO_MASS_PIECES = 3,
       ASTAR_TOO_MANY_PIECES = 4 };
typedef struct {
    int n, refine, reuse;        /* samples, LOGZ_REFINE_*, one envelope for all samples */
    double max_nodes, rate;      /* most pieces; refine on this fraction of rejections */
} os_opts;
typedef struct {
    double *samples;                      /* n x d */
    double *likelihood, *bound, *nodes;   /* n: evaluations and splits a sample */
    double log_w_sum, log_w2_sum, trials, global_bound;
    int pieces;
} os_result;
int astar_baseline_run(astar_target *tg, const os_opts *o, const logz_progress *pr,
                       os_result *r);

/* astar.c: A* sampling and the drill down (glue: astar_call.c) */
typedef struct {
    int n, method, reuse, lb_random;   /* samples, LOGZ_SEARCH_*, keep the tree, random count */
    double max_nodes, lb_mean;         /* most nodes a sample; lower bounds a node */
} astar_opts;
typedef struct {
    double *samples;                              /* n x d */
    double *gumbel, *likelihood, *bound, *nodes;  /* n */
    int tree_size;
} astar_result;
int astar_sample_run(astar_target *tg, const astar_opts *o, const logz_progress *pr,
                     astar_result *r);
int split_side(int d, const double *lo, const double *hi, int depth);

/* growable arrays on R_alloc */
static inline void *grow(void *old, size_t n_old, size_t n_new, size_t size)
{
    void *p = R_alloc(n_new, size);
    if (old && n_old) memcpy(p, old, n_old * size);
    return p;
}

#endif

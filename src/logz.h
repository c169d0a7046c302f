/* logz: the one internal header. Every .Call routine and every engine shared
 * between files is declared here, so prototypes never drift (survival's
 * survproto.h). Engines take plain C types; *_call functions are SEXP glue. */
#ifndef LOGZ_H
#define LOGZ_H

#define USE_FC_LEN_T
#include <stdint.h>
#include <R.h>
#include <Rinternals.h>
#include <R_ext/BLAS.h>
#ifndef FCONE
#define FCONE
/* ---- gumbel.c: Gumbel and truncated Gumbel draws (R's RNG) --------------- */
double logz_log_add_exp(double a, double b);
double logz_rgumbel1(double location);                 /* Gumbel(location) */
double logz_rtruncgumbel1(double location, double bound); /* at most bound */
SEXP gumbel_rand_call(SEXP n, SEXP location, SEXP bound);

/* ---- proposal.c: products of univariate distributions over boxes -------- */
enum { LOGZ_PROP_UNIFORM = 1, LOGZ_PROP_NORMAL, LOGZ_PROP_EXPONENTIAL, LOGZ_PROP_CAUCHY,
       LOGZ_PROP_STUDENT };
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

/* ---- astar.c: A* sampling, drill-down, OS* and rejection ---------------- */
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

#endif

/* ---- rng.c: per-chain L'Ecuyer-CMRG (MRG32k3a) streams ------------------ */
typedef struct {
    double s[6];    /* MRG32k3a state: integers below the moduli, held as doubles */
} logz_stream;

double logz_stream_unif(logz_stream *st);          /* U(0,1), as R's "L'Ecuyer-CMRG" */
void logz_stream_next(const logz_stream *in, logz_stream *out); /* nextRNGStream */
/* Seed n streams from R's RNG (caller brackets with GetRNGstate/PutRNGstate). */
void logz_streams_seed(int n, logz_stream *out);
void logz_streams_to_double(int n, const logz_stream *st, double *out);
int logz_streams_from_double(int n, const double *in, logz_stream *st);
SEXP rng_streams_call(SEXP n);
SEXP rng_stream_unif_call(SEXP state, SEXP n);

/* ---- util.c -------------------------------------------------------------- */
double logz_softplus(double x);      /* log(1 + exp(x)), stable */
double logz_log_sum_exp(const double *x, int n);
int logz_threads(int requested);     /* clamp to [1, omp max / OMP_THREAD_LIMIT] */
SEXP logz_get(SEXP list, const char *name); /* element of a named list or R_NilValue */

/* ---- rbm.c: exact log Z by enumeration ---------------------------------- */
/* Enumerate the `ne` units of one layer (biases be, size ne) against the other
 * layer (biases bo, size no); Wt is no x ne column-major (the coupling with
 * the enumerated layer in columns). Returns log Z. */
double rbm_exact_log_z(int ne, int no, const double *Wt, const double *be,
                       const double *bo, int nthreads);
SEXP rbm_exact_log_z_call(SEXP W, SEXP a, SEXP b, SEXP layer, SEXP threads);

/* ---- rbm_train.c: CD-k / PCD --------------------------------------------- */
SEXP rbm_train_epoch_call(SEXP data_t, SEXP params, SEXP state, SEXP control);

/* ---- ais.c: annealed importance sampling for RBMs ----------------------- */
SEXP ais_rbm_call(SEXP model, SEXP betas, SEXP state, SEXP control);

/* ---- gumbel.c: Gumbel and truncated Gumbel draws (R's RNG) --------------- */
double logz_log_add_exp(double a, double b);
double logz_rgumbel1(double location);                 /* Gumbel(location) */
double logz_rtruncgumbel1(double location, double bound); /* at most bound */
SEXP gumbel_rand_call(SEXP n, SEXP location, SEXP bound);

/* ---- proposal.c: products of univariate distributions over boxes -------- */
enum { LOGZ_PROP_UNIFORM = 1, LOGZ_PROP_NORMAL, LOGZ_PROP_EXPONENTIAL, LOGZ_PROP_CAUCHY,
       LOGZ_PROP_STUDENT };
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

/* ---- astar.c: A* sampling, drill-down, OS* and rejection ---------------- */
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

#endif

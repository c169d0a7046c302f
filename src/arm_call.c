/* SEXP glue of arm.c: the particle store of Adaptive Resample-Move from R. */
#include <string.h>
#include "logz.h"

static void arm_finalizer(SEXP p)
{
    arm_state *s = (arm_state *) R_ExternalPtrAddr(p);
    arm_free(s);
    R_ClearExternalPtr(p);
}

static arm_state *arm_get(SEXP p)
{
    return (arm_state *) logz_arg_ptr(p, "ARM state");
}

static void check_slots(const arm_state *s, int c0, int c1)
{
    if (c0 < 0 || c1 < c0 || c1 > s->cap) logz_internal_error("ARM slots out of range");
}

/* The store p and its slots [c0, c1) from R, checked. */
static arm_state *arm_slots(SEXP p, SEXP c0_, SEXP c1_, int *c0, int *c1)
{
    arm_state *s = arm_get(p);
    *c0 = logz_arg_int(c0_, "ARM first slot", LOGZ_NO_MIN);
    *c1 = logz_arg_int(c1_, "ARM end slot", LOGZ_NO_MIN);
    check_slots(s, *c0, *c1);
    return s;
}

/* a copy of x (len doubles, at least one allocated) */
static double *dup_real(SEXP x, R_xlen_t len)
{
    double *out = R_Calloc(len > 0 ? len : 1, double);
    if (len > 0) memcpy(out, REAL(x), sizeof(double) * len);
    return out;
}

static int *dup_int(SEXP x, R_xlen_t len)
{
    int *out = R_Calloc(len > 0 ? len : 1, int);
    if (len > 0) memcpy(out, INTEGER(x), sizeof(int) * len);
    return out;
}

/* The store of one model, its arguments checked before anything is allocated.
 * model lists (variables already in the order they are added):
 *   ARM_GPC:   list(sigma = N x N K + I, y)
 *   ARM_ISING: list(n, ptr (N + 1), nbr, nw (0-based CSR), field, lo, hi)
 *   ARM_RBM:   list(W = N x H, a, b) */
static arm_state *arm_unpack(int type, SEXP model)
{
    arm_state *s = NULL;
    if (type == ARM_GPC) {
        SEXP y = logz_need(model, "y", REALSXP);
        int N = LENGTH(y);
        SEXP sig = logz_need_len(model, "sigma", REALSXP, (R_xlen_t) N * N);
        s = R_Calloc(1, arm_state);
        *s = (arm_state) {.type = type, .N = N, .y = dup_real(y, N),
                          .Sig = dup_real(sig, (R_xlen_t) N * N),
                          .S = R_Calloc((size_t) N * N > 0 ? (size_t) N * N : 1, double),
                          .c = R_Calloc(N > 0 ? N : 1, double)};
    } else if (type == ARM_ISING) {
        int N = asInteger(logz_need(model, "n", INTSXP));
        SEXP ptr = logz_need(model, "ptr", INTSXP), nbr = logz_need(model, "nbr", INTSXP);
        if (N < 0 || LENGTH(ptr) != N + 1 || LENGTH(nbr) != INTEGER(ptr)[N])
            logz_internal_error("bad Ising adjacency");
        int ne = LENGTH(nbr);
        for (int e = 0; e < ne; e++)
            if (INTEGER(nbr)[e] < 0 || INTEGER(nbr)[e] >= N)
                logz_internal_error("bad Ising neighbour");
        SEXP nw = logz_need_len(model, "nw", REALSXP, ne);
        SEXP f = logz_need_len(model, "field", REALSXP, N);
        double lo = asReal(logz_need(model, "lo", REALSXP));
        double hi = asReal(logz_need(model, "hi", REALSXP));
        s = R_Calloc(1, arm_state);
        *s = (arm_state) {.type = type, .N = N, .ptr = dup_int(ptr, N + 1),
                          .nbr = dup_int(nbr, ne), .nw = dup_real(nw, ne),
                          .f = dup_real(f, N), .lo = lo, .hi = hi};
    } else if (type == ARM_RBM) {
        SEXP W = logz_need(model, "W", REALSXP);
        SEXP dim = getAttrib(W, R_DimSymbol);
        if (LENGTH(dim) != 2) logz_internal_error("bad RBM weights");
        int N = INTEGER(dim)[0], H = INTEGER(dim)[1];
        SEXP a = logz_need_len(model, "a", REALSXP, N);
        SEXP b = logz_need_len(model, "b", REALSXP, H);
        s = R_Calloc(1, arm_state);
        *s = (arm_state) {.type = type, .N = N, .H = H, .W = dup_real(W, (R_xlen_t) N * H),
                          .a = dup_real(a, N), .b = dup_real(b, H)};
    } else {
        logz_internal_error("unknown ARM model type %d", type);
    }
    return s;
}

SEXP arm_new_call(SEXP type_, SEXP model, SEXP cap_)
{
    int type = logz_arg_int(type_, "ARM model type", LOGZ_NO_MIN);
    int cap = logz_arg_int(cap_, "ARM capacity", LOGZ_NO_MIN);
    if (cap < 1) logz_internal_error("bad ARM capacity");
    if (TYPEOF(model) != VECSXP) logz_internal_error("the ARM model must be a list");
    arm_state *s = arm_unpack(type, model);
    SEXP p = PROTECT(R_MakeExternalPtr(s, R_NilValue, R_NilValue));
    R_RegisterCFinalizerEx(p, arm_finalizer, TRUE);
    arm_reserve(s, cap);
    UNPROTECT(1);
    return p;
}

SEXP arm_reserve_call(SEXP p, SEXP cap)
{
    arm_reserve(arm_get(p), logz_arg_int(cap, "ARM capacity", LOGZ_NO_MIN));
    return R_NilValue;
}

SEXP arm_move_call(SEXP p, SEXP c0_, SEXP c1_, SEXP steps_, SEXP threads_)
{
    int c0, c1;
    arm_state *s = arm_slots(p, c0_, c1_, &c0, &c1);
    int steps = logz_arg_int(steps_, "ARM steps", LOGZ_NO_MIN);
    int nthreads = logz_threads(logz_arg_int(threads_, "ARM threads", LOGZ_NO_MIN));
    arm_move(s, c0, c1, steps, nthreads);
    return R_NilValue;
}

SEXP arm_smooth_call(SEXP p, SEXP c0_, SEXP c1_)
{
    int c0, c1;
    arm_state *s = arm_slots(p, c0_, c1_, &c0, &c1);
    if (s->n >= s->N) logz_internal_error("all variables have been added");
    SEXP out = PROTECT(allocVector(REALSXP, c1 - c0));
    arm_smooth(s, c0, c1, REAL(out));
    UNPROTECT(1);
    return out;
}

SEXP arm_copy_call(SEXP p, SEXP src_, SEXP dst0_)
{
    arm_state *s = arm_get(p);
    if (TYPEOF(src_) != INTSXP) logz_internal_error("ARM source slots must be integers");
    int k = LENGTH(src_), dst0 = logz_arg_int(dst0_, "ARM destination slot", LOGZ_NO_MIN);
    const int *src = INTEGER(src_);
    check_slots(s, dst0, dst0 + k);
    for (int j = 0; j < k; j++) check_slots(s, src[j], src[j] + 1);
    int N = s->N, H = s->type == ARM_RBM ? s->H : 0;
    double *tx = (double *) R_alloc((size_t) N * (k > 0 ? k : 1), sizeof(double));
    double *tg = (double *) R_alloc((size_t) (H > 0 ? H : 1) * (k > 0 ? k : 1), sizeof(double));
    arm_copy(s, src, k, dst0, tx, tg);
    return R_NilValue;
}

SEXP arm_augment_call(SEXP p, SEXP R_)
{
    arm_state *s = arm_get(p);
    int R = logz_arg_int(R_, "ARM particles", LOGZ_NO_MIN);
    check_slots(s, 0, R);
    if (s->n >= s->N) logz_internal_error("all variables have been added");
    arm_augment(s, R);
    return R_NilValue;
}

SEXP arm_particles_call(SEXP p, SEXP c0_, SEXP c1_)
{
    int c0, c1;
    arm_state *s = arm_slots(p, c0_, c1_, &c0, &c1);
    SEXP out = PROTECT(allocMatrix(REALSXP, s->n, c1 - c0));
    arm_particles(s, c0, c1, REAL(out));
    UNPROTECT(1);
    return out;
}

SEXP arm_set_call(SEXP p, SEXP x_, SEXP c0_)
{
    arm_state *s = arm_get(p);
    int c0 = logz_arg_int(c0_, "ARM first slot", LOGZ_NO_MIN);
    SEXP dim = getAttrib(x_, R_DimSymbol);
    if (TYPEOF(x_) != REALSXP || LENGTH(dim) != 2 || INTEGER(dim)[0] != s->n)
        logz_internal_error("ARM states must be a double matrix with one row per variable added");
    int k = INTEGER(dim)[1];
    check_slots(s, c0, c0 + k);
    arm_set(s, REAL(x_), k, c0);
    return R_NilValue;
}

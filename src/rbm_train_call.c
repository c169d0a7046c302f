/* SEXP glue of rbm_train.c: one epoch of CD-k / PCD from R. */
#include <string.h>
#include "logz.h"

/* data_t: nv x N; params: list(W, a, b); state: list(dW, da, db, P or NULL);
 * control: list(perm, pcd, k, batch_size, n_chains, learning_rate, lr_step,
 * momentum, weight_decay). Returns list(W, a, b, dW, da, db, P, recon_error). */
SEXP rbm_train_epoch_call(SEXP data_t, SEXP params, SEXP state, SEXP control)
{
    SEXP W_ = logz_need(params, "W", REALSXP), a_ = logz_need(params, "a", REALSXP),
         b_ = logz_need(params, "b", REALSXP);
    int nv = LENGTH(a_), nh = LENGTH(b_);
    if (TYPEOF(data_t) != REALSXP || !isMatrix(data_t) || nrows(data_t) != nv ||
        XLENGTH(W_) != (R_xlen_t) nv * nh)
        logz_internal_error("data or weights have the wrong shape");
    int N = ncols(data_t);
    SEXP perm = logz_need(control, "perm", INTSXP);
    if (LENGTH(perm) != N) logz_internal_error("perm has the wrong length");
    int pcd = asInteger(logz_need(control, "pcd", INTSXP));
    int B = asInteger(logz_need(control, "batch_size", INTSXP));
    rbm_train_opts o = {
        .nv = nv, .nh = nh, .N = N, .pcd = pcd,
        .k = asInteger(logz_need(control, "k", INTSXP)),
        .B = B,
        .C = pcd ? asInteger(logz_need(control, "n_chains", INTSXP)) : B,
        .lr = asReal(logz_need(control, "learning_rate", REALSXP)),
        .lr_step = asReal(logz_need(control, "lr_step", REALSXP)),
        .momentum = asReal(logz_need(control, "momentum", REALSXP)),
        .weight_decay = asReal(logz_need(control, "weight_decay", REALSXP))};
    if (o.k < 1 || o.B < 1 || o.B > N || o.C < 1) logz_internal_error("bad k, batch size or chains");
    for (int i = 0; i < (N / o.B) * o.B; i++)
        if (INTEGER(perm)[i] < 0 || INTEGER(perm)[i] >= N) logz_internal_error("perm out of range");
    SEXP dW_ = logz_need(state, "dW", REALSXP), da_ = logz_need(state, "da", REALSXP),
         db_ = logz_need(state, "db", REALSXP), P_ = logz_get(state, "P");
    if (XLENGTH(dW_) != (R_xlen_t) nv * nh || LENGTH(da_) != nv || LENGTH(db_) != nh)
        logz_internal_error("bad momentum state");
    int have_chains = !isNull(P_) && TYPEOF(P_) == REALSXP && XLENGTH(P_) == (R_xlen_t) nv * o.C;

    const char *names[] = {"W", "a", "b", "dW", "da", "db", "P", "recon_error", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP W = allocMatrix(REALSXP, nv, nh); logz_set(out, "W", W);
    SEXP a = allocVector(REALSXP, nv); logz_set(out, "a", a);
    SEXP b = allocVector(REALSXP, nh); logz_set(out, "b", b);
    SEXP dW = allocMatrix(REALSXP, nv, nh); logz_set(out, "dW", dW);
    SEXP da = allocVector(REALSXP, nv); logz_set(out, "da", da);
    SEXP db = allocVector(REALSXP, nh); logz_set(out, "db", db);
    SEXP P = allocMatrix(REALSXP, nv, pcd ? o.C : o.B); logz_set(out, "P", P);
    memcpy(REAL(W), REAL(W_), sizeof(double) * (size_t) nv * nh);
    memcpy(REAL(a), REAL(a_), sizeof(double) * nv);
    memcpy(REAL(b), REAL(b_), sizeof(double) * nh);
    memcpy(REAL(dW), REAL(dW_), sizeof(double) * (size_t) nv * nh);
    memcpy(REAL(da), REAL(da_), sizeof(double) * nv);
    memcpy(REAL(db), REAL(db_), sizeof(double) * nh);
    if (pcd && have_chains) memcpy(REAL(P), REAL(P_), sizeof(double) * (size_t) nv * o.C);
    if (!pcd) memset(REAL(P), 0, sizeof(double) * (size_t) nv * o.B);   /* unused by CD */

    GetRNGstate();
    double recon = rbm_train_epoch(&o, REAL(data_t), INTEGER(perm), REAL(W), REAL(a), REAL(b),
                                   REAL(dW), REAL(da), REAL(db), REAL(P), !have_chains);
    PutRNGstate();
    logz_set(out, "recon_error", ScalarReal(recon));
    UNPROTECT(1);
    return out;
}

/* SEXP glue of ais.c: AIS for RBMs, one chunk of annealing steps from R. */
#include "logz.h"

/* model: list(W, a, b, a0, and optionally Wx, BX, BY from ais_rbm_prepare_call());
 * state: list(V or NULL, log_w, streams, density or NULL); control: list(threads,
 * sweeps, final, log_z0, kernel (a logz_ais_kernel), moments = FALSE, crossover). */
SEXP ais_rbm_call(SEXP model, SEXP betas, SEXP state, SEXP control)
{
    R_CheckUserInterrupt();   /* between chunks: interrupts and time limits */
    SEXP W = logz_need(model, "W", REALSXP), a = logz_need(model, "a", REALSXP),
         b = logz_need(model, "b", REALSXP), a0 = logz_need(model, "a0", REALSXP);
    int nv = LENGTH(a), nh = LENGTH(b);
    if ((R_xlen_t) nv * nh != XLENGTH(W) || LENGTH(a0) != nv)
        logz_internal_error("inconsistent RBM dimensions");
    logz_chunk ck;
    logz_chunk_unpack(state, betas, control, "V", nv, &ck);
    int M = ck.M, L = ck.L, nthreads = ck.nthreads, sweeps = ck.sweeps, final = ck.final;
    double log_z0 = ck.log_z0;
    logz_stream *st = ck.st;
    int kernel = logz_arg_code(asInteger(logz_need(control, "kernel", INTSXP)), "kernel",
                               LOGZ_KERNEL_AUTO, LOGZ_KERNEL_SPARSE);
    if (sweeps < 1) logz_internal_error("sweeps < 1");

    /* [W a a0]: from ais_rbm_prepare_call() if given, else assembled here */
    SEXP wx_in = logz_get(model, "Wx");
    double *Wx;
    if (TYPEOF(wx_in) == REALSXP && XLENGTH(wx_in) == (R_xlen_t) nv * (nh + 2)) {
        Wx = REAL(wx_in);
    } else {
        Wx = (double *) R_alloc((size_t) nv * (nh + 2), sizeof(double));
        logz_rbm_fill_wx(nv, nh, REAL(W), REAL(a), REAL(a0), Wx);
    }
    logz_rbm_path m = {.nv = nv, .nh = nh, .M = M, .Wx = Wx, .a = REAL(a), .b = REAL(b),
                       .a0 = REAL(a0)};

    SEXP mom_in = logz_get(control, "moments");
    int moments = TYPEOF(mom_in) == LGLSXP && asLogical(mom_in) == TRUE;
    const char *names[] = {"V", "log_w", "streams", "trace", "sweeps", "density", "moments", ""};
    SEXP out = PROTECT(logz_chunk_result(&ck, names, nv));
    SEXP V = logz_get(out, "V"), logw = logz_get(out, "log_w"), trace = logz_get(out, "trace");
    if (isNull(ck.x0)) ais_draw_base(nv, M, REAL(a0), REAL(V), st);
    /* optional moments per step: weighted mean of D, weighted variance of D, weighted mean of D2 */
    SEXP mom = R_NilValue;
    if (moments) {
        mom = allocMatrix(REALSXP, L, 3);
        logz_set(out, "moments", mom);
    }
    SEXP dens = allocVector(REALSXP, 2);
    logz_set(out, "density", dens);
    SEXP dens_in = logz_get(state, "density");
    REAL(dens)[1] = TYPEOF(dens_in) == REALSXP && LENGTH(dens_in) == 2 && R_FINITE(REAL(dens_in)[1])
                    ? REAL(dens_in)[1] : 0.5;
    SEXP cross_in = logz_get(control, "crossover");
    SEXP bx = logz_get(model, "BX"), by = logz_get(model, "BY");
    int have = TYPEOF(bx) == REALSXP && TYPEOF(by) == REALSXP &&
               (size_t) XLENGTH(bx) == logz_blocked_size(nh + 2, nv) &&
               (size_t) XLENGTH(by) == logz_blocked_size(nv, nh);
    ais_rbm_opts o = {
        .L = L, .final = final, .sweeps = sweeps, .nthreads = nthreads,
        .kernel = (logz_ais_kernel) kernel,
        .crossover = TYPEOF(cross_in) == REALSXP && LENGTH(cross_in) == 1 ? REAL(cross_in)[0]
                                                                          : 0.35,
        .log_z0 = log_z0,
        .blocked_x = have ? REAL(bx) : NULL, .blocked_y = have ? REAL(by) : NULL};
    int ns = ais_rbm_chunk(&m, &o, REAL(betas), REAL(V), REAL(logw), st, REAL(dens),
                           REAL(trace), moments ? REAL(mom) : NULL);
    logz_set(out, "sweeps", ScalarInteger(ns));
    logz_chunk_streams(out, &ck);
    UNPROTECT(1);
    return out;
}

/* The blocked weight layouts used by the sparse kernel, made once per run. */
SEXP ais_rbm_prepare_call(SEXP model)
{
    SEXP W = logz_need(model, "W", REALSXP), a = logz_need(model, "a", REALSXP),
         a0 = logz_need(model, "a0", REALSXP), b = logz_need(model, "b", REALSXP);
    int nv = LENGTH(a), nh = LENGTH(b);
    if ((R_xlen_t) nv * nh != XLENGTH(W) || LENGTH(a0) != nv)
        logz_internal_error("inconsistent RBM dimensions");
    const char *names[] = {"BX", "BY", "Wx", ""};
    SEXP out = PROTECT(mkNamed(VECSXP, names));
    SEXP wx = allocMatrix(REALSXP, nv, nh + 2);
    logz_set(out, "Wx", wx);
    double *Wx = REAL(wx);
    logz_rbm_fill_wx(nv, nh, REAL(W), REAL(a), REAL(a0), Wx);
    SEXP bx = allocVector(REALSXP, (R_xlen_t) logz_blocked_size(nh + 2, nv));
    logz_set(out, "BX", bx);
    SEXP by = allocVector(REALSXP, (R_xlen_t) logz_blocked_size(nv, nh));
    logz_set(out, "BY", by);
    logz_blocked B;
    logz_blocked_init(&B, Wx, nh + 2, nv, 0, REAL(bx), 1);
    logz_blocked_init(&B, Wx, nv, nh, 1, REAL(by), 1);
    UNPROTECT(1);
    return out;
}

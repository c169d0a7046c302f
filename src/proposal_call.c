/* SEXP glue of proposal.c: proposal lists, masses, draws and densities from R. */
#include "logz.h"

/* Rows between interrupt checks in the loops over many points below: about
 * 2e5 one-dimensional draws or densities (some families cost tens of
 * operations each). */
static int proposal_check_rows(int d)
{
    int r = 200000 / (d > 0 ? d : 1);
    return r > 0 ? r : 1;
}

void proposal_from_list(SEXP prop, logz_proposal *p)
{
    SEXP fam = logz_get(prop, "family"), par = logz_get(prop, "par");
    if (TYPEOF(fam) != INTSXP || TYPEOF(par) != REALSXP || LENGTH(fam) < 1 ||
        XLENGTH(par) != 3 * (R_xlen_t) LENGTH(fam))
        logz_internal_error("malformed proposal");
    p->d = LENGTH(fam);
    p->family = INTEGER(fam);
    p->par = REAL(par);
    for (int j = 0; j < p->d; j++)
        if (p->family[j] < LOGZ_PROP_UNIFORM || p->family[j] > LOGZ_PROP_STUDENT)
            logz_internal_error("unknown proposal family %d", p->family[j]);
}

/* Log masses of the boxes in the rows of lower/upper (k x d). */
SEXP proposal_log_mass_call(SEXP prop, SEXP lower, SEXP upper)
{
    logz_proposal p;
    proposal_from_list(prop, &p);
    if (TYPEOF(lower) != REALSXP || TYPEOF(upper) != REALSXP ||
        XLENGTH(lower) != XLENGTH(upper) || XLENGTH(lower) % p.d)
        logz_internal_error("bad boxes");
    int k = (int) (XLENGTH(lower) / p.d);
    double *lo = (double *) R_alloc(p.d, sizeof(double)), *hi = (double *) R_alloc(p.d, sizeof(double));
    SEXP out = PROTECT(allocVector(REALSXP, k));
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < p.d; j++) {
            lo[j] = REAL(lower)[i + (size_t) k * j];
            hi[j] = REAL(upper)[i + (size_t) k * j];
        }
        REAL(out)[i] = proposal_log_mass(&p, lo, hi);
    }
    UNPROTECT(1);
    return out;
}

/* n draws from the proposal restricted to one box: an n x d matrix. */
SEXP proposal_draw_call(SEXP prop, SEXP n_, SEXP lower, SEXP upper)
{
    logz_proposal p;
    proposal_from_list(prop, &p);
    int n = asInteger(n_);
    if (n == NA_INTEGER || n < 0 || TYPEOF(lower) != REALSXP || TYPEOF(upper) != REALSXP ||
        LENGTH(lower) != p.d || LENGTH(upper) != p.d)
        logz_internal_error("bad arguments to proposal_draw");
    double *x = (double *) R_alloc(p.d, sizeof(double));
    SEXP out = PROTECT(allocMatrix(REALSXP, n, p.d));
    int every = proposal_check_rows(p.d);
    GetRNGstate();
    for (int i = 0; i < n; i++) {
        proposal_draw(&p, REAL(lower), REAL(upper), x);
        for (int j = 0; j < p.d; j++) REAL(out)[i + (size_t) n * j] = x[j];
        if ((i + 1) % every == 0 && i + 1 < n) {   /* R's RNG state is saved over the check */
            PutRNGstate();
            R_CheckUserInterrupt();
            GetRNGstate();
        }
    }
    PutRNGstate();
    UNPROTECT(1);
    return out;
}

/* Log densities of the rows of x (k x d). */
SEXP proposal_log_density_call(SEXP prop, SEXP x_)
{
    logz_proposal p;
    proposal_from_list(prop, &p);
    if (TYPEOF(x_) != REALSXP || XLENGTH(x_) % p.d) logz_internal_error("bad points");
    int k = (int) (XLENGTH(x_) / p.d);
    double *x = (double *) R_alloc(p.d, sizeof(double));
    SEXP out = PROTECT(allocVector(REALSXP, k));
    int every = proposal_check_rows(p.d);
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < p.d; j++) x[j] = REAL(x_)[i + (size_t) k * j];
        REAL(out)[i] = proposal_log_density(&p, x);
        if ((i + 1) % every == 0) R_CheckUserInterrupt();
    }
    UNPROTECT(1);
    return out;
}

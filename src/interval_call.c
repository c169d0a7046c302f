/* SEXP glue of interval.c: expression programs from R, evaluated over boxes. */
#include "logz.h"

void program_from_list(SEXP prog, logz_program *p)
{
    SEXP op = logz_get(prog, "op"), arg = logz_get(prog, "arg"), k = logz_get(prog, "const");
    SEXP data = logz_get(prog, "data");
    if (TYPEOF(op) != INTSXP || TYPEOF(arg) != INTSXP || TYPEOF(k) != REALSXP ||
        LENGTH(op) != LENGTH(arg) || LENGTH(op) < 1 || TYPEOF(data) != REALSXP)
        logz_internal_error("malformed expression program");
    SEXP dim = getAttrib(data, R_DimSymbol);
    if (LENGTH(dim) != 2) logz_internal_error("expression data is not a matrix");
    p->n = LENGTH(op);
    p->op = INTEGER(op);
    p->arg = INTEGER(arg);
    p->k = REAL(k);
    p->nk = LENGTH(k);
    p->data = REAL(data);
    p->nrow = INTEGER(dim)[0];
    p->ncol = INTEGER(dim)[1];
    p->d = asInteger(logz_get(prog, "dim"));
    for (int i = 0; i < p->n; i++) {
        int o = p->op[i], a = p->arg[i];
        if (o < LOGZ_OP_CONST || o > LOGZ_OP_SUM ||
            ((o == LOGZ_OP_CONST || o == LOGZ_OP_POWI || o == LOGZ_OP_POWR) && (a < 0 || a >= p->nk)) ||
            (o == LOGZ_OP_VAR && (a < 0 || a >= p->d)) || (o == LOGZ_OP_COL && (a < 0 || a >= p->ncol)) ||
            (o == LOGZ_OP_SUM && (a < 1 || i + a >= p->n)))
            logz_internal_error("bad expression opcode %d at %d", o, i);
    }
}

/* Enclosures over the boxes in the rows of lower/upper (k x d): a k x 2 matrix. */
SEXP interval_eval_call(SEXP prog, SEXP lower, SEXP upper)
{
    logz_program p;
    program_from_list(prog, &p);
    int d = p.d;
    if (TYPEOF(lower) != REALSXP || TYPEOF(upper) != REALSXP ||
        XLENGTH(lower) != XLENGTH(upper) || XLENGTH(lower) % d)
        logz_internal_error("bad boxes");
    int k = (int) (XLENGTH(lower) / d);
    double *lo = (double *) R_alloc(d, sizeof(double)), *hi = (double *) R_alloc(d, sizeof(double));
    double *L = (double *) R_alloc((size_t) p.n + 1, sizeof(double));
    double *H = (double *) R_alloc((size_t) p.n + 1, sizeof(double));
    SEXP out = PROTECT(allocMatrix(REALSXP, k, 2));
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < d; j++) {
            lo[j] = REAL(lower)[i + (size_t) k * j];
            hi[j] = REAL(upper)[i + (size_t) k * j];
        }
        program_box(&p, lo, hi, L, H, &REAL(out)[i], &REAL(out)[i + k]);
    }
    UNPROTECT(1);
    return out;
}

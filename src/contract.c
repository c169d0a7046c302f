/* The R/C boundary: one vocabulary for re-checking what an R wrapper passes
 * (the wrapper validates and coerces; C re-checks cheaply and reports a broken
 * invariant as "internal error: ..."), result lists filled by name, and the
 * integer codes of the enums shared with R, by name, for the contract test. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "logz.h"
#include "mip.h"

void logz_internal_error(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    error("internal error: %s", msg);
}

SEXP logz_get(SEXP list, const char *name)
{
    SEXP names = getAttrib(list, R_NamesSymbol);
    if (isNull(names)) return R_NilValue;
    for (R_xlen_t i = 0; i < XLENGTH(list); i++)
        if (strcmp(CHAR(STRING_ELT(names, i)), name) == 0) return VECTOR_ELT(list, i);
    return R_NilValue;
}

/* An element of a named list that the R side must have supplied with this type. */
SEXP logz_need(SEXP list, const char *name, SEXPTYPE type)
{
    SEXP x = logz_get(list, name);
    if (TYPEOF(x) != (int) type)
        logz_internal_error("'%s' missing or of the wrong type", name);
    return x;
}

SEXP logz_need_len(SEXP list, const char *name, SEXPTYPE type, R_xlen_t len)
{
    return logz_arg(logz_need(list, name, type), name, type, len);
}

SEXP logz_arg(SEXP x, const char *what, SEXPTYPE type, R_xlen_t len)
{
    if (TYPEOF(x) != (int) type)
        logz_internal_error("%s must be of type %s", what, type2char(type));
    if (len >= 0 && XLENGTH(x) != len)
        logz_internal_error("%s must have length %lld, not %lld", what, (long long) len,
                            (long long) XLENGTH(x));
    return x;
}

int logz_arg_int(SEXP x, const char *what, int min)
{
    if (TYPEOF(x) != INTSXP || XLENGTH(x) != 1 || INTEGER(x)[0] == NA_INTEGER)
        logz_internal_error("%s must be one integer", what);
    if (INTEGER(x)[0] < min) logz_internal_error("%s must be at least %d", what, min);
    return INTEGER(x)[0];
}

double logz_arg_real(SEXP x, const char *what)
{
    if (TYPEOF(x) != REALSXP || XLENGTH(x) != 1 || ISNAN(REAL(x)[0]))
        logz_internal_error("%s must be one number", what);
    return REAL(x)[0];
}

int logz_arg_code(int code, const char *what, int lo, int hi)
{
    if (code == NA_INTEGER || code < lo || code > hi) logz_internal_error("bad %s code", what);
    return code;
}

void *logz_arg_ptr(SEXP x, const char *what)
{
    if (TYPEOF(x) != EXTPTRSXP) logz_internal_error("not an %s", what);
    void *p = R_ExternalPtrAddr(x);
    if (!p) logz_internal_error("%s has been freed", what);
    return p;
}

/* The element `name` of a list made by mkNamed(VECSXP, names) := value. */
SEXP logz_set(SEXP list, const char *name, SEXP value)
{
    SEXP names = getAttrib(list, R_NamesSymbol);
    R_xlen_t n = isNull(names) ? 0 : XLENGTH(names);
    for (R_xlen_t i = 0; i < n; i++)
        if (strcmp(CHAR(STRING_ELT(names, i)), name) == 0) {
            SET_VECTOR_ELT(list, i, value);
            return value;
        }
    logz_internal_error("the result has no element '%s'", name);
    return value;
}

/* ---- the codes shared with R ---------------------------------------------- */

typedef struct {
    const char *name;
    int code;
} code_pair;
typedef struct {
    const char *r_name;    /* the named integer vector of the R side */
    const code_pair *pairs;
    int n;
} code_table;

#define N_OF(x) ((int) (sizeof(x) / sizeof((x)[0])))
static const code_pair ais_kernel[] = {
    {"auto", LOGZ_KERNEL_AUTO}, {"dense", LOGZ_KERNEL_DENSE}, {"sparse", LOGZ_KERNEL_SPARSE}};
static const code_pair rbm_layer[] = {
    {"hidden", LOGZ_LAYER_HIDDEN}, {"visible", LOGZ_LAYER_VISIBLE}};
static const code_pair marginals[] = {
    {"none", LOGZ_MARGINALS_NONE}, {"node", LOGZ_MARGINALS_NODE}, {"pair", LOGZ_MARGINALS_PAIR}};
static const code_pair prop_family[] = {
    {"uniform", LOGZ_PROP_UNIFORM}, {"normal", LOGZ_PROP_NORMAL},
    {"exponential", LOGZ_PROP_EXPONENTIAL}, {"cauchy", LOGZ_PROP_CAUCHY},
    {"student", LOGZ_PROP_STUDENT}};
static const code_pair interval_op[] = {
    {"const", LOGZ_OP_CONST}, {"var", LOGZ_OP_VAR}, {"col", LOGZ_OP_COL}, {"+", LOGZ_OP_ADD},
    {"-", LOGZ_OP_SUB}, {"*", LOGZ_OP_MUL}, {"/", LOGZ_OP_DIV}, {"neg", LOGZ_OP_NEG},
    {"powi", LOGZ_OP_POWI}, {"powr", LOGZ_OP_POWR}, {"pow", LOGZ_OP_POW}, {"exp", LOGZ_OP_EXP},
    {"log", LOGZ_OP_LOG}, {"sqrt", LOGZ_OP_SQRT}, {"abs", LOGZ_OP_ABS}, {"sin", LOGZ_OP_SIN},
    {"cos", LOGZ_OP_COS}, {"tanh", LOGZ_OP_TANH}, {"sum", LOGZ_OP_SUM}};
static const code_pair astar_model[] = {
    {"r", LOGZ_ASTAR_R}, {"peaky", LOGZ_ASTAR_PEAKY}, {"clutter", LOGZ_ASTAR_CLUTTER},
    {"cauchy_regression", LOGZ_ASTAR_CAUCHY}, {"expr", LOGZ_ASTAR_EXPR},
    {"gaussian_mean", LOGZ_ASTAR_GAUSS_MEAN}};
static const code_pair astar_search[] = {
    {"astar", LOGZ_SEARCH_ASTAR}, {"drill_down", LOGZ_SEARCH_DRILL_DOWN}};
static const code_pair os_refine[] = {
    {"none", LOGZ_REFINE_NONE}, {"sampled_point", LOGZ_REFINE_SAMPLED_POINT},
    {"largest_mass", LOGZ_REFINE_LARGEST_MASS}};
static const code_pair gauss_bound[] = {
    {"constant", LOGZ_GAUSS_BOUND_CONSTANT}, {"linear", LOGZ_GAUSS_BOUND_LINEAR},
    {"quadratic", LOGZ_GAUSS_BOUND_QUADRATIC}};
static const code_pair cont_kernel_codes[] = {
    {"rwm", LOGZ_KERNEL_RWM}, {"mala", LOGZ_KERNEL_MALA}, {"hmc", LOGZ_KERNEL_HMC}};
static const code_pair rts_stat[] = {
    {"sum_q", RTS_SUM_Q}, {"sum_q_d", RTS_SUM_Q_D}, {"n", RTS_N}, {"sum_d", RTS_SUM_D},
    {"sum_d_sq", RTS_SUM_D_SQ}, {"sum_d2", RTS_SUM_D2}};
static const code_pair arm_model[] = {{"gpc", ARM_GPC}, {"ising", ARM_ISING}, {"rbm", ARM_RBM}};
static const code_pair mip_kind_codes[] = {
    {"pairwise", MIP_KIND_PAIRWISE}, {"linear", MIP_KIND_LINEAR}};
static const code_pair mip_branching_codes[] = {
    {"auto", MIP_BRANCH_AUTO}, {"most_fractional", MIP_BRANCH_MOST_FRACTIONAL},
    {"first", MIP_BRANCH_FIRST}};
static const code_pair mip_share_codes[] = {
    {"none", MIP_SHARE_NONE}, {"idle", MIP_SHARE_IDLE}, {"forced", MIP_SHARE_FORCED}};
static const code_pair mip_triangle_codes[] = {
    {"off", MIP_TRI_OFF}, {"on", MIP_TRI_ON}};

static const code_table code_tables[] = {
    {"AIS_KERNEL", ais_kernel, N_OF(ais_kernel)},
    {"RBM_LAYER", rbm_layer, N_OF(rbm_layer)},
    {"MARGINALS", marginals, N_OF(marginals)},
    {"PROP_FAMILY", prop_family, N_OF(prop_family)},
    {"INTERVAL_OP", interval_op, N_OF(interval_op)},
    {"ASTAR_MODEL", astar_model, N_OF(astar_model)},
    {"ASTAR_SEARCH", astar_search, N_OF(astar_search)},
    {"OS_REFINE", os_refine, N_OF(os_refine)},
    {"GAUSS_BOUND", gauss_bound, N_OF(gauss_bound)},
    {"CONT_KERNEL", cont_kernel_codes, N_OF(cont_kernel_codes)},
    {"RTS_STAT", rts_stat, N_OF(rts_stat)},
    {"ARM_MODEL", arm_model, N_OF(arm_model)},
    {"MIP_KIND", mip_kind_codes, N_OF(mip_kind_codes)},
    {"MIP_BRANCHING", mip_branching_codes, N_OF(mip_branching_codes)},
    {"MIP_SHARE", mip_share_codes, N_OF(mip_share_codes)},
    {"MIP_TRIANGLE", mip_triangle_codes, N_OF(mip_triangle_codes)}};

/* list(<R constant> = c(<name> = code, ...), ...) for every enum R mirrors */
SEXP logz_codes_call(void)
{
    int nt = N_OF(code_tables);
    SEXP out = PROTECT(allocVector(VECSXP, nt));
    SEXP names = PROTECT(allocVector(STRSXP, nt));
    for (int t = 0; t < nt; t++) {
        const code_table *ct = &code_tables[t];
        SEXP v = PROTECT(allocVector(INTSXP, ct->n));
        SEXP vn = PROTECT(allocVector(STRSXP, ct->n));
        for (int i = 0; i < ct->n; i++) {
            INTEGER(v)[i] = ct->pairs[i].code;
            SET_STRING_ELT(vn, i, mkChar(ct->pairs[i].name));
        }
        setAttrib(v, R_NamesSymbol, vn);
        SET_VECTOR_ELT(out, t, v);
        SET_STRING_ELT(names, t, mkChar(ct->r_name));
        UNPROTECT(2);
    }
    setAttrib(out, R_NamesSymbol, names);
    UNPROTECT(2);
    return out;
}

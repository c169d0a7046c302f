# GNU GLPK, optional at build time (configure; src/mip_glpk.c): the LP bound of
# GumbelMIP on models that are not attractive. Without it, logz installs and
# every other method works; these helpers let R code and tests explain or skip.
# Each wrapper below is the only .Call site of its routine.

#' Was logz built with GNU GLPK?
#'
#' GLPK (the GNU Linear Programming Kit) solves the LP relaxations of
#' [mip_sample()] (`bound = "lp"`) on a [mip_model()] and with `lp_solver =
#' "glpk"` or `"cycle"`, of [perturb_and_map()] and [blocked_gibbs()] on a
#' [mip_model()], and of [rejection_sample()] on discrete models. It is optional at build time:
#' `configure` links it when `glpk.h` and `-lglpk` are found and prints a note
#' otherwise (`LOGZ_NO_GLPK=1` forces a build without it; Windows builds,
#' `configure.win`, never use it). Without GLPK, those calls stop with an error
#' saying how to get it; the LP bounds of pairwise models by a min cut
#' (attractive models, e.g. Ising models with non-negative weights) or by roof
#' duality (any signs) and `bound = "simple"` need no GLPK.
#'
#' @return `TRUE` or `FALSE`.
#' @seealso [mip_sample()]
#' @examples
#' logz_has_glpk()
#' @export
logz_has_glpk <- function() .Call(C_mip_has_glpk)

# GLPK's version string (NA without GLPK), for benchmark headers.
glpk_version <- function() .Call(C_mip_glpk_version)

# Stop with how to get GLPK when `what` needs it and logz was built without it.
need_glpk <- function(what) {
  if (logz_has_glpk()) return(invisible(TRUE))
  stop_no_call(paste0(
    what, " needs the GNU Linear Programming Kit (GLPK), but logz was built without it. ",
    "Install GLPK (Debian/Ubuntu: apt-get install libglpk-dev; Fedora: dnf install glpk-devel; ",
    "macOS: brew install glpk; conda: conda install -c conda-forge glpk) and reinstall logz. ",
    "Without GLPK, use `bound = \"simple\"`, or on pairwise models (ising, rbm) ",
    "`lp_solver = \"roof\"` (any signs) or \"cut\" (attractive)."))
}

# LP bounds for partial assignments (rows of `fix`: NA free, else 0/1): one
# value per row, -Inf when infeasible, NaN when GLPK fails.
mip_lp_bounds <- function(p, fix, encoding = "compact", what = "An LP bound") {
  need_glpk(what)
  fix <- t(matrix(as.integer(fix), ncol = p$n))
  mip_check_fix(fix, p$n)
  .Call(C_mip_lp_bounds, mip_check_c_model(mip_c_model(p)), mip_lp(p, encoding), fix)
}

# The min-cut bound (max of v, exact on attractive models) of each partial
# assignment (rows of fix: 0/1 fixed, NA free), for tests; no GLPK needed.
mip_cut_bounds <- function(p, fix) {
  if (p$kind != MIP_KIND[["pairwise"]]) internal_error("the cut bound needs a pairwise model")
  fix <- t(matrix(as.integer(fix), ncol = p$n))
  mip_check_fix(fix, p$n)
  .Call(C_mip_cut_bounds, mip_check_c_model(mip_c_model(p)), fix)
}

# The roof-dual bound (the local-polytope LP value, any pairwise model) of each
# partial assignment (rows of fix: 0/1 fixed, NA free) and its half-integral LP
# solution (one row per partial assignment), and the triangle bound of
# src/mip_tri.c run to convergence (NA beyond its size cap), for tests; no
# GLPK needed.
mip_roof_bounds <- function(p, fix) {
  if (p$kind != MIP_KIND[["pairwise"]]) internal_error("the roof-dual bound needs a pairwise model")
  fix <- t(matrix(as.integer(fix), ncol = p$n))
  mip_check_fix(fix, p$n)
  r <- .Call(C_mip_roof_bounds, mip_check_c_model(mip_c_model(p)), fix)
  list(value = r$value, tau = t(r$tau), triangle = r$triangle)
}

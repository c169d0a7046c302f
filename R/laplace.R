#' Laplace base for a log density written in R
#'
#' Finds the mode of an unnormalised log density \eqn{\log f} by
#' [stats::optim()] (BFGS, with `gradient` when given) and fits the Gaussian
#' (or a Student-t product with the same location and scale) at it: the location is the
#' mode \eqn{\hat x} and the scale matrix is \eqn{H^{-1}}, where
#' \eqn{H = -\nabla^2 \log f(\hat x)} is computed by [stats::optimHess()]
#' (finite differences of the gradient). The annealing estimators use it as
#' their base through the affine map \eqn{x = \hat x + C z}, \eqn{C C^T =
#' H^{-1}} (\eqn{C} the inverse of the Cholesky factor of \eqn{H}): they
#' anneal from the standard base in \eqn{z} to \eqn{f(\hat x + C z)|C|}, whose
#' normalising constant is that of \eqn{f}. For a near-Gaussian target the
#' base is then close to the target, so short schedules suffice.
#'
#' The object also gives the Laplace approximation
#' \eqn{\log Z \approx \log f(\hat x) + \frac d2 \log 2\pi - \frac12 \log|H|}
#' (`log_z_laplace`), exact for a Gaussian target.
#'
#' @param model a function of a point (a numeric vector of length `d`), or
#'   with `vectorized = TRUE` of an `M` x `d` matrix of points, returning the
#'   log of an unnormalised density.
#' @param start a point of length `d` where `model` is finite: the start of
#'   the mode search.
#' @param gradient `NULL` or a function returning the gradient of `model`
#'   (a vector of length `d`; with `vectorized = TRUE` an `M` x `d` matrix).
#' @param vectorized `TRUE` if `model` (and `gradient`) take a matrix of points.
#' @param df degrees of freedom of the base: a positive number (default 5)
#'   for a product of Student-t distributions in the whitened coordinates
#'   (tails heavier than the Gaussian fit's, so that a skewed or curved target
#'   is still covered), `Inf` for the Gaussian.
#' @return An object of class `logz_laplace`: `mode` (length `d`), `chol_cov`
#'   (the `d` x `d` upper triangular \eqn{C}), `log_det` (\eqn{\log|C|}),
#'   `df`, `log_f_mode`, `log_z_laplace`, `converged` (optim's convergence
#'   code was 0), `evaluations` (calls of `model` and `gradient` by optim and
#'   optimHess, per point).
#' @section Errors: `start` not finite or of the wrong length; `model` not
#'   finite at `start`; `gradient` disagreeing with central finite
#'   differences of `model` at `start` (checked before the search); a search
#'   that leaves the support (the log density `-Inf` where it stops, where it
#'   asks for the gradient, or within the Hessian's finite-difference steps,
#'   1e-3, of the mode); a mode search that diverges (the log density grows
#'   without bound: the target is not normalisable); a Hessian that is not
#'   positive definite at the mode (a flat direction or a saddle): give the
#'   estimator an explicit `base` then.
#' @references
#' * Tierney, L. and Kadane, J. B. (1986). Accurate approximations for posterior
#'   moments and marginal densities. JASA 81, 82-86.
#' @seealso [ais.function()] (`base = "laplace"`, its default)
#' @examples
#' f <- function(x) -0.5 * sum((x - c(1, 2))^2 / c(1, 4))
#' lb <- laplace_base(f, start = c(0, 0), gradient = function(x) -(x - c(1, 2)) / c(1, 4),
#'                    df = Inf)
#' lb
#' lb$log_z_laplace - log(2 * pi * 2)   # 0: exact for a Gaussian
#' @export
laplace_base <- function(model, start, gradient = NULL, vectorized = FALSE, df = 5) {
  if (!is.function(model))
    stop_no_call(sprintf("`model` must be a function returning a log density, not %s.",
                         describe(model)))
  check_gradient_arg(gradient)
  check_flag(vectorized, "vectorized")
  if (missing(start) || is.null(start))
    stop_no_call("`start` must be given: a point (numeric vector) where the log density is finite.")
  check_finite_numeric(start, "start")
  if (!length(start)) stop_no_call("`start` must have length >= 1.")
  if (!identical(df, Inf)) df <- check_number(df, "df", lower = 0, lower_open = TRUE)
  laplace_fit(model, as.double(start), gradient, vectorized, df)
}

# The body of laplace_base() on checked arguments. `check_gradient = FALSE`
# skips the finite-difference check of `gradient` at `start` (for starts of
# a search whose gradient was checked already); `keep(mode)` is asked before
# the Hessian is taken: when it returns FALSE the fit stops there and
# returns NULL (a search that already knows that mode saves the 2 d
# gradients of the Hessian).
laplace_fit <- function(model, start, gradient, vectorized, df, check_gradient = TRUE,
                        keep = NULL) {
  d <- length(start)
  n_f <- 0
  n_g <- 0
  # the last point and its value: optim() asks for the gradient where it
  # has just evaluated the density, and neggr() checks that density again
  last_x <- NULL
  last_v <- NULL
  f1 <- function(x) {
    if (identical(x, last_x)) return(last_v)
    n_f <<- n_f + 1
    v <- eval_log_density(model, matrix(x, 1L), vectorized, d)
    last_x <<- x
    last_v <<- v
    v
  }
  g1 <- if (!is.null(gradient)) function(x) {
    n_g <<- n_g + 1
    eval_gradient(gradient, matrix(x, 1L), TRUE, vectorized, d)[1, ]
  }
  lf0 <- f1(start)
  if (!is.finite(lf0))
    stop_no_call(sprintf("`model` is -Inf at `start` (%s): start from a point in the support.",
                         format_point(start)))
  # the gradient is checked where the search starts, before it can mislead it
  if (!is.null(gradient) && check_gradient) {
    check_gradient_fd(model, gradient, matrix(as.double(start), 1L), vectorized, d)
    n_f <- n_f + 2 * d + 1
    n_g <- n_g + 1
  }
  big <- -log(.Machine$double.xmin)
  negf <- function(x) {
    v <- f1(x)
    if (v == -Inf) big else -v
  }
  # the search and the Hessian's differences stay where log f is finite:
  # a gradient asked for outside the support is an error that says so
  neggr <- if (!is.null(g1)) function(x) {
    if (f1(x) == -Inf) laplace_left_support(x, "the gradient was asked for")
    -g1(x)
  }
  opt <- stats::optim(as.double(start), negf, neggr, method = "BFGS",
                      control = list(maxit = 1000L, reltol = 1e-12))
  mode <- opt$par
  lf <- f1(mode)
  if (all(is.finite(mode)) && lf == -Inf)
    laplace_left_support(mode, "it stopped")
  if (!is.null(keep) && all(is.finite(mode)) && is.finite(lf) && !keep(mode)) return(NULL)
  # optimHess() differences with steps of 1e-3
  if (all(is.finite(mode)) && is.finite(lf)) {
    steps <- rbind(sweep(diag(1e-3, d), 2L, mode, "+"), sweep(diag(-1e-3, d), 2L, mode, "+"))
    out <- which(vapply(seq_len(2L * d), function(i) f1(steps[i, ]) == -Inf, TRUE))
    if (length(out))
      laplace_left_support(steps[out[1], ], sprintf(
        "the mode (%s) is within 1e-3 of the edge of the support, where the Hessian's differences reach",
        format_point(mode)))
  }
  if (!all(is.finite(mode)) || !is.finite(lf) || lf > 1e300)
    stop_no_call(sprintf(paste0("the mode search diverged (last point (%s), log density %s): the ",
                                "target may not be normalisable; give a `base` proposal instead."),
                         format_point(mode), format(lf)))
  H <- stats::optimHess(mode, negf, neggr)
  H <- (H + t(H)) / 2
  R <- if (all(is.finite(H))) tryCatch(chol(H), error = function(e) NULL)
  if (is.null(R))
    stop_no_call(sprintf(paste0("the Hessian of -log f at the mode (%s) is not positive definite ",
                                "(smallest eigenvalue %s): the target is flat or the search stopped ",
                                "at a saddle; give `base` as a proposal (e.g. proposal_normal())."),
                         format_point(mode),
                         if (all(is.finite(H))) format(min(eigen(H, TRUE, TRUE)$values), digits = 3)
                         else "not finite"))
  C <- backsolve(R, diag(d))
  log_det <- sum(log(diag(C)))
  structure(list(mode = mode, chol_cov = C, log_det = log_det, df = df, log_f_mode = lf,
                 log_z_laplace = lf + d / 2 * log(2 * pi) + log_det,
                 converged = opt$convergence == 0L, dim = d,
                 evaluations = c(density = n_f, gradient = n_g)),
            class = "logz_laplace")
}

# Stop: the mode search reached a point x where the log density is -Inf.
laplace_left_support <- function(x, what) {
  stop_no_call(sprintf(paste0("the mode search left the support: %s at (%s), where the log density ",
                              "is -Inf. The mode may lie on (or the target be cut by) a bound: ",
                              "state the bounds (`lower`/`upper` of smc() and log_partition(), ",
                              "which fit in unconstrained coordinates) or give `base` as a ",
                              "proposal that is 0 outside the support."), what, format_point(x)))
}

# The standard base in the whitened coordinates z of a logz_laplace.
laplace_std_proposal <- function(lb) {
  if (is.finite(lb$df)) proposal_student(lb$df, rep(0, lb$dim), 1) else
    proposal_normal(rep(0, lb$dim), 1)
}

# x = mode + C z for the rows of Z.
laplace_to_x <- function(lb, Z) sweep(Z %*% t(lb$chol_cov), 2L, lb$mode, "+")

# The target and gradient in z: f(mode + C z) |C|, and C' grad f (NA where
# not finite: the caller's evaluator decides whether that is an error).
laplace_whiten <- function(lb, model, gradient, vectorized) {
  d <- lb$dim
  m <- function(Z) {
    X <- laplace_to_x(lb, Z)
    eval_log_density(model, X, vectorized, d, lenient = TRUE) + lb$log_det
  }
  g <- if (!is.null(gradient)) function(Z) {
    X <- laplace_to_x(lb, Z)
    eval_gradient(gradient, X, rep(TRUE, nrow(X)), vectorized, d, lenient = TRUE) %*% lb$chol_cov
  }
  list(model = m, gradient = g)
}

validate_laplace <- function(fit, name = "base") {
  need_list(fit, name, "laplace_base()")
  d <- need_count(fit, name, "dim")
  need_numeric(fit, name, "mode", d)
  C <- need_matrix(fit, name, "chol_cov", d, d)
  if (any(C[lower.tri(C)] != 0) || any(diag(C) <= 0))
    bad_field(name, "chol_cov", "be an upper-triangular factor with a positive diagonal",
              fit$chol_cov)
  need_numeric(fit, name, "log_det", 1L)
  df <- fit$df
  if (!is.numeric(df) || length(df) != 1L || is.na(df) || !(df > 0))
    bad_field(name, "df", "be a positive number or Inf", df)
  invisible(fit)
}

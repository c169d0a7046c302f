# Stan models as targets: a fitted rstan model's log density and gradient on
# the unconstrained space, handed to the estimators of R log densities.

#' Stan models as targets
#'
#' The evidence (log marginal likelihood) of a Stan model in one call:
#' `log_partition(fit)`, `smc(fit)`, `ais(fit)` or `rts(fit)` on a fitted
#' \pkg{rstan} model (a `stanfit` with posterior draws). `stan_target()` is the adapter
#' they use: it returns the model's log density and its gradient on the
#' unconstrained space, as R functions of a matrix of points (one per row) of
#' the form [ais.function()] takes, with a starting point.
#'
#' The target is \eqn{\log f(u) = \log p(y, \theta(u)) + \log|J(u)|}, Stan's
#' `log_prob(fit, u, adjust_transform = TRUE)` at the unconstrained
#' parameters \eqn{u} (of dimension `rstan::get_num_upars(fit)`), with the
#' Jacobian \eqn{J} of the map from \eqn{u} to the constrained parameters
#' \eqn{\theta}, and its gradient by `rstan::grad_log_prob()`; so
#' \eqn{\int f(u)\,du = \int p(y, \theta)\,d\theta = p(y)}. The estimators
#' then run as on an R function with that gradient, with HMC transitions by
#' default.
#'
#' **The base.** The draws the fit holds are the posterior already paid
#' for. By default (`base = "draws"`) the estimators start from a base fitted
#' to them: every draw is mapped to the unconstrained space
#' (`rstan::unconstrain_pars()`), and the base is the Gaussian with the
#' draws' mean \eqn{m} and covariance \eqn{S}, used in the whitened
#' coordinates \eqn{z}, \eqn{u = m + C z} with \eqn{C C^T = S} (a
#' [laplace_base()] object located at the mean); with a finite `df`, a
#' product of Student-t distributions in \eqn{z} instead (heavier tails, but
#' in many dimensions a product of t's is far from any posterior's shape).
#' On a hierarchical model the posterior mode
#' lies in the neck of the funnel of the group scale, away from the mass, and
#' the curvature there understates the spread, so the draws' moments give a
#' base much closer to the posterior than the Laplace fit at the mode; it
#' costs no evaluation of the model. `base = "laplace"` gives the Laplace
#' base instead, fitted at the mode found by a search from the draw of
#' highest `lp__`, and any other `base` of [ais.function()] is handed on.
#'
#' **The default.** `log_partition(fit)` runs [smc()] from the base fitted to
#' the draws: adaptive tempering with HMC moves, whose se comes from
#' independent replicates (`vignette("evidence", package = "logz")`).
#'
#' **The model must keep every normalising constant.** A Stan sampling
#' statement `y ~ normal(mu, sigma);` drops the terms of the density that do
#' not depend on parameters, which changes nothing for sampling but makes the
#' evidence wrong (and Bayes factors between models wrong unless the dropped
#' terms happen to be equal). Write every prior and likelihood term as
#' `target += normal_lpdf(y | mu, sigma);` instead (as for
#' `bridgesampling::bridge_sampler()`), and keep the normalising constants of
#' truncated or constrained priors (e.g. a half-normal prior on
#' `real<lower=0> sigma` needs `+ log(2)`). This cannot be detected in
#' general: the code is scanned for `~` statements, which give a warning of
#' class `logz_stan_tilde`, but a constant lost otherwise goes unnoticed.
#'
#' @param fit a `stanfit` from `rstan::sampling()` or `rstan::stan()` with
#'   posterior draws (its model and data define the target; the draws give
#'   the start of the mode search, and are checked against the model).
#' @param stanfit_model `NULL` (evaluate with `fit`'s own compiled model), or
#'   a `stanfit` of the same model and data made in this R session, e.g.
#'   `rstan::sampling(stan_model, data = data, chains = 0)`: needed when `fit`
#'   was read from a file (its compiled model is then gone), as for
#'   `bridgesampling::bridge_sampler(stanfit_model = )`.
#' @param model for the methods: a `stanfit` (as `fit`).
#' @param start `NULL` (the unconstrained draw of highest `lp__`) or a point
#'   on the unconstrained space (length `rstan::get_num_upars(fit)`): the
#'   start of the Laplace fit's mode search.
#' @param base `"draws"` (default: the base fitted to the posterior draws,
#'   see "The base"), `"laplace"`, or any other `base` that [ais.function()]
#'   takes (a `logz_proposal` or a [laplace_base()] fit on the unconstrained
#'   space).
#' @param df for `base = "draws"`: `Inf` (default) for the Gaussian, or the
#'   degrees of freedom of Student-t factors, a positive number.
#' @param ... for `ais()`, `rts()`, `smc()` and `log_partition()`: the
#'   arguments of [ais.function()], [rts()] on a function, [smc()] on a
#'   function and [log_partition()] (e.g. `n_chains`, `particles`, `kernel`,
#'   `schedule`, `progress`), except `gradient` and `vectorized`, which the
#'   Stan model supplies.
#' @return `stan_target()`: an object of class `logz_stan_target`, a list
#'   with `log_density` and `gradient` (functions of an `M` x `d` matrix of
#'   unconstrained points returning `M` log densities and an `M` x `d`
#'   matrix; a point where Stan throws, e.g. a rejected constraint, has log
#'   density `-Inf`), `dim` (`d`), `start` (the unconstrained draw of highest
#'   `lp__`), `name` (the model's name), `draws` (the number of posterior
#'   draws), `draws_u` (`NULL`; the `draws` x `d` matrix of unconstrained
#'   draws when the base is fitted to them) and `fit` (the `stanfit`
#'   evaluated). The methods return the estimate of [ais.function()],
#'   [rts()] or [smc()] (the `logz_estimate` of the chosen method for
#'   `log_partition()`), on the unconstrained space (its `x` holds
#'   unconstrained points), with `target` naming the Stan model and
#'   `base$how` saying which base was used.
#' @section Errors: \pkg{rstan} not installed; `fit` not a `stanfit`; a
#'   `stanfit` without posterior draws (made with `chains = 0`, by
#'   `test_grad`, or a failed run: sample it first, or give it as
#'   `stanfit_model`); a `fit` whose compiled model is not available in this
#'   session (read from a file: give `stanfit_model`); a `stanfit_model` of
#'   another model (other parameters) or whose log density disagrees with the
#'   `lp__` of `fit`'s draws (another model or other data); draws lacking a
#'   parameter (sampled with `pars = `); `start` of the wrong length or where
#'   the log density is `-Inf`; `gradient` or `vectorized` given; with
#'   `base = "draws"`, fewer than \eqn{2(d + 1)} draws or draws whose
#'   covariance is singular (use `base = "laplace"`), or `df` not a positive
#'   number; `df` given with another `base`.
#' @references
#' * Carpenter, B. et al. (2017). Stan: a probabilistic programming language. Journal
#'   of Statistical Software 76(1).
#' * Gronau, Q. F., Singmann, H. and Wagenmakers, E.-J. (2020). bridgesampling: an R
#'   package for estimating normalizing constants. Journal of Statistical Software
#'   92(10).
#' @seealso [smc()], [ais.function()], [rts()], [log_partition()];
#'   [logml.logz_estimate()] for Bayes factors against `bridge` objects.
#' @examples
#' \dontrun{
#' # needs rstan and a C++ toolchain; compiling takes about a minute
#' code <- "data { int<lower=1> n; vector[n] y; }
#'   parameters { real mu; real<lower=0> sigma; }
#'   model {
#'     target += normal_lpdf(mu | 0, 2);
#'     target += lognormal_lpdf(sigma | 0, 1);
#'     target += normal_lpdf(y | mu, sigma);   // not y ~ normal(mu, sigma)
#'   }"
#' sm <- rstan::stan_model(model_code = code)
#' fit <- rstan::sampling(sm, data = list(n = 10, y = rnorm(10, 1)), refresh = 0)
#' ev <- log_partition(fit)             # SMC with HMC from the base fitted to the draws
#' ev
#' ais(fit)                             # AIS from the same base
#' log_partition(fit, method = "rts")
#' # next to bridge sampling on the same fit
#' bridgesampling::bf(ev, bridgesampling::bridge_sampler(fit, silent = TRUE), log = TRUE)
#' }
#' @export
stan_target <- function(fit, stanfit_model = NULL) {
  stan_target_make(fit, stanfit_model, joint_gradient = TRUE)
}

# What log_partition(fit) runs: see the help page, "The default".
STAN_AUTO_METHOD <- "smc"

# Run `estimator` (a function of an R log density and the arguments of
# ais.function()) on the Stan model of `fit`, from the base `base`.
stan_estimate <- function(estimator, fit, base, df, stanfit_model, start, call, ...,
                          is_smc = FALSE) {
  given <- ...names()
  taken <- intersect(c("gradient", "vectorized"), given)
  if (length(taken))
    stop_no_call(sprintf("`%s` must not be given for a Stan model: the model supplies its %s.",
                         taken[1], if (taken[1] == "gradient") "gradient (rstan::grad_log_prob)"
                         else "log density as a function of a matrix of points"))
  from_draws <- identical(base, "draws")
  if (is.character(base) && !(length(base) == 1L && base %in% c("draws", "laplace", "laplace_normal")))
    stop_no_call(sprintf(paste0("`base` of a Stan model must be \"draws\" (default), \"laplace\", ",
                                "\"laplace_normal\", a laplace_base() fit or a logz_proposal, not %s."),
                         describe(base)))
  if (!from_draws && !identical(df, Inf))
    stop_no_call("`df` applies only to `base = \"draws\"` (for the Laplace base see laplace_base()).")
  if (from_draws && !identical(df, Inf)) df <- check_number(df, "df", lower = 0, lower_open = TRUE)
  kernel <- if ("kernel" %in% given) list(...)[["kernel"]]
  tg <- stan_target_make(fit, stanfit_model, joint_gradient = !identical(kernel, "rwm"),
                         all_draws = from_draws)
  start_given <- start
  if (is.null(start)) start <- tg$start else {
    check_finite_numeric(start, "start")
    if (length(start) != tg$dim)
      stop_no_call(sprintf(paste0("`start` must be a point on the unconstrained space of the Stan ",
                                  "model (length %d), not %s."), tg$dim, describe(start)))
  }
  if (from_draws) base <- stan_draws_base(tg, df)
  # smc()'s multi-start search for modes beyond a Laplace fit is not run from
  # the draws' base unless asked for: the draws already show where the
  # posterior mass is
  skip_search <- if (from_draws && is_smc && !"mode_starts" %in% given) list(mode_starts = 0L)
  out <- do.call(estimator, c(list(tg$log_density, gradient = tg$gradient, vectorized = TRUE,
                                   start = if (inherits(base, "logz_proposal")) start_given else start,
                                   base = base), skip_search, list(...)))
  if (from_draws) out$base$how <- sub("^given", attr(base, "how"), out$base$how)
  out$call <- call
  out$target <- sprintf("the Stan model '%s'", tg$name)
  out
}

# The base fitted to the posterior draws on the unconstrained space: a
# Student-t product (df) or Gaussian (df = Inf) in the coordinates whitened
# by the draws' mean and covariance, as a logz_laplace (location = the mean,
# upper-triangular C with C C' = the covariance). Fewer than 2(d + 1) draws
# or a singular covariance give an error that points to base = "laplace".
stan_draws_base <- function(tg, df) {
  U <- tg$draws_u
  d <- tg$dim
  n <- nrow(U)
  if (n < 2L * (d + 1L))
    stop_no_call(sprintf(paste0("`base = \"draws\"` fits the base to the posterior draws, but `fit` ",
                                "holds %d draws of %d unconstrained parameters (at least %d needed): ",
                                "sample longer, or use `base = \"laplace\"`."), n, d, 2L * (d + 1L)))
  S <- stats::cov(U)
  R <- tryCatch(chol(solve(S)), error = function(e) NULL)
  if (is.null(R) || !all(is.finite(R)))
    stop_no_call(paste0("`base = \"draws\"`: the covariance of the unconstrained posterior draws ",
                        "is singular (a parameter that does not vary in the draws): use ",
                        "`base = \"laplace\"`."))
  C <- backsolve(R, diag(d))
  mu <- colMeans(U)
  lf <- tg$log_density(matrix(mu, 1L))
  log_det <- sum(log(diag(C)))
  structure(list(mode = mu, chol_cov = C, log_det = log_det, df = df, log_f_mode = lf,
                 log_z_laplace = lf + d / 2 * log(2 * pi) + log_det, converged = TRUE, dim = d,
                 evaluations = c(density = 0, gradient = 0)),
            class = "logz_laplace",
            how = sprintf("%s fitted to the %d posterior draws (mean and covariance)",
                          if (is.finite(df)) sprintf("Student-t (df %g)", df) else "Gaussian", n))
}

stan_target_make <- function(fit, stanfit_model, joint_gradient, all_draws = FALSE) {
  if (!requireNamespace("rstan", quietly = TRUE))
    stop_no_call("Stan models as targets need the rstan package: install.packages(\"rstan\").")
  check_stanfit(fit, "fit")
  draws <- stan_draws(fit, all = all_draws)
  ev <- if (is.null(stanfit_model)) fit else {
    check_stanfit(stanfit_model, "stanfit_model", draws = FALSE)
    if (!identical(fit@par_dims, stanfit_model@par_dims))
      stop_no_call(sprintf(paste0("`stanfit_model` is a fit of another model than `fit`: its ",
                                  "parameters are %s, those of `fit` are %s."),
                           stan_par_string(stanfit_model), stan_par_string(fit)))
    stanfit_model
  }
  d <- tryCatch(as.integer(rstan::get_num_upars(ev)), error = function(e) NULL)
  if (is.null(d))
    stop_no_call(sprintf(paste0("the compiled model of `%s` is not available in this R session (a ",
                                "stanfit read from a file loses it): give `stanfit_model = ",
                                "rstan::sampling(<the stanmodel>, data = <the same data>, chains = 0)`."),
                         if (is.null(stanfit_model)) "fit" else "stanfit_model"))
  if (stan_code_uses_tilde(stan_model_code(fit)))
    warning(structure(class = c("logz_stan_tilde", "warning", "condition"), list(
      message = paste0("the Stan program uses `~` statements, which drop the constant terms of ",
                       "the density: the estimate is then the evidence of the model without them. ",
                       "Write `target += normal_lpdf(y | mu, sigma);` instead of ",
                       "`y ~ normal(mu, sigma);` for every prior and likelihood term."),
      call = NULL)))
  U <- stan_unconstrain(ev, fit, draws)
  lp_model <- vapply(draws$check, function(i) rstan::log_prob(ev, U[i, ]), numeric(1))
  if (draws$check_lp) {
    lp_draws <- draws$lp[draws$check]
    bad <- which(abs(lp_model - lp_draws) > 1e-6 * (1 + abs(lp_draws)))
    if (length(bad))
      stop_no_call(sprintf(paste0("the draws of `fit` do not match the model evaluated: lp__ of a ",
                                  "draw is %.6g but the model's log density there is %.6g; ",
                                  "`stanfit_model` must be a fit of the same model with the same ",
                                  "data as `fit`."), lp_draws[bad[1]], lp_model[bad[1]]))
  }
  evaluator <- stan_evaluator(ev, d, joint_gradient, U[draws$check[which.max(lp_model)], ])
  structure(list(log_density = evaluator$log_density, gradient = evaluator$gradient, dim = d,
                 start = U[draws$check[which.max(lp_model)], ], name = fit@model_name,
                 draws = draws$n, draws_u = if (all_draws) U, fit = ev),
            class = "logz_stan_target")
}

check_stanfit <- function(x, name, draws = TRUE) {
  if (!inherits(x, "stanfit") || !isS4(x))
    stop_no_call(sprintf("`%s` must be a stanfit (from rstan::sampling() or rstan::stan()), not %s.",
                         name, if (isS4(x)) class(x)[1] else describe(unclass(x))))
  if (draws && (x@mode != 0L || !length(x@sim) || stan_n_draws(x) == 0L))
    stop_no_call(sprintf(paste0("`%s` holds no posterior draws (it was made with chains = 0, by ",
                                "test_grad, or its sampling failed): sample the model first, e.g. ",
                                "rstan::sampling(model, data = data), or give this fit as ",
                                "`stanfit_model` beside a fit with draws."), name))
  invisible(x)
}

stan_n_draws <- function(fit) {
  n <- fit@sim$n_save - fit@sim$warmup2
  if (is.null(n) || !length(n)) 0L else as.integer(sum(n))
}

stan_par_string <- function(fit) {
  pd <- fit@par_dims
  pd <- pd[setdiff(names(pd), "lp__")]
  paste(sprintf("%s[%s]", names(pd), vapply(pd, function(v) paste(v, collapse = ","), "")),
        collapse = ", ")
}

stan_model_code <- function(fit) {
  code <- tryCatch(fit@stanmodel@model_code, error = function(e) "")
  paste(as.character(code), collapse = "\n")
}

# Does Stan code hold a sampling statement `~` (outside comments and strings)?
stan_code_uses_tilde <- function(code) {
  code <- paste(code, collapse = "\n")
  code <- gsub("/\\*.*?\\*/", " ", code, perl = TRUE)
  code <- gsub("(//|#)[^\n]*", " ", code)
  code <- gsub("\"[^\"\n]*\"", " ", code)
  grepl("~", code, fixed = TRUE)
}

# A few posterior draws: the one of highest lp__ and up to `n_check - 1`
# others spread over the run, as lists of constrained parameters, with their
# lp__ (checked against the model only for MCMC draws, whose lp__ is the log
# density at the draw; variational draws carry none).
stan_draws <- function(fit, n_check = 5L, all = FALSE) {
  ex <- rstan::extract(fit, permuted = TRUE)
  lp <- as.double(ex$lp__)
  n <- length(lp)
  chk <- unique(c(which.max(lp), round(seq(1, n, length.out = n_check - 1L))))
  idx <- if (all) seq_len(n) else chk
  pars <- setdiff(fit@model_pars, "lp__")
  one <- function(i) lapply(ex[pars], function(a) {
    dm <- dim(a)
    if (is.null(dm) || length(dm) == 1L) return(a[i])
    v <- a[i + length(lp) * (seq_len(prod(dm[-1L])) - 1L)]
    if (length(dm) == 2L) v else array(v, dm[-1L])
  })
  alg <- tryCatch(fit@stan_args[[1L]]$algorithm, error = function(e) NULL)
  list(pars = lapply(idx, one), lp = lp[idx], n = n, check = match(chk, idx),
       check_lp = !is.null(alg) && alg %in% c("NUTS", "HMC"))
}

# The unconstrained draws (rows) of `draws` under the model of `ev`.
stan_unconstrain <- function(ev, fit, draws) {
  U <- lapply(draws$pars, function(p) tryCatch(rstan::unconstrain_pars(ev, p),
                                               error = function(e) conditionMessage(e)))
  bad <- which(vapply(U, is.character, logical(1)))
  if (length(bad))
    stop_no_call(sprintf(paste0("the draws of `fit` cannot be mapped to the unconstrained space ",
                                "(%s): `fit` must hold draws of every parameter (do not sample with ",
                                "`pars = `), and `stanfit_model` must be the same model."),
                         trimws(U[[bad[1]]])))
  do.call(rbind, U)
}

# The log density and gradient of a stanfit at the rows of a matrix. A point
# where Stan throws (a constraint or argument check fails) has log density
# -Inf, NaN is -Inf too. With `joint`, each log density comes with its
# gradient from the same call (Stan computes both at once), kept for the
# gradient request that follows at the same points. The rows are evaluated
# under one error handler, and one at a time only when a row throws.
stan_evaluator <- function(ev, d, joint, at) {
  lp <- stan_log_prob_fun(ev, at)
  last <- NULL
  # list(v, G) at the columns of Xt (G NULL without gradients)
  rows <- function(Xt, gradient) {
    n <- ncol(Xt)
    v <- numeric(n)
    G <- if (gradient) matrix(NA_real_, n, d)
    one <- function(i, r) {
      v[i] <<- r[[1L]]
      if (gradient && is.finite(v[i])) G[i, ] <<- attr(r, "gradient")
    }
    done <- tryCatch({
      for (i in seq_len(n)) one(i, lp(Xt[, i], gradient))
      TRUE
    }, error = function(e) FALSE)
    if (!done) for (i in seq_len(n))
      one(i, tryCatch(lp(Xt[, i], gradient), error = function(e) -Inf))
    v[is.nan(v)] <- -Inf
    list(v = v, G = G)
  }
  log_density <- function(X) {
    X <- matrix(X, ncol = d)
    r <- rows(t(X), joint)
    if (joint) last <<- list(X = X, G = r$G)
    r$v
  }
  gradient <- function(X) {
    X <- matrix(X, ncol = d)
    same <- function(Y) isTRUE(max(abs(Y - X)) <= 1e-12 * (1 + max(abs(X))))
    if (!is.null(last)) {
      if (nrow(last$X) == nrow(X) && same(last$X)) return(last$G)
      ok <- !is.na(last$G[, 1L])
      if (sum(ok) == nrow(X) && same(last$X[ok, , drop = FALSE])) return(last$G[ok, , drop = FALSE])
    }
    rows(t(X), TRUE)$G
  }
  list(log_density = log_density, gradient = gradient)
}

# log p(u) (with the Jacobian; the gradient as attribute "gradient" when
# asked) of a stanfit as a function of (u, gradient): the log_prob method of
# the fit's compiled model instance, looked up once (rstan::log_prob() finds
# and checks it on every call, which costs several times Stan's own
# evaluation on a small model), or rstan::log_prob() itself when that method
# is not there or disagrees with it at the unconstrained point `at`.
stan_log_prob_fun <- function(ev, at) {
  slow <- function(u, gradient) rstan::log_prob(ev, u, adjust_transform = TRUE, gradient = gradient)
  inst <- tryCatch(get("stan_fit_instance", envir = ev@.MISC, inherits = FALSE),
                   error = function(e) NULL)
  method <- if (!is.null(inst)) tryCatch(inst$log_prob, error = function(e) NULL)
  if (!is.function(method)) return(slow)
  fast <- function(u, gradient) method(u, TRUE, gradient)
  a <- tryCatch(fast(at, TRUE), error = function(e) NULL)
  b <- tryCatch(slow(at, TRUE), error = function(e) NULL)
  agree <- !is.null(a) && !is.null(b) && isTRUE(all.equal(c(a), c(b))) &&
    isTRUE(all.equal(attr(a, "gradient"), attr(b, "gradient")))
  if (agree) fast else slow
}

#' A Bayesian model as prior and likelihood
#'
#' `bayes_model()` describes a model by its normalised log prior density, its
#' log-likelihood and a sampler of the prior, so that [smc()] (and
#' [log_partition()]) can estimate its evidence (marginal likelihood)
#' \eqn{Z = \int p(\theta)\, L(\theta)\, d\theta}{Z = int p(theta) L(theta) dtheta}
#' along the power posteriors
#' \eqn{\pi_\beta(\theta) \propto p(\theta) L(\theta)^\beta}{pi_beta ∝ p L^beta},
#' \eqn{0 \le \beta \le 1}, which start at the prior (Friel and Pettitt 2008).
#'
#' The prior must be a proper, normalised density (every constant kept): the
#' evidence is only defined up to the prior's normalising constant otherwise,
#' and it cannot be detected from the functions. The log-likelihood must
#' include its constants too (e.g. \eqn{-\frac n2 \log 2\pi\sigma^2}) for
#' the evidence to be comparable across models.
#'
#' The constructor checks the pieces on `n_check` prior draws: the sampler
#' returns an `n` x `dim` matrix of finite numbers, `log_prior` is finite at
#' them, `log_lik` is a number or `-Inf` at each (not `NA`, `NaN` or `+Inf`)
#' and finite at one at least, and the gradients (when given) agree with
#' central finite differences of their log densities at two of the draws.
#'
#' @param log_prior a function returning the log prior density at a point (a
#'   numeric vector of length `dim`), or with `vectorized = TRUE` at the `M`
#'   rows of an `M` x `dim` matrix.
#' @param log_lik the log-likelihood, a function of the same form.
#' @param prior_sampler a function of `n` returning `n` independent prior
#'   draws as an `n` x `dim` matrix (a vector of length `n` when `dim` is 1);
#'   it should draw from R's RNG so that [set.seed()] reproduces a run.
#' @param gradient_prior,gradient_lik `NULL`, or functions returning the
#'   gradients of `log_prior` and `log_lik` (a vector of length `dim`, or
#'   with `vectorized = TRUE` an `M` x `dim` matrix); both are needed for
#'   the gradient kernels (`"mala"`, `"hmc"`) of [smc()].
#' @param dim the number of parameters; `NULL` (default) takes it from the
#'   sampler's draws.
#' @param vectorized `TRUE` if the four functions of a point take a matrix of
#'   points (one per row).
#' @param n_check prior draws the checks use (>= 2).
#' @return An object of class `logz_bayes_model`: the functions, `dim`,
#'   `vectorized` and `has_gradient`.
#' @section Errors: a piece that is not a function (or a gradient given
#'   without the other); a sampler that returns something other than an `n`
#'   x `dim` matrix of finite numbers (naming what it returned); `log_prior`
#'   not finite at a prior draw; `log_lik` `NA`, `NaN` or `+Inf` at a prior
#'   draw, or `-Inf` at all of them; a gradient of the wrong shape or that
#'   disagrees with finite differences.
#' @references
#' * Friel, N. and Pettitt, A. N. (2008). Marginal likelihood estimation via power
#'   posteriors. JRSS B 70, 589-607.
#' @seealso [smc()]
#' @examples
#' # y_i ~ N(theta, 1), theta ~ N(0, 2^2): the evidence is a Gaussian density of y
#' set.seed(1)
#' y <- rnorm(20, 0.5)
#' m <- bayes_model(
#'   log_prior = function(th) dnorm(th, 0, 2, log = TRUE),
#'   log_lik = function(th) sum(dnorm(y, th, 1, log = TRUE)),
#'   prior_sampler = function(n) rnorm(n, 0, 2),
#'   gradient_prior = function(th) -th / 4,
#'   gradient_lik = function(th) sum(y - th))
#' m
#' @export
bayes_model <- function(log_prior, log_lik, prior_sampler, gradient_prior = NULL,
                        gradient_lik = NULL, dim = NULL, vectorized = FALSE, n_check = 20L) {
  for (nm in c("log_prior", "log_lik", "prior_sampler")) {
    f <- get(nm)
    if (!is.function(f))
      stop_no_call(sprintf("`%s` must be a function, not %s.", nm, describe(f)))
  }
  for (nm in c("gradient_prior", "gradient_lik")) {
    f <- get(nm)
    if (!is.null(f) && !is.function(f))
      stop_no_call(sprintf("`%s` must be NULL or a function, not %s.", nm, describe(f)))
  }
  if (xor(is.null(gradient_prior), is.null(gradient_lik)))
    stop_no_call(paste0("give both `gradient_prior` and `gradient_lik` (the gradient kernels need ",
                        "the gradient of the log prior and of the log-likelihood), or neither."))
  check_flag(vectorized, "vectorized")
  n_check <- check_count(n_check, "n_check", min = 2L, max = 1e6)
  if (!is.null(dim)) dim <- check_count(dim, "dim")
  model <- structure(list(log_prior = log_prior, log_lik = log_lik, prior_sampler = prior_sampler,
                          gradient_prior = gradient_prior, gradient_lik = gradient_lik,
                          dim = dim, vectorized = vectorized,
                          has_gradient = !is.null(gradient_prior)),
                     class = "logz_bayes_model")
  X <- bayes_prior_draws(model, n_check)
  model$dim <- ncol(X)
  d <- model$dim
  # the shared checks name `model` and `gradient`: say which piece they mean
  named <- function(what, expr, grad = NULL) withCallingHandlers(expr, error = function(e) {
    msg <- gsub("`model`", sprintf("`%s`", what), conditionMessage(e), fixed = TRUE)
    if (!is.null(grad)) msg <- gsub("`gradient`", sprintf("`%s`", grad), msg, fixed = TRUE)
    stop_no_call(msg)
  })
  lp <- named("log_prior", eval_log_density(log_prior, X, vectorized, d))
  if (any(lp == -Inf))
    stop_no_call(sprintf(paste0("`log_prior` is -Inf at the prior draw (%s): the sampler and the ",
                                "prior density disagree."), format_point(X[which(lp == -Inf)[1], ])))
  ll <- named("log_lik", eval_log_density(log_lik, X, vectorized, d, lenient = TRUE))
  if (anyNA(ll)) {
    i <- which(is.na(ll))[1]
    stop_no_call(sprintf(paste0("`log_lik` must be a finite number or -Inf at every prior draw; ",
                                "at (%s) it gave NaN, NA or +Inf."), format_point(X[i, ])))
  }
  if (all(ll == -Inf))
    stop_no_call(sprintf("`log_lik` is -Inf at all %d prior draws: the likelihood and prior do not overlap.",
                         n_check))
  if (model$has_gradient) {
    ok <- which(ll > -Inf)[1:2]
    ok <- ok[!is.na(ok)]
    named("log_prior", check_gradient_fd(log_prior, gradient_prior, X[ok, , drop = FALSE],
                                         vectorized, d), "gradient_prior")
    named("log_lik", check_gradient_fd(log_lik, gradient_lik, X[ok, , drop = FALSE],
                                       vectorized, d), "gradient_lik")
  }
  model
}

# n prior draws as an n x d matrix, checked.
bayes_prior_draws <- function(model, n) {
  X <- model$prior_sampler(n)
  if (is.numeric(X) && is.null(dim(X)) && length(X) == n && identical(model$dim, 1L) ||
      is.numeric(X) && is.null(dim(X)) && length(X) == n && is.null(model$dim))
    X <- matrix(X, ncol = 1L)
  if (!is.numeric(X) || !is.matrix(X) || nrow(X) != n ||
      (!is.null(model$dim) && ncol(X) != model$dim))
    stop_no_call(sprintf("`prior_sampler(%d)` must return a %d x %s matrix (one draw per row), not %s.",
                         n, n, if (is.null(model$dim)) "dim" else format(model$dim),
                         if (is.matrix(X)) sprintf("a %d x %d matrix", nrow(X), ncol(X))
                         else describe(X)))
  if (!all(is.finite(X)))
    stop_no_call(sprintf("`prior_sampler(%d)` returned non-finite values.", n))
  storage.mode(X) <- "double"
  dimnames(X) <- NULL
  X
}

# The log joint log p + log L of a bayes_model as an R log density (and its
# gradient, when the model has them): the target log_partition() hands to
# smc() from a Laplace base, whose path is much shorter than the power
# posteriors' from the prior (those cross the whole information gain
# KL(posterior || prior)). `start`: the prior draw of highest log joint among
# `n` (its `n` evaluations counted in `evaluations`).
bayes_joint <- function(model, n = 20L) {
  f <- function(x) {
    lp <- model$log_prior(x)
    ll <- model$log_lik(x)
    ifelse(lp == -Inf | ll == -Inf, -Inf, lp + ll)
  }
  g <- if (model$has_gradient) function(x) model$gradient_prior(x) + model$gradient_lik(x)
  X <- bayes_prior_draws(model, n)
  lj <- eval_log_density(f, X, model$vectorized, model$dim, lenient = TRUE)
  lj[is.na(lj)] <- -Inf
  list(f = f, g = g, start = X[which.max(lj), ], evaluations = n)
}

validate_bayes_model <- function(model, name = "model") {
  need_list(model, name, "bayes_model()")
  for (f in c("log_prior", "log_lik", "prior_sampler"))
    if (!is.function(model[[f]])) bad_field(name, f, "be a function", model[[f]])
  need_count(model, name, "dim")
  for (f in c("vectorized", "has_gradient")) {
    v <- model[[f]]
    if (!is.logical(v) || length(v) != 1L || is.na(v)) bad_field(name, f, "be TRUE or FALSE", v)
  }
  for (f in c("gradient_prior", "gradient_lik")) {
    v <- model[[f]]
    if (if (model$has_gradient) !is.function(v) else !is.null(v))
      bad_field(name, f, if (model$has_gradient) "be a function (`has_gradient` is TRUE)"
                         else "be NULL (`has_gradient` is FALSE)", v)
  }
  invisible(model)
}

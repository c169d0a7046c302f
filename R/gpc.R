#' Gaussian-process probit classification models
#'
#' `gpc()` builds a Gaussian-process classifier with probit likelihood,
#' \eqn{p(y_i | f_i) = \Phi(y_i f_i)}, \eqn{y_i \in \{-1, +1\}}, and prior
#' \eqn{f \sim N(0, K)} with the RBF covariance
#' \deqn{K_{ij} = \sigma^2 \exp(-|x_i - x_j|^2 / (2 \ell^2)).}{K_ij = amplitude^2 exp(-|x_i - x_j|^2 / (2 lengthscale^2)).}
#' Its evidence \eqn{Z = p(y) = \int \prod_i \Phi(y_i f_i) N(f; 0, K) df} is,
#' writing the probit as unit Gaussian noise \eqn{z = f + \epsilon}, the
#' orthant probability \eqn{P(y_i z_i > 0 \ \forall i)} with
#' \eqn{z \sim N(0, K + I)} (Fraccaro, Paquet & Winther 2016, Eq. 10). The
#' model stores \eqn{K}, \eqn{K + I} and its upper Cholesky factor (LAPACK
#' `dpotrf` through [chol()]). Estimate log Z with [arm()], [ais()] or
#' [ep_log_z()].
#'
#' @param formula a formula `response ~ inputs`. The response is a factor with
#'   two levels (the first is class -1, the second +1), a logical (`TRUE` is
#'   +1) or numeric with values -1 and +1, and both classes must occur. Inputs
#'   are taken from the model frame as for [lm()]: numeric columns, factors
#'   expanded into contrasts, no intercept.
#' @param data a data frame (or list / environment) holding the variables.
#' @param lengthscale the RBF length scale \eqn{\ell > 0}, in the units of the
#'   inputs.
#' @param amplitude the RBF amplitude \eqn{\sigma > 0} (the prior standard
#'   deviation of each \eqn{f_i}), at most \eqn{1/\sqrt{\epsilon} \approx 6.7 \times 10^7}
#'   (beyond it \eqn{\sigma^2} swamps the unit probit noise in double precision).
#' @param subset an optional vector selecting rows of `data`, as in [lm()].
#' @param na.action what to do with missing values, e.g. [na.omit]; when not
#'   given, missing values in the variables used are an error.
#' @return An object of class `"gpc"`: a list with `x` (n x d input matrix),
#'   `y` (labels in -1/+1), `levels` (the response's class labels for -1 and
#'   +1), `K` (n x n prior covariance), `sigma` (\eqn{K + I}), `chol` (upper
#'   Cholesky factor of `sigma`), `lengthscale`, `amplitude`, `n`, `terms`,
#'   `call`.
#' @section Errors: `lengthscale` or `amplitude` not a positive finite number;
#'   `amplitude` above \eqn{6.7 \times 10^7};
#'   a response with other than two classes (e.g. only one class present) or
#'   numeric values other than -1/+1; missing values in the variables used when
#'   `na.action` is not given; non-numeric inputs other than factors; fewer
#'   than two rows. Every method refuses a `gpc` whose fields were edited (labels
#'   other than -1/+1 in `y`, a `K` that is not the kernel of `x`, a `sigma` or
#'   `chol` that does not match), naming the field.
#' @references Fraccaro, M., Paquet, U. and Winther, O. (2016). An adaptive
#'   resample-move algorithm for estimating normalizing constants. arXiv:1604.01972
#'   (Section 4, Eq. 10).
#'   Rasmussen, C. E. and Williams, C. K. I. (2006). Gaussian Processes for
#'   Machine Learning. MIT Press (Chapter 3).
#' @seealso [ep_log_z()], [arm()], [ais.gpc()]
#' @examples
#' d <- data.frame(x1 = c(-2, -1.5, -1, 0.5, 1, 2), x2 = c(0, 1, 0, 1, 0, 1),
#'                 cls = factor(c("a", "a", "a", "b", "b", "b")))
#' m <- gpc(cls ~ x1 + x2, d, lengthscale = 1, amplitude = 2)
#' m
#' ep_log_z(m)
#' @export
gpc <- function(formula, data, lengthscale, amplitude = 1, subset, na.action) {
  call <- match.call()
  if (missing(formula) || !inherits(formula, "formula"))
    stop_no_call("`formula` must be a formula `response ~ inputs`.")
  if (missing(lengthscale))
    stop_no_call("`lengthscale` must be given (a positive number).")
  lengthscale <- check_number(lengthscale, "lengthscale", lower = 0, lower_open = TRUE)
  amplitude <- check_number(amplitude, "amplitude", lower = 0, lower_open = TRUE,
                            upper = gpc_max_amplitude)
  no_na_action <- missing(na.action)
  mf <- match.call(expand.dots = FALSE)
  mf <- mf[c(1L, match(c("formula", "data", "subset", "na.action"), names(mf), 0L))]
  mf$drop.unused.levels <- TRUE
  if (no_na_action) mf$na.action <- quote(stats::na.pass)
  mf[[1L]] <- quote(stats::model.frame)
  mf <- eval(mf, parent.frame())
  if (no_na_action && anyNA(mf)) {
    bad <- names(mf)[vapply(mf, anyNA, logical(1))]
    stop_no_call(sprintf(paste0("`data` has missing values in %s (variables of `formula`); ",
                                "remove them or pass `na.action = na.omit`."),
                         paste(bad, collapse = ", ")))
  }
  tt <- attr(mf, "terms")
  if (attr(tt, "response") == 0L)
    stop_no_call("`formula` must have a response (class labels) on its left-hand side.")
  yl <- gpc_response(stats::model.response(mf), deparse(formula[[2L]]))
  attr(tt, "intercept") <- 0L
  x <- stats::model.matrix(tt, mf)
  attr(x, "assign") <- NULL
  attr(x, "contrasts") <- NULL
  if (ncol(x) == 0L) stop_no_call("`formula` must have at least one input on its right-hand side.")
  if (!all(is.finite(x)))
    stop_no_call("the inputs of `formula` must be finite (found NA, NaN or infinite values).")
  if (nrow(x) < 2L) stop_no_call(sprintf("`data` must have at least two rows, not %d.", nrow(x)))
  new_gpc(x, yl$y, yl$levels, lengthscale, amplitude, terms = tt, call = call)
}

# Labels -1/+1 from a two-class response (named `name` in messages).
gpc_response <- function(r, name) {
  what <- sprintf("The response `%s` of `formula`", name)
  if (is.factor(r)) {
    r <- droplevels(r)
    if (nlevels(r) != 2L)
      stop_no_call(sprintf("%s must have two classes; found %d (%s).", what, nlevels(r),
                           paste(levels(r), collapse = ", ")))
    return(list(y = unname(ifelse(as.integer(r) == 2L, 1, -1)), levels = levels(r)))
  }
  if (is.logical(r)) {
    if (length(unique(r)) != 2L)
      stop_no_call(sprintf("%s must have two classes; found only %s.", what, format(r[1])))
    return(list(y = unname(ifelse(r, 1, -1)), levels = c("FALSE", "TRUE")))
  }
  if (is.numeric(r) && is.null(dim(r))) {
    if (!all(r %in% c(-1, 1)))
      stop_no_call(sprintf("%s must be -1/+1 when numeric; found %s.", what,
                           format(r[!r %in% c(-1, 1)][1])))
    if (length(unique(r)) != 2L)
      stop_no_call(sprintf("%s must have two classes; found only %s.", what, format(r[1])))
    return(list(y = unname(as.double(r)), levels = c("-1", "1")))
  }
  stop_no_call(sprintf("%s must be a two-level factor, logical or -1/+1, not %s.", what,
                       describe(r)))
}

# Above 1 / sqrt(eps) (6.7e7) the prior variance amplitude^2 swamps the unit
# variance of the probit noise in K + I (the 1 is lost in double precision),
# the Cholesky factor of K + I is that of a singular K, and the likelihood
# terms log Phi(y f) reach -amplitude^2 / 2: EP and AIS lose all accuracy
# (and amplitude^2 overflows beyond 1.3e154).
gpc_max_amplitude <- 1 / sqrt(.Machine$double.eps)

new_gpc <- function(x, y, levels, lengthscale, amplitude, ...) {
  K <- gpc_kernel(x, lengthscale, amplitude)
  sigma <- K
  diag(sigma) <- diag(sigma) + 1
  structure(list(x = x, y = y, levels = levels, K = K, sigma = sigma, chol = chol(sigma),
                 lengthscale = lengthscale, amplitude = amplitude, n = length(y), ...),
            class = "gpc")
}

# The RBF covariance amplitude^2 exp(-|x_i - x_j|^2 / (2 lengthscale^2)). The
# inputs are first scaled by a power of two (exact) into [-1, 1] and centred,
# and the distances are taken from coordinate differences (stats::dist), so
# that neither a common shift of the inputs (cancellation in |x|^2 - 2 x'y)
# nor inputs near the double range (overflow of squared distances) change K.
gpc_kernel <- function(x, lengthscale, amplitude) {
  m <- max(abs(x))
  s <- if (m > 0) 2^min(ceiling(log2(m)), 1023) else 1
  xs <- x / s
  xs <- xs - rep(colMeans(xs), each = nrow(xs))
  d2 <- as.matrix(stats::dist(xs))^2
  r <- (s / lengthscale)^2
  E <- d2 * r / 2
  E[d2 == 0] <- 0
  K <- amplitude^2 * exp(-E)
  if (!is.null(rownames(x))) dimnames(K) <- list(rownames(x), rownames(x))
  diag(K) <- amplitude^2
  K
}

is_gpc <- function(x) inherits(x, "gpc")

#' @export
print.gpc <- function(x, ...) {
  check_dots_used(...)
  validate_model(x, "x")
  cat(sprintf("<gpc> Gaussian-process probit classifier: %d points, %d inputs\n", x$n,
              ncol(x$x)))
  cat(sprintf("  classes: %s (-1) %d, %s (+1) %d\n", x$levels[1], sum(x$y < 0), x$levels[2],
              sum(x$y > 0)))
  cat(sprintf("  RBF kernel: lengthscale %g, amplitude %g\n", x$lengthscale, x$amplitude))
  invisible(x)
}

#' Expectation propagation for the evidence of a GP probit classifier
#'
#' Runs EP with the probit likelihood (Rasmussen & Williams 2006, Algorithm
#' 3.5: sequential site updates with rank-one updates of the posterior
#' covariance, recomputed stably after each sweep) and returns the EP
#' approximation of the log marginal likelihood (Algorithm 3.6 / Eq. 3.65,
#' in the form of GPML's `infEP`). Kuss & Rasmussen (2005) found it accurate
#' for this model; the adaptive resample-move paper uses it as the reference.
#'
#' @param model a [gpc()] model.
#' @param tol convergence tolerance on the change of log Z between sweeps.
#' @param max_sweeps maximum number of EP sweeps.
#' @param progress show progress (default: in interactive sessions; through
#'   \pkg{progressr} when its handlers are on, see [logz_progress]): the bar
#'   counts site updates up to `max_sweeps` sweeps and completes when EP
#'   converges.
#' @return A number, the EP log Z, with attributes `sweeps` (sweeps run),
#'   `converged` (logical), and `site_tau`, `site_nu` (the natural parameters
#'   of the Gaussian sites, length n: the EP posterior is
#'   \eqn{N(f; \mu, \Sigma)}, \eqn{\Sigma = (K^{-1} + diag(\tilde\tau))^{-1}},
#'   \eqn{\mu = \Sigma\tilde\nu}); a warning (class `logz_unreliable`, silenced by
#'   `options(logz.warn_unreliable = FALSE)`) when EP stops at `max_sweeps`
#'   without converging.
#' @section Errors: `model` not a `gpc`; `tol` not positive; `max_sweeps` not
#'   a positive whole number; `progress` not `TRUE`/`FALSE`; an EP breakdown (a non-finite log Z, naming the
#'   model's `amplitude` and `lengthscale`).
#' @references Rasmussen, C. E. and Williams, C. K. I. (2006). Gaussian
#'   Processes for Machine Learning. MIT Press, Algorithms 3.5 and 3.6.
#'   Kuss, M. and Rasmussen, C. E. (2005). Assessing approximate inference for
#'   binary Gaussian process classification. JMLR 6, 1679-1704.
#' @examples
#' d <- data.frame(x = c(-2, -1, 1, 2, 0.2), y = c(-1, -1, 1, 1, -1))
#' ep_log_z(gpc(y ~ x, d, lengthscale = 1, amplitude = 2))
#' @export
ep_log_z <- function(model, tol = 1e-8, max_sweeps = 100L, progress = interactive()) {
  if (!is_gpc(model))
    stop_no_call(sprintf("`model` must be a gpc model (see gpc()), not %s.", describe(model)))
  validate_gpc(model)
  tol <- check_number(tol, "tol", lower = 0, lower_open = TRUE)
  max_sweeps <- check_count(max_sweeps, "max_sweeps")
  check_flag(progress, "progress")
  K <- model$K
  y <- model$y
  n <- model$n
  ttau <- numeric(n)
  tnu <- numeric(n)
  Sigma <- K
  mu <- numeric(n)
  old <- Inf
  converged <- FALSE
  pb <- progress_bar(progress, max_sweeps * n)
  on.exit(pb$close())
  every <- max(1L, n %/% 20L)   # about 20 progress updates a sweep
  for (sweep in seq_len(max_sweeps)) {
    for (i in seq_len(n)) {
      check_interrupt()   # each site update is O(n^2): check every one
      if (i %% every == 0L || i == n) pb$update((sweep - 1) * n + i)
      tau_c <- 1 / Sigma[i, i] - ttau[i]
      nu_c <- mu[i] / Sigma[i, i] - tnu[i]
      s2 <- 1 / tau_c
      m <- nu_c / tau_c
      z <- y[i] * m / sqrt(1 + s2)
      ratio <- exp(stats::dnorm(z, log = TRUE) - stats::pnorm(z, log.p = TRUE))
      mu_hat <- m + y[i] * s2 * ratio / sqrt(1 + s2)
      s2_hat <- s2 - s2^2 * ratio * (z + ratio) / (1 + s2)
      ttau_new <- max(1 / s2_hat - tau_c, 0)
      dtau <- ttau_new - ttau[i]
      ttau[i] <- ttau_new
      tnu[i] <- mu_hat / s2_hat - nu_c
      si <- Sigma[, i]
      Sigma <- Sigma - (dtau / (1 + dtau * si[i])) * tcrossprod(si)
      mu <- drop(Sigma %*% tnu)
    }
    post <- tryCatch(ep_posterior(K, ttau, tnu), error = function(e)
      stop_no_call(sprintf(paste0("ep_log_z(): EP broke down in sweep %d (%s); check `amplitude` ",
                                  "(%g) and `lengthscale` (%g) of `model`."), sweep,
                           conditionMessage(e), model$amplitude, model$lengthscale)))
    Sigma <- post$Sigma
    mu <- post$mu
    lz <- ep_evidence(post, K, y, ttau, tnu)
    if (!is.finite(lz))
      stop_no_call(sprintf(paste0("ep_log_z(): EP broke down in sweep %d (log Z = %s): the site ",
                                  "updates left double precision; check `amplitude` (%g) and ",
                                  "`lengthscale` (%g) of `model`."), sweep, format(lz),
                           model$amplitude, model$lengthscale))
    if (abs(lz - old) < tol) {
      converged <- TRUE
      break
    }
    old <- lz
  }
  if (!converged)
    unreliable_warning(sprintf(paste0("ep_log_z(): EP did not converge in max_sweeps = %d sweeps ",
                                      "(last change above tol = %g); the value is the last ",
                                      "sweep's."), max_sweeps, tol))
  structure(lz, sweeps = sweep, converged = converged, site_tau = ttau, site_nu = tnu)
}

# Sigma = (K^-1 + S)^-1 by B = I + S^1/2 K S^1/2 (R&W Algorithm 3.5, end of sweep)
ep_posterior <- function(K, ttau, tnu) {
  sw <- sqrt(ttau)
  L <- chol(diag(length(ttau)) + outer(sw, sw) * K)     # upper: B = L'L
  V <- backsolve(L, sw * K, transpose = TRUE)
  Sigma <- K - crossprod(V)
  list(Sigma = Sigma, mu = drop(Sigma %*% tnu), L = L)
}

# log Z_EP (GPML infEP, zero prior mean)
ep_evidence <- function(post, K, y, ttau, tnu) {
  Sigma <- post$Sigma
  tau_n <- 1 / diag(Sigma) - ttau
  nu_n <- post$mu / diag(Sigma) - tnu
  lZ <- stats::pnorm(y * (nu_n / tau_n) / sqrt(1 + 1 / tau_n), log.p = TRUE)
  nlZ <- sum(log(diag(post$L))) - sum(lZ) - drop(crossprod(tnu, Sigma %*% tnu)) / 2 -
    sum(nu_n * ((ttau / tau_n * nu_n - 2 * tnu) / (ttau + tau_n))) / 2 +
    sum(tnu^2 / (tau_n + ttau)) / 2 - sum(log1p(ttau / tau_n)) / 2
  -nlZ
}

#' AIS for Gaussian-process classification
#'
#' With `kernel = "slice"` (default), anneals from the GP prior
#' \eqn{N(f; 0, K)} (log Z = 0) to the posterior
#' along \eqn{N(f; 0, K) \prod_i \Phi(y_i f_i)^\beta}, with
#' `sweeps_per_step` elliptical slice sampling updates (Murray, Adams & MacKay
#' 2010) at each intermediate beta; the log weight of a chain gains
#' \eqn{(\beta_k - \beta_{k-1}) \sum_i \log\Phi(y_i f_i)}. Prior draws use a
#' symmetric square root of \eqn{K} (eigen-decomposition with round-off
#' negative eigenvalues set to zero), so near-singular RBF covariances are
#' fine. Each chain owns an MRG32k3a stream seeded from R's RNG: results are
#' reproducible under [set.seed()] and identical for any `threads`.
#'
#' With `kernel = "hmc"`, the baselines of Fraccaro et al. (2016, Section
#' 4.2): AIS with Hamiltonian Monte Carlo ([ais.function()]'s kernel, step
#' size and mass learnt in a pilot) in the coordinates \eqn{v} of
#' \eqn{f = A v}, \eqn{A = K^{1/2}}, where the prior is \eqn{N(0, I)} and
#' the target is \eqn{N(v; 0, I) \prod_i \Phi(y_i (Av)_i)} (the same
#' evidence), from the prior (`base = "prior"`, the geometric path) or from
#' EP's Gaussian approximation \eqn{q} (`base = "ep"`: in \eqn{v} its
#' precision is \eqn{I + A\,diag(\tilde\tau)A}, well conditioned however
#' near-singular \eqn{K} is).
#'
#' @inheritParams ais
#' @param kernel `"slice"` (elliptical slice sampling, C, threads) or
#'   `"hmc"` (Hamiltonian Monte Carlo in R-evaluated whitened coordinates).
#' @param base for `kernel = "hmc"`: `"prior"` or `"ep"` (EP's Gaussian
#'   approximation of the posterior, by [ep_log_z()]).
#' @param n_leapfrog leapfrog steps per HMC transition.
#' @param model a [gpc()] model.
#' @param schedule a schedule from 0 to 1 (default `schedule_geometric(1000)`,
#'   the geometric spacing the paper uses for its AIS baselines).
#' @return An object of class `c("logz_ais", "logz_estimate")` as for
#'   [ais()], with `counts` also holding `likelihood_evals` (slice-sampling
#'   likelihood evaluations); with `kernel = "hmc"` a
#'   `c("logz_ais_function", "logz_ais", "logz_estimate")` as [ais.function()]
#'   returns, whose `x` holds the final latent values \eqn{f} (one chain per
#'   row).
#' @section Errors: as [ais()]; `model` not a `gpc`; `base = "ep"` with
#'   `kernel = "slice"`; EP's errors for `base = "ep"`.
#' @references Murray, I., Adams, R. P. and MacKay, D. J. C. (2010). Elliptical
#'   slice sampling. AISTATS.
#'   Neal, R. M. (2001). Annealed importance sampling. Statistics and Computing
#'   11, 125-139. Fraccaro, M., Paquet, U. and Winther, O. (2016). An adaptive
#'   resample-move algorithm for estimating normalizing constants. arXiv
#'   1604.01972, Section 4.2.
#' @seealso [gpc()], [arm()], [ep_log_z()]
#' @examples
#' d <- data.frame(x = c(-2, -1, 1, 2, 0.2), y = c(-1, -1, 1, 1, -1))
#' m <- gpc(y ~ x, d, lengthscale = 1, amplitude = 2)
#' set.seed(1)
#' ais(m, schedule_geometric(100), n_chains = 50, progress = FALSE)
#' @export
ais.gpc <- function(model, schedule = schedule_geometric(1000L), n_chains = 100L,
                    sweeps_per_step = 1L, threads = 1L, progress = interactive(),
                    workers = NULL, kernel = c("slice", "hmc"), base = c("prior", "ep"),
                    n_leapfrog = 10L, ...) {
  check_dots_used(...)
  validate_model(model)
  call <- match.call()
  validate_gpc(model)
  kernel <- match_arg(kernel, "kernel")
  base <- match_arg(base, "base")
  if (kernel == "hmc")
    return(ais_gpc_hmc(model, base, schedule, n_chains, sweeps_per_step, n_leapfrog, progress,
                       call))
  if (base != "prior")
    stop_no_call(paste0("`base = \"ep\"` needs `kernel = \"hmc\"`: elliptical slice sampling ",
                        "anneals from the GP prior."))
  schedule <- as_schedule(schedule)
  n_chains <- check_chains(n_chains, 8 * 3 * model$n)
  sweeps_per_step <- check_count(sweeps_per_step, "sweeps_per_step")
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  pieces <- resolve_pieces(workers, n_chains)
  if (pieces > 1L)
    return(ais_pieces(n_chains, pieces, schedule, call, function(size)
      ais.gpc(model, schedule, size, sweeps_per_step, threads, FALSE, workers = 1L), progress))
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  e <- eigen(model$K, symmetric = TRUE)
  A <- e$vectors %*% (sqrt(pmax(e$values, 0)) * t(e$vectors))
  cm <- list(A = A, y = as.double(model$y))
  state <- list(F = NULL, log_w = numeric(n_chains), streams = rng_streams(n_chains))
  evals <- 0
  run <- ais_run_chunks(as.double(schedule), state, progress, function(b, state, final) {
    control <- list(threads = threads, sweeps = sweeps_per_step, final = final, log_z0 = 0)
    res <- gpc_ais_chunk(cm, b, state, control)
    evals <<- evals + res$evals
    list(state = list(F = res$F, log_w = res$log_w, streams = res$streams),
         trace = res$trace, sweeps = res$sweeps)
  }, step_cost = as.double(n_chains) * sweeps_per_step * 4 * length(model$y)^2)
  out <- new_ais_result(run$state$log_w, 0, schedule, run$trace, run$sweeps, n_chains,
                        time = proc.time()[["elapsed"]] - t0, seed = seed, call = call,
                        method = "AIS (elliptical slice)")
  out$counts <- c(out$counts, likelihood_evals = evals)
  out
}

# One chunk of AIS with elliptical slice sampling for GP classification
# (src/gpc.c): the steps betas[1] -> ... -> betas[L + 1] for all chains. cm:
# list(A (n x n, A A' = K), y (n labels -1/+1)); state: list(F = NULL (drawn
# from the prior) or n x M latent values, log_w (M), streams (6 x M));
# control: list(threads, sweeps (per step), final, log_z0). Returns list(F,
# log_w, streams, trace (L x 2), sweeps (per chain), evals (likelihood
# evaluations)).
gpc_ais_chunk <- function(cm, betas, state, control) {
  y <- internal_double(cm$y, "y")
  n <- length(y)
  cm <- list(A = internal_double(cm$A, "A", as.double(n) * n), y = y)
  M <- length(state$log_w)
  state <- list(F = internal_chains(state$F, "F", n, M),
                log_w = internal_double(state$log_w, "log_w"),
                streams = internal_streams(state$streams, M))
  control <- internal_chunk_control(control)
  .Call(C_gpc_ais, cm, internal_double(betas, "betas"), state, control)
}

# Honour interrupts and time limits from a long loop written in R (src/util.c).
check_interrupt <- function() invisible(.Call(C_check_interrupt))

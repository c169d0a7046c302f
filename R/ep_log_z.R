# Expectation propagation for GP probit classification: ep_log_z().

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
#' @references
#' * Rasmussen, C. E. and Williams, C. K. I. (2006). Gaussian Processes for Machine
#'   Learning. MIT Press, Algorithms 3.5 and 3.6.
#' * Kuss, M. and Rasmussen, C. E. (2005). Assessing approximate inference for binary
#'   Gaussian process classification. JMLR 6, 1679-1704.
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

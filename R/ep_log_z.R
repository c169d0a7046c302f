# Expectation propagation for GP probit classification: ep_log_z(), with the second-order
# perturbative correction of Opper, Paquet & Winther (2013).

#' Expectation propagation for the evidence of a GP probit classifier
#'
#' Runs EP with the probit likelihood (Rasmussen & Williams 2006, Algorithm
#' 3.5: sequential site updates with rank-one updates of the posterior
#' covariance, recomputed stably after each sweep) and returns the EP
#' approximation of the log marginal likelihood (Algorithm 3.6 / Eq. 3.65,
#' in the form of GPML's `infEP`). Kuss & Rasmussen (2005) found it accurate
#' for this model; the adaptive resample-move paper uses it as the reference.
#'
#' With `correction = "second_order"` the value is EP's log Z plus the
#' second-order term of the perturbative expansion of Opper, Paquet & Winther
#' (2013), the corrected reference line of the adaptive resample-move paper's
#' Figure 2. Writing the exact evidence as \eqn{Z = Z_{EP} R} with
#' \eqn{R = E_q[\prod_i (1 + \epsilon_i(f_i))]}, \eqn{1 + \epsilon_i} the
#' ratio of site i's tilted marginal to its EP marginal, the term is
#' \deqn{R_2 = \sum_{i<j} E_q[\epsilon_i \epsilon_j] = \sum_{i<j} \sum_{k \ge 3}
#'   \frac{\rho_{ij}^k}{k!} a_{ik} a_{jk}}{R2 = sum_{i<j} sum_{k>=3} rho_ij^k / k! a_ik a_jk}
#' (Mehler's expansion of the bivariate Gaussian \eqn{q(f_i, f_j)} with
#' correlation \eqn{\rho_{ij}}), \eqn{a_{ik} = E_{tilted_i}[He_k(u_i)]} the
#' Hermite moments of the standardised tilted marginal (orders 1 and 2 vanish
#' at EP's fixed point); and \eqn{\log Z \approx \log Z_{EP} + R_2}. For two
#' data points \eqn{Z_{EP}(1 + R_2)} is exact. The series in k is summed
#' until its terms fall below `1e-12` of the running sum, at most to order
#' `max_order`; the tilted moments are computed on a fine grid.
#'
#' @param model a [gpc()] model.
#' @param correction `"none"` (default) or `"second_order"` (see Details).
#' @param max_order the highest Hermite order k of the correction's series
#'   (a whole number from 3 to 100).
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
#'   without converging. With the correction, also `ep` (EP's log Z), `r2`
#'   (\eqn{R_2}), `order` (the highest order summed) and `series_converged`
#'   (`FALSE` when the series was cut at `max_order` before its terms fell
#'   below the tolerance, as with strongly correlated latent values).
#' @section Errors: `model` not a `gpc`; `correction` not one of its values;
#'   `max_order` not a whole number from 3 to 100; `tol` not positive; `max_sweeps` not
#'   a positive whole number; `progress` not `TRUE`/`FALSE`; an EP breakdown (a non-finite log Z, naming the
#'   model's `amplitude` and `lengthscale`).
#' @references
#' * Rasmussen, C. E. and Williams, C. K. I. (2006). Gaussian Processes for Machine
#'   Learning. MIT Press, Algorithms 3.5 and 3.6.
#' * Kuss, M. and Rasmussen, C. E. (2005). Assessing approximate inference for binary
#'   Gaussian process classification. JMLR 6, 1679-1704.
#' * Opper, M., Paquet, U. and Winther, O. (2013). Perturbative corrections for
#'   approximate inference in Gaussian latent variable models. JMLR 14, 2857-2898.
#' * Fraccaro, M., Paquet, U. and Winther, O. (2016). An adaptive resample-move
#'   algorithm for estimating normalizing constants. Figure 2.
#' @examples
#' d <- data.frame(x = c(-2, -1, 1, 2, 0.2), y = c(-1, -1, 1, 1, -1))
#' m <- gpc(y ~ x, d, lengthscale = 1, amplitude = 2)
#' ep_log_z(m)
#' ep_log_z(m, correction = "second_order")
#' @export
ep_log_z <- function(model, tol = 1e-8, max_sweeps = 100L, progress = interactive(),
                     correction = c("none", "second_order"), max_order = 60L) {
  if (!is_gpc(model))
    stop_no_call(sprintf("`model` must be a gpc model (see gpc()), not %s.", describe(model)))
  validate_gpc(model)
  correction <- match_arg(correction, "correction")
  max_order <- check_count(max_order, "max_order", min = 3L, max = 100L)
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
  out <- structure(lz, sweeps = sweep, converged = converged, site_tau = ttau, site_nu = tnu)
  if (correction == "none") return(out)
  r2 <- ep_second_order(Sigma, mu, y, ttau, tnu, max_order)
  structure(lz + as.numeric(r2), sweeps = sweep, converged = converged, site_tau = ttau,
            site_nu = tnu, ep = lz, r2 = as.numeric(r2), order = attr(r2, "order"),
            series_converged = attr(r2, "series_converged"))
}

# The Hermite moments a_ik = E_tilted_i[He_k(u)], k = 1..max_order (n x max_order), of the
# standardised tilted marginals u = (f_i - mu_i) / sd_i, tilted_i(f) proportional to
# Phi(y_i f) N(f; cavity), by the trapezoid rule on a grid of 4001 points over the cavity's
# +-12 sd (the tilted density is smooth and its tails are no heavier than the cavity's).
ep_hermite_moments <- function(mu, s2, y, ttau, tnu, max_order) {
  n <- length(mu)
  out <- matrix(0, n, max_order)
  for (i in seq_len(n)) {
    tau_c <- 1 / s2[i] - ttau[i]
    m_c <- (mu[i] / s2[i] - tnu[i]) / tau_c
    sd_c <- 1 / sqrt(tau_c)
    f <- m_c + sd_c * seq(-12, 12, length.out = 4001L)
    lw <- stats::dnorm(f, m_c, sd_c, log = TRUE) + stats::pnorm(y[i] * f, log.p = TRUE)
    w <- exp(lw - max(lw))
    w <- w / sum(w)                       # trapezoid weights (the ends are negligible)
    u <- (f - mu[i]) / sqrt(s2[i])
    h0 <- rep(1, length(u))
    h1 <- u
    out[i, 1] <- sum(w * h1)
    for (k in 2:max_order) {              # He_k = u He_{k-1} - (k - 1) He_{k-2}
      h2 <- u * h1 - (k - 1) * h0
      out[i, k] <- sum(w * h2)
      h0 <- h1
      h1 <- h2
    }
  }
  out
}

# The second-order term R_2 = sum_{i<j} sum_{k>=3} rho_ij^k / k! a_ik a_jk of Opper, Paquet &
# Winther (2013) at the EP posterior N(mu, Sigma) with sites (ttau, tnu); the series is summed
# until a term is below 1e-12 of the running sum in absolute value (attribute `order`).
ep_second_order <- function(Sigma, mu, y, ttau, tnu, max_order) {
  s2 <- diag(Sigma)
  a <- ep_hermite_moments(mu, s2, y, ttau, tnu, max_order)
  rho <- Sigma / sqrt(outer(s2, s2))
  diag(rho) <- 0
  total <- 0
  rk <- rho * rho
  order <- max_order
  done <- FALSE
  for (k in 3:max_order) {
    rk <- rk * rho
    term <- drop(crossprod(a[, k], rk %*% a[, k])) / 2 / factorial(k)
    total <- total + term
    if (k > 3L && abs(term) < 1e-12 * max(abs(total), 1e-300)) {
      order <- k
      done <- TRUE
      break
    }
  }
  structure(total, order = order, series_converged = done)
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

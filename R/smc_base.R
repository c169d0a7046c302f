# The base of smc() on an R log density, refitted to a pilot run: the
# Laplace fit sits at the mode, which for a hierarchical model lies in the
# neck of the funnel (a small group scale), far from where the posterior's
# mass is; the pilot's final weighted particles (approximate draws from f/Z)
# give a moment-matched fit that is closer. The refit replaces the Laplace
# fit only when it fits the pilot's particles better, judged by the
# weighted variance of l = log f - log p0 at beta = 1 (zero for a base equal
# to f/Z; the log-variance of the importance weights), each half's fit
# scored on the other half so that the refit gains nothing from fitting the
# particles it is scored on; the refit keeps the base's Student-t family or
# becomes Gaussian, whichever scores lower.

# Upper-triangular U with U U' = S (so that x = m + U z keeps the
# upper-triangular factor of a logz_laplace).
upper_factor <- function(S) {
  d <- ncol(S)
  J <- d:1
  R <- tryCatch(chol(S[J, J, drop = FALSE]), error = function(e) NULL)
  if (is.null(R)) return(NULL)
  t(R)[J, J, drop = FALSE]
}

# The weighted moment fit of the whitened particles Z (normalised weights w)
# as list(m, U, log_det), or NULL when the covariance is singular.
moment_fit <- function(Z, w) {
  m <- colSums(w * Z)
  Zc <- sweep(Z, 2L, m)
  S <- crossprod(Zc * sqrt(w)) / (1 - sum(w^2))
  U <- upper_factor(S)
  if (is.null(U) || any(diag(U) <= 0)) return(NULL)
  list(m = m, U = U, log_det = sum(log(diag(U))))
}

# Weighted variance of v under normalised weights w.
weighted_var <- function(v, w) {
  m <- sum(w * v) / sum(w)
  sum(w * (v - m)^2) / sum(w)
}

# The pilot's particles (whitened Z, normalised log weights lw, l = lf -
# log p0 at beta = 1) on the Laplace base lb with standard base p0: the
# refitted logz_laplace when a moment fit scores better than the Laplace fit
# (cross-fitted by halves), else NULL. Returns list(laplace, var_laplace,
# var_refit).
smc_refit_base <- function(lb, p0, Z, lw, ell) {
  N <- nrow(Z)
  d <- ncol(Z)
  w <- exp(lw - max(lw))
  ok <- is.finite(ell) & w > 0
  if (sum(ok) < 4L * d || sum(w[ok])^2 / sum(w[ok]^2) < 2 * d) return(NULL)
  lf <- ell + proposal_log_density(p0, Z)
  half <- seq_len(N) %% 2L
  # the refit as the base's family (lb$df) and as a Gaussian, each scored
  dfs <- unique(c(lb$df, Inf))
  score <- matrix(0, 2L, length(dfs))
  for (h in 0:1) {
    fit_rows <- ok & half != h
    test <- ok & half == h
    wf <- w[fit_rows] / sum(w[fit_rows])
    mf <- moment_fit(Z[fit_rows, , drop = FALSE], wf)
    if (is.null(mf)) return(NULL)
    U <- t(backsolve(mf$U, t(sweep(Z[test, , drop = FALSE], 2L, mf$m))))
    for (k in seq_along(dfs)) {
      q <- laplace_std_proposal(list(df = dfs[k], dim = d))
      ell_new <- lf[test] + mf$log_det - proposal_log_density(q, U)
      score[h + 1L, k] <- weighted_var(ell_new, w[test])
    }
  }
  var_old <- weighted_var(ell[ok], w[ok])
  scores <- colMeans(score)
  best <- which.min(scores)
  var_new <- scores[best]
  if (!is.finite(var_new) || var_new >= var_old) return(NULL)
  mf <- moment_fit(Z[ok, , drop = FALSE], w[ok] / sum(w[ok]))
  if (is.null(mf)) return(NULL)
  new <- lb
  new$df <- dfs[best]
  new$mode <- drop(lb$mode + lb$chol_cov %*% mf$m)
  new$chol_cov <- lb$chol_cov %*% mf$U
  new$log_det <- lb$log_det + mf$log_det
  list(laplace = new, var_laplace = var_old, var_refit = var_new)
}

# The engine of adaptive tempering SMC (smc()): one run of N particles along
# a tempered path pi_beta(x) ∝ a(x) exp(beta l(x)) from beta = 0 to 1, with
# the next beta chosen by bisection on the conditional ESS, systematic
# resampling below an ESS threshold, and moves by the continuous kernels of
# src/cont_kernel.c whose step and position scales are set from the current
# particles. A "path" (smc_path_function(), smc_path_bayes()) supplies the
# draws at beta = 0, l at the particles, and the kernel moves.

# Conditional ESS fraction (Zhou, Johansen and Aston 2016, Eq. 3.3 divided by
# N) of moving from normalised log weights lw by delta * l:
# (sum W w)^2 / sum W w^2 with w = exp(delta * l).
smc_cess <- function(lw, ell, delta) {
  a <- delta * (ell - max(ell))
  exp(2 * log_sum_exp(lw + a) - log_sum_exp(lw + 2 * a))
}

# The next beta after `beta`: the largest in (beta, 1] whose conditional ESS
# fraction is at least `rho` times its limit as the step goes to 0 (the weight
# of the particles where l is finite), by bisection; 1 when that is reached.
smc_next_beta <- function(lw, ell, beta, rho, iterations = 60L) {
  ok <- is.finite(ell) & lw > -Inf
  if (!any(ok)) internal_error("no particle with a finite log-likelihood ratio and weight.")
  lw <- lw[ok]
  ell <- ell[ok]
  mass <- exp(log_sum_exp(lw))
  lw <- lw - log(mass)
  target <- rho * mass
  room <- 1 - beta
  if (mass * smc_cess(lw, ell, room) >= target) return(1)
  lo <- 0
  hi <- room
  for (i in seq_len(iterations)) {
    mid <- (lo + hi) / 2
    if (mass * smc_cess(lw, ell, mid) >= target) lo <- mid else hi <- mid
  }
  beta + max(lo, room * 1e-12)
}

# Systematic resampling: N indices from normalised weights w (one uniform).
resample_systematic <- function(w, N) {
  cw <- cumsum(w)
  cw <- cw / cw[length(cw)]
  u <- (stats::runif(1) + seq.int(0L, N - 1L)) / N
  pmin(findInterval(u, cw, left.open = TRUE) + 1L, length(w))
}

# Leapfrog steps of size h for a quarter turn on a standard Gaussian (where
# the end point is independent of the start): each step turns the phase by
# acos(1 - h^2 / 2), not h (for h near 1.4 one step already makes a quarter
# turn, and two would make a half turn, x -> -x, mixing nothing).
smc_auto_leapfrog <- function(h, max_leapfrog) {
  if (h >= 2) return(1L)
  as.integer(min(max_leapfrog, max(1, round((pi / 2) / acos(1 - h^2 / 2)))))
}

# Weighted mean and variance of the finite l under normalised weights w.
weighted_moments <- function(w, ell) {
  ok <- w > 0
  if (any(ok & !is.finite(ell))) return(c(mean = -Inf, var = NA_real_))
  m <- sum(w[ok] * ell[ok]) / sum(w[ok])
  c(mean = m, var = sum(w[ok] * (ell[ok] - m)^2) / sum(w[ok]))
}

# Weighted sd of each column of X (floored at a tiny positive value).
weighted_col_sd <- function(X, w) {
  mu <- colSums(w * X)
  pmax(sqrt(colSums(w * sweep(X, 2L, mu)^2)), 1e-8 * (1 + abs(mu)))
}

# The affine frame x = mu + z L' of the weighted particles (L the Cholesky
# factor of their weighted covariance; the diagonal of sds when that is not
# positive definite), in which the kernel runs with unit position scales.
weighted_frame <- function(X, w) {
  mu <- colSums(w * X)
  Xc <- sweep(X, 2L, mu)
  S <- crossprod(Xc * sqrt(w))
  L <- tryCatch(t(chol(S + diag(1e-10 * mean(diag(S)) + 1e-300, ncol(X)))),
                error = function(e) NULL)
  if (is.null(L)) L <- diag(weighted_col_sd(X, w), ncol(X))
  list(mu = mu, L = L)
}

# One run. path: list(d, init(N) -> state, ell(state), subset(state, idx,
# streams) (the particles idx, with their streams when `streams`),
# assign(state, rows, sub) (put a moved subset back),
# frame(state, w) (the kernel's scales from the weighted particles),
# move(state, beta, steps (N), frame, n_leapfrog) -> state with accept (N),
# X(state), counts(state)). ctl: list(particles, cess, resample, move_steps,
# n_leapfrog (NA: auto), max_leapfrog, jitter, target_accept,
# log_step0, gain, max_steps, betas and log_steps: NULL (adapt them from the
# particles), or the schedule and the log step at each beta (fixed)).
# Returns list(log_z, trace (data frame, one row per beta), X, log_w (final
# normalised log weights), ell (l at the final particles), rel_var (the run's
# own estimate of Var(Z_hat) / Z^2, smc_rel_var()), evaluations,
# gradient_evaluations, ti, ti_corrected, ss).
smc_once <- function(path, ctl, tick = function(beta) NULL) {
  N <- ctl$particles
  st <- path$init(N)
  ell <- path$ell(st)
  if (all(ell == -Inf))
    stop_no_call(paste0("the log density is -Inf at every particle drawn at beta = 0: the target's ",
                        "support must overlap the start distribution's."))
  lw <- rep(-log(N), N)
  family <- seq_len(N) %% 2L
  # each particle's ancestor at beta = 0 (its "Eve"), for rel_var
  eve <- seq_len(N)
  n_resampled <- 0L
  m0 <- weighted_moments(exp(lw), ell)
  beta <- 0
  log_z <- 0
  log_step <- ctl$log_step0
  rows <- list(data.frame(step = 0L, beta = 0, ess = N, log_z = 0, mean_ell = m0[["mean"]],
                          var_ell = m0[["var"]], resampled = FALSE, accept = NA_real_,
                          step_size = NA_real_, n_leapfrog = NA_integer_))
  t <- 0L
  repeat {
    t <- t + 1L
    if (t > ctl$max_steps)
      stop_no_call(sprintf(paste0("adaptive tempering did not reach beta = 1 in %d steps (beta = %.3g): ",
                                  "lower `cess` or check the target."), ctl$max_steps, beta))
    nb <- if (is.null(ctl$betas)) smc_next_beta(lw, ell, beta, ctl$cess) else ctl$betas[t + 1L]
    inc <- ifelse(ell == -Inf, -Inf, (nb - beta) * ell)
    lz_inc <- log_sum_exp(lw + inc)
    log_z <- log_z + lz_inc
    lw <- lw + inc - lz_inc
    w <- exp(lw)
    mom <- weighted_moments(w, ell)
    ess <- 1 / sum(w^2)
    beta <- nb
    tick(beta)
    resampled <- FALSE
    acc <- NA_real_
    step <- NA_real_
    L <- NA_integer_
    if (beta < 1) {
      if (ess < ctl$resample * N) {
        idx <- resample_systematic(w, N)
        st <- path$subset(st, idx)
        family <- idx %% 2L
        eve <- eve[idx]
        n_resampled <- n_resampled + 1L
        lw <- rep(-log(N), N)
        w <- exp(lw)
        resampled <- TRUE
      }
      halves <- split(seq_len(N), family)
      a <- numeric(ctl$move_steps)
      if (!is.null(ctl$log_steps)) log_step <- ctl$log_steps[t]
      for (s in seq_len(ctl$move_steps)) {
        L <- if (is.na(ctl$n_leapfrog)) smc_auto_leapfrog(exp(log_step), ctl$max_leapfrog)
          else ctl$n_leapfrog
        eps <- exp(log_step) * stats::runif(N, 1 - ctl$jitter, 1 + ctl$jitter)
        st <- smc_cross_move(path, st, w, halves, beta, eps, L)
        a[s] <- mean(st$accept)
        if (is.null(ctl$log_steps)) log_step <- log_step + ctl$gain * (a[s] - ctl$target_accept)
      }
      ell <- path$ell(st)
      acc <- mean(a)
      step <- exp(log_step)
    }
    rows[[t + 1L]] <- data.frame(step = t, beta = beta, ess = ess, log_z = log_z,
                                 mean_ell = mom[["mean"]], var_ell = mom[["var"]],
                                 resampled = resampled, accept = acc, step_size = step,
                                 n_leapfrog = L)
    if (beta >= 1) break
  }
  trace <- do.call(rbind, rows)
  cnt <- path$counts(st)
  c(list(log_z = log_z, trace = trace, X = path$X(st), log_w = lw, ell = path$ell(st),
         rel_var = smc_rel_var(exp(lw), eve, n_resampled),
         evaluations = cnt[["density"]], gradient_evaluations = cnt[["gradient"]]),
    smc_path_estimates(trace))
}

# A run's own estimate of the relative variance Var(Z_hat) / Z^2 of its
# estimate of Z, from its final normalised weights w and the ancestor at
# beta = 0 of each particle (Lee and Whiteley 2018, Theorem 1 for phi = 1;
# with resampling at only some temperatures, one factor N / (N - 1) per
# generation: the draws at beta = 0 and each resampling, Du and Guyader
# 2021): 1 - (N / (N - 1))^(g) * (1 - sum_e S_e^2), S_e the weight of the
# particles descended from e, floored at 0. Without resampling it is the
# unbiased estimate (N sum w^2 - 1) / (N - 1) of importance sampling with
# the path weights; with systematic rather than multinomial resampling it is
# an approximation.
smc_rel_var <- function(w, eve, n_resampled) {
  N <- length(w)
  w <- w / sum(w)
  s2 <- sum(rowsum(w, eve, reorder = FALSE)^2)
  max(0, 1 - (N / (N - 1))^(n_resampled + 1L) * (1 - s2))
}

# Move the particles of each half (rows in `halves`) in the frame of the
# other half's weighted particles, so that no particle's kernel depends on its
# own state or on its copies from the last resampling (a kernel tuned on the
# particle it moves is not exactly invariant for it, which biases log Z by
# O(1/N)). Returns the state with `accept`.
smc_cross_move <- function(path, st, w, halves, beta, eps, L) {
  if (length(halves) < 2L || min(lengths(halves)) < 2L) halves <- list(seq_along(w))
  accept <- numeric(length(w))
  frames <- lapply(seq_along(halves), function(h) {
    other <- if (length(halves) == 1L) halves[[1L]] else halves[[3L - h]]
    wo <- w[other]
    path$frame(path$subset(st, other), if (sum(wo) > 0) wo / sum(wo) else rep(1 / length(wo), length(wo)))
  })
  for (h in seq_along(halves)) {
    rows <- halves[[h]]
    sub <- path$move(path$subset(st, rows, streams = TRUE), beta, eps[rows], frames[[h]], L)
    st <- path$assign(st, rows, sub)
    accept[rows] <- sub$accept
  }
  st$accept <- accept
  st
}

# Thermodynamic integration (trapezoid on E_beta[l] over the chosen betas, and
# with the correction -sum (delta beta)^2 / 12 (var_k - var_{k-1}) of Friel,
# Hurn and Wyse 2014, Eq. 10, from d E_beta[l] / d beta = Var_beta[l]) and
# the stepping-stone estimate (Xie et al. 2011, Eq. 7 with the weighted
# particles at each beta), from one run's trace.
smc_path_estimates <- function(trace) {
  b <- trace$beta
  m <- trace$mean_ell
  v <- trace$var_ell
  db <- diff(b)
  k <- seq_along(db)
  ti <- sum(db * (m[k] + m[k + 1L]) / 2)
  list(ti = ti, ti_corrected = ti - sum(db^2 / 12 * (v[k + 1L] - v[k])),
       ss = trace$log_z[nrow(trace)])
}

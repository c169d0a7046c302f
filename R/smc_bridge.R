# The bridge-sampling estimate of smc() on an R log density: between the
# normalised base q (= p0, the start of the tempered path, after any refit)
# and the final weighted particles of the replicates (approximate draws from
# f/Z), with fresh draws from q. Meng and Wong (1996), Eq. 4.1, the optimal
# bridge by its iterative scheme: with l = f/q,
#   r <- [1/N2 sum_j l(y_j) / (s1 l(y_j) + s2 r)] / [sum_i W_i / (s1 l(x_i) + s2 r)],
# y_j ~ q, x_i the particles with normalised weights W_i, s1 = N1 / (N1 + N2)
# with N1 the particles' effective sample size. l at the particles is known
# from the run; each draw from q costs one density evaluation. The estimate
# pools the replicates (each with its own draws from q); its se is the
# jackknife over replicates (leave one replicate's particles and draws out).
# Every draw from q counts, those where f is 0 (log density -Inf, outside a
# bounded support) too: they add 0 to the numerator's sum but count in its
# mean, as in Eq. 4.1; dropping them would inflate Z by 1 / q(support).

# The log bridge estimate pooled over groups (replicates): each group k has
# l at its particles (ell1, log weights lw1), l at its draws from its
# proposal (ell2) and the particles' effective sample size n1; at the
# current r each group gives the numerator A_k (mean over its draws) and the
# denominator B_k (weighted mean over its particles) of Meng and Wong's
# Eq. 4.1, and r <- mean_k A_k / sum_k omega_k B_k with omega_k the group's
# share of the summed SMC estimates of Z (exp(lz_k); equal shares without
# lz): independent SMC runs pooled by their evidence estimates give
# posterior expectations whose bias falls with the total number of particles
# rather than each run's (a run that reached more of the mass weighs more);
# one group: the usual iteration. Returns c(log_z, iterations, converged).
bridge_iterate <- function(groups, start, tol = 1e-10, max_iter = 1000L) {
  fail <- function(it) c(log_z = NA_real_, iterations = it, converged = 0)
  groups <- lapply(groups, function(g) {
    ok <- g$lw1 > -Inf & g$ell1 > -Inf
    g$ell1 <- g$ell1[ok]
    g$lw1 <- g$lw1[ok] - log_sum_exp(g$lw1[ok])
    g$ell2 <- g$ell2[!is.na(g$ell2)]
    n2 <- length(g$ell2)
    g$ls1 <- log(g$n1 / (g$n1 + n2))
    g$ls2 <- log(n2 / (g$n1 + n2))
    g$ln2 <- log(n2)
    g
  })
  if (any(vapply(groups, function(g) !length(g$ell1) || !all(is.finite(g$ell1)) ||
                   !any(is.finite(g$ell2)), FALSE))) return(fail(0))
  # log(s1 exp(a) + s2 exp(lr)) elementwise
  lae <- function(g, a, lr) log_add_exp(g$ls1 + a, g$ls2 + lr)
  lz <- vapply(groups, function(g) if (is.null(g$lz)) 0 else g$lz, 0)
  if (!all(is.finite(lz))) return(fail(0))
  lomega <- lz - log_sum_exp(lz)
  lr <- if (is.finite(start)) start else
    log_sum_exp(unlist(lapply(groups, function(g) g$ell2[g$ell2 > -Inf] - g$ln2))) -
      log(length(groups))
  for (it in seq_len(max_iter)) {
    num <- log_sum_exp(vapply(groups, function(g)
      log_sum_exp(g$ell2 - lae(g, g$ell2, lr)) - g$ln2, 0)) - log(length(groups))
    den <- log_sum_exp(vapply(groups, function(g) log_sum_exp(g$lw1 - lae(g, g$ell1, lr)), 0) +
                         lomega)
    new <- num - den
    if (!is.finite(new)) return(fail(it))
    if (abs(new - lr) < tol) return(c(log_z = new, iterations = it, converged = 1))
    lr <- new
  }
  fail(max_iter)
}

# A proposal for the bridge: list(sample(n), log_density(Z)).
bridge_fixed <- function(p, d) list(
  sample = function(n) proposal_sample(p, n, rep(-Inf, d), rep(Inf, d)),
  log_density = function(X) proposal_log_density(p, X))

# The moment-matched Gaussian (df Inf) or Student-t (scaled to the same
# covariance) of weighted points Z (normalised weights w), or NULL.
bridge_moment <- function(Z, w, df) {
  mf <- moment_fit(Z, w)
  if (is.null(mf)) return(NULL)
  d <- ncol(Z)
  sc <- if (is.finite(df)) sqrt((df - 2) / df) else 1
  U <- mf$U * sc
  ld <- mf$log_det + d * log(sc)
  std <- laplace_std_proposal(list(df = df, dim = d))
  list(sample = function(n) sweep(proposal_sample(std, n, rep(-Inf, d), rep(Inf, d)) %*% t(U),
                                  2L, mf$m, "+"),
       log_density = function(X)
         proposal_log_density(std, t(backsolve(U, t(sweep(X, 2L, mf$m))))) - ld)
}

# The proposal for the bridge of replicate k, chosen with the particles of the
# other replicates only (so that it is independent of replicate k's): among
# the base p0, in whitened coordinates (`whitened`: the path runs in those
# of a Laplace fit) the Gaussian and Student-t (df 10) of that fit, and the
# moment-matched Gaussian and Student-t (df 10, 5) of the other replicates'
# weighted particles, the one with the lowest weighted variance of l = log f
# - log q at those particles (zero for q = f/Z; the replicates weighted by
# their SMC estimates of Z). A moment fit is scored
# across halves of the other replicates (fitted to one, scored on the
# other), so that it gains nothing from fitting the particles it is scored on,
# and needs 2 or more other replicates.
bridge_proposal <- function(p0, Z, lw, lf, run, lz_runs, k, whitened) {
  d <- ncol(Z)
  use <- lw > -Inf & is.finite(lf)
  # normalised weights of a set of replicates, each weighing its share of
  # their SMC estimates of Z (see bridge_iterate())
  pooled_w <- function(rows) {
    a <- lw[rows] + lz_runs[run[rows]]
    w <- exp(a - max(a))
    w / sum(w)
  }
  score_on <- function(q, rows) {
    v <- weighted_var(lf[rows] - q$log_density(Z[rows, , drop = FALSE]), pooled_w(rows))
    if (is.finite(v)) v else Inf
  }
  o <- use & run != k
  cands <- list(bridge_fixed(p0, d))
  if (whitened) cands <- c(cands, list(bridge_fixed(proposal_normal(rep(0, d), 1), d),
                                       bridge_fixed(proposal_student(10, rep(0, d), 1), d)))
  score <- vapply(cands, score_on, 0, rows = o)
  others <- sort(unique(run[o]))
  if (length(others) >= 2L) {
    half <- run %in% others[seq_along(others) %% 2L == 1L]
    for (df in c(Inf, 10, 5)) {
      s <- vapply(list(o & half, o & !half), function(fit_rows) {
        test <- o & !fit_rows
        if (exp(log_ess(lw[fit_rows])) <= 2 * d) return(Inf)
        q <- bridge_moment(Z[fit_rows, , drop = FALSE], pooled_w(fit_rows), df)
        if (is.null(q)) Inf else score_on(q, test)
      }, 0)
      q <- if (all(is.finite(s))) bridge_moment(Z[o, , drop = FALSE], pooled_w(o), df)
      if (!is.null(q)) {
        cands[[length(cands) + 1L]] <- q
        score <- c(score, mean(s))
      }
    }
  }
  cands[[which.min(score)]]
}

# The relative variances of one group's pieces of the bridge at log r
# (Fruhwirth-Schnatter 2004, Eq. 16 without autocorrelation): per draw from
# q, of l / (s1 l + s2 r) there; and over the weighted particles (their ESS
# counted), of 1 / (s1 l + s2 r). The group's estimate of log r has variance
# about q / draws + p. Draws outside the support (l = 0) count, as in
# bridge_iterate().
bridge_rel_var <- function(g, lr) {
  n2 <- sum(!is.na(g$ell2))
  ls1 <- log(g$n1 / (g$n1 + n2))
  ls2 <- log(n2 / (g$n1 + n2))
  lae <- function(a) log_add_exp(ls1 + a, ls2 + lr)
  rv <- function(lv, w) {
    v <- exp(lv - max(lv))
    w <- w / sum(w)
    m <- sum(w * v)
    sum(w * (v - m)^2) / m^2
  }
  ok1 <- g$lw1 > -Inf & g$ell1 > -Inf
  ok2 <- !is.na(g$ell2)
  c(q = rv(g$ell2[ok2] - lae(g$ell2[ok2]), rep(1, sum(ok2))),
    p = rv(-lae(g$ell1[ok1]), exp(g$lw1[ok1] - max(g$lw1[ok1]))) / g$n1)
}

# The bridge estimate of each replicate with its own proposal
# (bridge_proposal(): chosen with the other replicates) and draws from it.
# Z, lw, lf, run: the final particles (in the path's coordinates), their
# log weights (normalised within each replicate), log f there, and their
# replicate (1..R); lz_runs: each replicate's SMC log Z; fn: a
# cont_evaluator() of the target in those coordinates. `draws`: draws from each proposal; NULL: first as many as the particles,
# then more, up to `cost` (the evaluations per replicate so far), to the
# number that minimises variance x cost, sqrt(q cost / p) with the mean
# relative variances of bridge_rel_var() (the draws from q cost one
# evaluation each; the particles are paid for). Returns list(log_z (pooled
# over the replicates), se (the jackknife over them), log_z_runs, converged,
# draws (per replicate), evaluations).
smc_bridge_estimate <- function(fn, p0, Z, lw, lf, run, lz_runs, draws, cost, start, whitened) {
  reps <- sort(unique(run))
  R <- length(reps)
  adapt <- is.null(draws)
  if (adapt) draws <- as.integer(nrow(Z) / R)
  qs <- lapply(reps, function(k)
    if (R > 1L) bridge_proposal(p0, Z, lw, lf, run, lz_runs, k, whitened) else bridge_fixed(p0, ncol(Z)))
  more <- function(q, n) {
    Y <- q$sample(n)
    lf2 <- as.double(fn(Y, 0L))
    ifelse(lf2 == -Inf, -Inf, lf2 - q$log_density(Y))
  }
  groups <- lapply(seq_len(R), function(j) {
    i <- run == reps[j]
    q <- qs[[j]]
    list(ell1 = ifelse(lf[i] == -Inf, -Inf, lf[i] - q$log_density(Z[i, , drop = FALSE])),
         lw1 = lw[i], ell2 = more(q, draws), n1 = exp(log_ess(lw[i])), lz = lz_runs[reps[j]])
  })
  all <- bridge_iterate(groups, start)
  if (adapt && all[["converged"]] == 1) {
    rv <- rowMeans(vapply(groups, bridge_rel_var, c(q = 0, p = 0), lr = all[["log_z"]]))
    want <- if (all(is.finite(rv)) && rv[["p"]] > 0) sqrt(rv[["q"]] * cost / rv[["p"]]) else draws
    want <- as.integer(min(max(draws, ceiling(want)), max(draws, floor(cost))))
    if (want > draws) {
      for (j in seq_len(R)) groups[[j]]$ell2 <- c(groups[[j]]$ell2, more(qs[[j]], want - draws))
      draws <- want
      all <- bridge_iterate(groups, all[["log_z"]])
    }
  }
  each <- vapply(groups, function(g) bridge_iterate(list(g), start)[["log_z"]], 0)
  ok <- all[["converged"]] == 1
  se <- NA_real_
  if (ok && R > 1L) {
    # the jackknife over replicates
    jk <- vapply(seq_len(R), function(k) {
      b <- bridge_iterate(groups[-k], all[["log_z"]])
      if (b[["converged"]] == 1) b[["log_z"]] else NA_real_
    }, 0)
    if (all(is.finite(jk))) se <- sqrt((R - 1) / R * sum((jk - mean(jk))^2)) else ok <- FALSE
  }
  list(log_z = if (ok) all[["log_z"]] else NA_real_, se = se, log_z_runs = each, converged = ok,
       draws = draws, evaluations = draws * R, proposal_fit = bridge_proposal_fit(groups))
}

# How well the bridge's proposals describe the target: the importance
# weights f/q at the draws from each replicate's q (pooled; each q is
# normalised, so their mean is itself an unbiased estimate of Z), their
# ESS/M and Pareto k-hat (see weight_diagnostics()). The proposals are the
# best Gaussian or Student-t fits of the particles; weights with k-hat above
# 0.7 mean mass the fits do not hold (tails heavier than theirs, a curved
# ridge) and that the particles of a tempered run from such a base reach
# too rarely for either se to show (see smc_bridge_flags()).
bridge_proposal_fit <- function(groups) {
  lw <- unlist(lapply(groups, function(g) g$ell2[!is.na(g$ell2)]), use.names = FALSE)
  if (!length(lw) || !any(lw > -Inf))
    return(c(log_z = NA_real_, ess_ratio = NA_real_, khat = NA_real_))
  wd <- weight_diagnostics(lw)
  c(log_z = log_sum_exp(lw) - log(length(lw)), ess_ratio = wd$ess_ratio, khat = wd$khat)
}

# The bridge estimate of a function target's smc() fit (with `ell`, the log
# ratio at its final particles in the path's coordinates `x`, and `run`):
# adds `bridge` (c(log_z, se, se_jackknife)), `bridge_runs` (each replicate alone), `smc`
# (the SMC estimate), and sets log_z and se by `estimator`: "bridge", "smc",
# or "auto" (the bridge when every replicate's iteration converged, it has an
# se (2 or more replicates), that se is at most the SMC se, and the two
# estimates agree within BRIDGE_AGREE combined se; otherwise the SMC
# estimate, and smc_bridge_flags() flags the disagreement); `estimator`
# in the result says which. `draws`: see smc_bridge_estimate().
smc_add_bridge <- function(fit, fn, p0, draws, estimator, whitened) {
  R <- as.integer(fit$counts[["replicates"]])
  fit$estimator <- "smc"
  fit$smc <- c(log_z = fit$log_z, se = fit$se)
  if (identical(draws, 0L) || estimator == "smc") return(fit)
  lf <- fit$ell + proposal_log_density(p0, fit$x)
  cost <- sum(fit$counts[c("density_evaluations", "gradient_evaluations")]) / R
  b <- smc_bridge_estimate(fn, p0, fit$x, fit$log_weights, lf, fit$run, fit$log_z_runs, draws,
                           cost, fit$log_z,
                           whitened)
  fit$counts[["density_evaluations"]] <- fit$counts[["density_evaluations"]] + b$evaluations
  fit$bridge <- c(log_z = b$log_z, se = bridge_se(b$se, fit$se, R, b$proposal_fit[["ess_ratio"]]),
                  se_jackknife = b$se)
  fit$bridge_runs <- b$log_z_runs
  fit$bridge_proposal_fit <- b$proposal_fit
  fit$bridge_draws <- b$draws
  use <- if (estimator == "bridge") is.finite(b$log_z) else
    b$converged && is.finite(b$se) && (!is.finite(fit$se) || fit$bridge[["se"]] <= fit$se) &&
      !isTRUE(bridge_gap(fit)[["ratio"]] > BRIDGE_AGREE)
  if (use) {
    fit$log_z <- b$log_z
    fit$se <- fit$bridge[["se"]]
    fit$estimator <- "bridge"
  }
  fit
}

# The se of the bridge estimate from its jackknife se over R replicates and
# the se of the SMC estimate of the same runs: the replicates share the base
# and the schedule, so their particles can depart from the posterior
# together, an error their spread does not show and that does not bias the
# SMC estimate: BRIDGE_SHARED times its se is added in quadrature, times
# min(1, sqrt(1 - ess_ratio) / 0.1) with ess_ratio the ESS/M of the weights
# f/q at the draws from q (bridge_proposal_fit()): a q that is the
# normalised target (l = f/q constant, ESS/M 1) makes the bridge exact
# whatever the particles, and one with ESS/M of 0.99 or less gets the whole
# share; and the jackknife from R replicates has R - 1 degrees of freedom,
# so the sum is scaled by qt(0.975, R - 1) / qnorm(0.975), so that log Z +-
# 1.96 se is a 95% interval (a Student-t interval written as a normal one).
bridge_se <- function(se_jackknife, se_smc, R, ess_ratio = NA_real_) {
  if (!is.finite(se_jackknife) || R < 2L) return(NA_real_)
  fac <- if (is.finite(ess_ratio)) min(1, sqrt(max(0, 1 - ess_ratio)) / 0.1) else 1
  shared <- if (is.finite(se_smc)) BRIDGE_SHARED * se_smc * fac else 0
  stats::qt(0.975, R - 1L) / stats::qnorm(0.975) * sqrt(se_jackknife^2 + shared^2)
}

# The share of the SMC estimate's se that the bridge's se takes on for the
# particles' shared departure from the posterior (see bridge_se()).
BRIDGE_SHARED <- 0.05

# How far apart (in combined se) the bridge and SMC estimates of the same
# runs may be before the bridge is not preferred under "auto" and the result
# is flagged: a two-sided band that noise crosses in about 0.3% of runs (at
# 2 it would flag, and fall back from the more accurate bridge on, one run
# in 20 whose two estimates are both right).
BRIDGE_AGREE <- 3

# The gap between the bridge and SMC estimates of a fit: c(gap (nats),
# se (combined), ratio), NA where either is missing.
bridge_gap <- function(fit) {
  b <- fit$bridge
  s <- fit$smc
  gap <- abs(b[["log_z"]] - s[["log_z"]])
  se <- sqrt(sum(c(b[["se"]], s[["se"]])^2))
  c(gap = gap, se = se, ratio = if (is.finite(gap) && is.finite(se) && se > 0) gap / se else NA_real_)
}

# The flags of the bridge estimate: asked for but not converged (log Z is
# then the SMC estimate), or more than BRIDGE_AGREE combined se from the SMC
# estimate of the same runs.
smc_bridge_flags <- function(fit, estimator) {
  b <- fit$bridge
  if (is.null(b)) return(character())
  if (!is.finite(b[["log_z"]]))
    return(if (estimator == "bridge")
      "the bridge estimate did not converge: log Z is the SMC estimate" else character())
  gs <- bridge_gap(fit)
  out <- if (isTRUE(gs[["ratio"]] > BRIDGE_AGREE))
    sprintf(paste0("the bridge and SMC estimates of the same runs differ by %.3g nats, %.1f combined ",
                   "se (threshold %g); log Z is the %s estimate"),
            gs[["gap"]], gs[["ratio"]], BRIDGE_AGREE,
            if (identical(fit$estimator, "bridge")) "bridge" else "smc")
  else character()
  c(out, bridge_fit_flag(fit$bridge_proposal_fit))
}

# The flag of a target that the bridge's proposals (the best Gaussian and
# Student-t fits of the final particles) explain poorly: the importance
# weights f/q at their draws with Pareto k-hat above BRIDGE_FIT_KHAT (an
# infinite variance: tails heavier than every fit's, a curved ridge) and
# ESS/M below BRIDGE_FIT_ESS (so that a near-exact fit, whose almost
# constant weights give k-hat no meaning, never fires). The particles of a
# tempered run then reach that mass too rarely for the se to show: both
# estimates are likely too low. `pf`: c(log_z, ess_ratio, khat) or NULL.
bridge_fit_flag <- function(pf) {
  if (is.null(pf) || !is.finite(pf[["ess_ratio"]]) || !is.finite(pf[["khat"]]) ||
      pf[["ess_ratio"]] >= BRIDGE_FIT_ESS || pf[["khat"]] <= BRIDGE_FIT_KHAT) return(character())
  sprintf(paste0("the Gaussian and Student-t fits of the final particles explain the target poorly ",
                 "(importance weights f/q at the bridge's draws: Pareto k-hat %.2f > %g, ESS/M %s < %g): ",
                 "it has mass (tails, a curved ridge) that the particles reach too rarely for the se ",
                 "to show; log Z is likely too low"),
          pf[["khat"]], BRIDGE_FIT_KHAT, format_ratio(pf[["ess_ratio"]]), BRIDGE_FIT_ESS)
}

# The thresholds of bridge_fit_flag(): k-hat above 0.5 is an infinite
# variance of the weights; an ESS/M of 0.4 or more is a fit close enough
# that the particles cover the target.
BRIDGE_FIT_KHAT <- 0.5
BRIDGE_FIT_ESS <- 0.4

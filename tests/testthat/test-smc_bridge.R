# The bridge estimate of smc() on R log densities (R/smc_bridge.R): the
# optimal bridge between proposals fitted to the replicates' final particles
# and those particles, its se over the replicates, and the choice of the
# reported estimate.

# Bayesian linear regression as an R log density (log prior + log
# likelihood, vectorized) with its gradient; log Z in closed form.
regression_function <- function(seed, n = 30, d = 4) {
  r <- regression_model(seed, n = n, d = d)
  m <- r$model
  list(f = function(B) m$log_prior(B) + m$log_lik(B),
       g = function(B) m$gradient_prior(B) + m$gradient_lik(B), exact = r$exact, d = d)
}

test_that("the bridge iteration is exact when q is the normalised target", {
  # l = f / q constant: every iteration returns it
  g <- list(ell1 = rep(-2.5, 50), lw1 = rep(0, 50), ell2 = rep(-2.5, 80), n1 = 50)
  b <- logz:::bridge_iterate(list(g), start = 0)
  expect_equal(b[["log_z"]], -2.5, tolerance = 1e-9)
  expect_identical(b[["converged"]], 1)
  # f = 3 N(0, 1), q = N(0.5, 1.2^2), exact draws from both: log Z = log 3
  set.seed(1)
  x <- stats::rnorm(4000)
  y <- stats::rnorm(4000, 0.5, 1.2)
  l <- function(v) log(3) + stats::dnorm(v, log = TRUE) - stats::dnorm(v, 0.5, 1.2, log = TRUE)
  b <- logz:::bridge_iterate(list(list(ell1 = l(x), lw1 = rep(0, 4000), ell2 = l(y), n1 = 4000)),
                             start = 0)
  expect_lt(abs(b[["log_z"]] - log(3)), 0.01)
})

test_that("Gaussian linear regression: the bridge from the Laplace fit is exact", {
  r <- regression_function(1)
  set.seed(2)
  fit <- smc(r$f, gradient = r$g, vectorized = TRUE, start = rep(0, r$d), particles = 100,
             progress = FALSE)
  expect_identical(fit$estimator, "bridge")
  # the posterior is the Gaussian of the Laplace fit: l = log f - log q is constant
  expect_lt(abs(fit$log_z - r$exact), 1e-6)
  expect_lt(abs(fit$smc[["log_z"]] - r$exact), 3 * fit$smc[["se"]] + 0.01)
  expect_true(fit$reliable)
})

test_that("from a base far from the posterior, the bridge beats the SMC estimate of the same runs", {
  r <- regression_function(3)
  err <- vapply(1:5, function(s) {
    set.seed(s)
    fit <- smc(r$f, gradient = r$g, vectorized = TRUE, base = proposal_normal(rep(0, r$d), 3),
               particles = 100, progress = FALSE)
    c(smc = fit$smc[["log_z"]], bridge = fit$bridge[["log_z"]], z = (fit$log_z - r$exact) / fit$se) -
      c(r$exact, r$exact, 0)
  }, c(smc = 0, bridge = 0, z = 0))
  rmse <- sqrt(rowMeans(err[1:2, ]^2))
  # the old default (the SMC estimate) misses a bound the bridge meets, on the same runs
  expect_lt(rmse[["bridge"]], 0.02)
  expect_gt(rmse[["smc"]], 0.02)
  expect_true(all(abs(err["z", ]) <= 3))
})

test_that("the reported se covers the truth over seeds (|z| <= 3), mostly by the bridge", {
  h <- hierarchical_normal(n = 8)
  res <- vapply(1:20, function(s) {
    set.seed(200 + s)
    fit <- suppressWarnings(smc(h$f, gradient = h$g, vectorized = TRUE, start = h$start,
                                particles = 60, mode_starts = 0, progress = FALSE),
                            classes = "logz_unreliable")
    c(z = (fit$log_z - h$log_z) / fit$se, bridge = fit$estimator == "bridge",
      err_bridge = fit$bridge[["log_z"]] - h$log_z, err_smc = fit$smc[["log_z"]] - h$log_z)
  }, numeric(4))
  z <- res["z", ]
  expect_gte(mean(abs(z) <= 3), 0.95)
  expect_lt(abs(mean(z)), 3 / sqrt(20))
  expect_gt(max(abs(z)), 0.2)
  expect_gte(mean(res["bridge", ]), 0.75)
  # on this funnel-shaped posterior the bridge is the more accurate of the two
  expect_lt(sqrt(mean(res["err_bridge", ]^2)), sqrt(mean(res["err_smc", ]^2)))
})

test_that("`estimator` picks the estimate, `bridge_draws` its draws, and the cost counts them", {
  tg <- correlated_gaussian(3)
  run <- function(...) {
    set.seed(4)
    smc(tg$f, gradient = tg$g, vectorized = TRUE, base = proposal_normal(rep(0, 3), 2),
        particles = 50, replicates = 4, progress = FALSE, ...)
  }
  s <- run(estimator = "smc")
  b <- run(estimator = "bridge", bridge_draws = 300)
  expect_identical(s$estimator, "smc")
  expect_null(s$bridge)
  expect_identical(b$estimator, "bridge")
  expect_identical(b$bridge_draws, 300L)
  # the same SMC runs; the bridge adds one density evaluation per draw
  expect_identical(b$smc, c(log_z = s$log_z, se = s$se))
  expect_equal(b$counts[["density_evaluations"]] - s$counts[["density_evaluations"]], 4 * 300)
  expect_equal(b$counts[["gradient_evaluations"]], s$counts[["gradient_evaluations"]])
  expect_length(b$bridge_runs, 4L)
  # a bayes_model's power posteriors report the SMC estimate
  p <- normal_mean_model(3)
  set.seed(1)
  expect_identical(smc(p$model, particles = 50, replicates = 2, progress = FALSE)$estimator, "smc")
  expect_output(print(b), "bridge sampling")
})

test_that("bad `estimator` and `bridge_draws` are errors naming them", {
  tg <- correlated_gaussian(2)
  go <- function(...) smc(tg$f, gradient = tg$g, vectorized = TRUE, start = c(0, 0),
                          progress = FALSE, ...)
  expect_error(go(estimator = "brige"), "`estimator` must be one of")
  expect_error(go(estimator = 1), "`estimator`")
  expect_error(go(bridge_draws = -1), "`bridge_draws`")
  expect_error(go(bridge_draws = "many"), "`bridge_draws`")
  expect_error(go(bridge_draws = c(10, 20)), "`bridge_draws`")
  expect_error(go(estimator = "bridge", bridge_draws = 0), "`bridge_draws` = 0")
})

test_that("draws from q outside a bounded support count (half-normal: exact log Z)", {
  # f = exp(-x^2 / 2) on x > 0, log Z = log(sqrt(2 pi) / 2); q = N(0, 1) puts
  # half its draws where f = 0: dropping them doubles Z (log Z + 0.69)
  set.seed(1)
  x <- abs(stats::rnorm(4000))
  y <- stats::rnorm(4000)
  l <- function(v) ifelse(v > 0, -v^2 / 2 - stats::dnorm(v, log = TRUE), -Inf)
  g <- list(ell1 = l(x), lw1 = rep(0, 4000), ell2 = l(y), n1 = 4000)
  b <- logz:::bridge_iterate(list(g), start = 0)
  expect_lt(abs(b[["log_z"]] - log(sqrt(2 * pi) / 2)), 0.03)
  # the relative variance of the q side counts the draws outside too
  rv <- logz:::bridge_rel_var(g, b[["log_z"]])
  expect_true(all(is.finite(rv)))
  # a group with no draw inside the support does not converge
  g$ell2 <- rep(-Inf, 10)
  expect_identical(logz:::bridge_iterate(list(g), start = 0)[["converged"]], 0)
})

test_that("under \"auto\" the bridge is not reported when it disagrees with the SMC estimate", {
  fit <- list(log_z = 0, se = 0.1, counts = c(replicates = 2))
  fake <- function(b, s) list(bridge = c(log_z = b, se = 0.05), smc = c(log_z = s, se = 0.05),
                              estimator = "smc")
  expect_equal(logz:::bridge_gap(fake(0.3, 0))[["ratio"]], 0.3 / sqrt(0.005))
  # 4.2 combined se apart: flagged, naming the estimate reported
  expect_match(logz:::smc_bridge_flags(fake(0.3, 0), "auto"),
               "differ by 0.3 nats, 4.2 combined se \\(threshold 3\\); log Z is the smc estimate")
  # 1.4 and 2.3 combined se apart: no flag (noise crosses 2 in one run of 20)
  expect_length(logz:::smc_bridge_flags(fake(0.1, 0), "auto"), 0L)
  expect_length(logz:::smc_bridge_flags(fake(0.16, 0), "auto"), 0L)
})

test_that("the bridge se: the jackknife plus a share of the SMC se, scaled to R - 1 degrees of freedom", {
  tf <- stats::qt(0.975, 7) / stats::qnorm(0.975)
  expect_equal(logz:::bridge_se(0.01, 0.1, 8L),
               tf * sqrt(0.01^2 + (logz:::BRIDGE_SHARED * 0.1)^2))
  expect_equal(logz:::bridge_se(0.01, NA_real_, 8L), tf * 0.01)
  expect_true(is.na(logz:::bridge_se(NA_real_, 0.1, 8L)))
  expect_true(is.na(logz:::bridge_se(0.01, 0.1, 1L)))
  # the share of the SMC se falls with the bridge's dependence on the particles:
  # whole at ESS/M 0.99 or less, none when q is the normalised target
  expect_equal(logz:::bridge_se(0.01, 0.1, 8L, ess_ratio = 0.5), logz:::bridge_se(0.01, 0.1, 8L))
  expect_equal(logz:::bridge_se(0.01, 0.1, 8L, ess_ratio = 1), tf * 0.01)
  expect_equal(logz:::bridge_se(0.01, 0.1, 8L, ess_ratio = 0.9975),
               tf * sqrt(0.01^2 + (logz:::BRIDGE_SHARED * 0.1 * 0.5)^2))
})

test_that("the bridge se matches the spread of the bridge estimate over seeds", {
  # Poisson counts with a Gamma(2, 1) prior on the log rate: log Z in closed form
  y <- c(3, 1, 4, 1, 5, 9, 2, 6)
  f <- function(U) vapply(U[, 1], function(u) sum(stats::dpois(y, exp(u), log = TRUE)), 0) +
    stats::dgamma(exp(U[, 1]), 2, 1, log = TRUE) + U[, 1]
  g <- function(U) matrix(sum(y) - length(y) * exp(U[, 1]) + 1 - exp(U[, 1]) + 1)
  exact <- -lgamma(2) + lgamma(2 + sum(y)) - (2 + sum(y)) * log(1 + length(y)) - sum(lgamma(y + 1))
  r <- vapply(1:12, function(s) {
    set.seed(s)
    fit <- smc(f, gradient = g, vectorized = TRUE, start = 0, particles = 60, progress = FALSE)
    c(err = fit$bridge[["log_z"]] - exact, se = fit$bridge[["se"]])
  }, c(err = 0, se = 0))
  # the se neither twice too wide nor half too narrow (the old share of a
  # third of the SMC se made it about twice too wide)
  ratio <- sqrt(mean(r["err", ]^2)) / sqrt(mean(r["se", ]^2))
  expect_gt(ratio, 0.5)
  expect_lt(ratio, 2)
})

test_that("a target its particles' fits explain poorly is flagged, a near-exact fit is not", {
  flag <- logz:::bridge_fit_flag
  expect_match(flag(c(log_z = 0, ess_ratio = 0.05, khat = 0.9)),
               "explain the target poorly .*k-hat 0.90 > 0.5, ESS/M 0.05 < 0.4")
  # near-constant weights: k-hat means nothing, no flag
  expect_length(flag(c(log_z = 0, ess_ratio = 0.99, khat = 3)), 0L)
  expect_length(flag(c(log_z = 0, ess_ratio = 0.2, khat = 0.3)), 0L)
  expect_length(flag(NULL), 0L)
  # the weights at draws from an exact q: ESS/M 1, log Z exact
  g <- list(list(ell2 = rep(-1.5, 30)), list(ell2 = c(rep(-1.5, 20), NA)))
  pf <- logz:::bridge_proposal_fit(g)
  expect_equal(pf[["log_z"]], -1.5)
  expect_equal(pf[["ess_ratio"]], 1)
  # Haario's banana (b = 0.03, d = 3): its curved arms hold mass the Gaussian
  # and t fits do not; a correlated Gaussian: silent
  b <- 0.03
  fb <- function(x) -0.5 * (x[1]^2 / 100 + (x[2] + b * (x[1]^2 - 100))^2 + sum(x[-(1:2)]^2))
  gb <- function(x) {
    y2 <- x[2] + b * (x[1]^2 - 100)
    c(-x[1] / 100 - y2 * 2 * b * x[1], -y2, -x[-(1:2)])
  }
  set.seed(3)
  fit <- suppressWarnings(smc(fb, gradient = gb, start = rep(0, 3), progress = FALSE),
                          classes = "logz_unreliable")
  expect_true(any(grepl("explain the target poorly", fit$flags)))
  tg <- correlated_gaussian(3)
  set.seed(3)
  fit <- smc(tg$f, gradient = tg$g, vectorized = TRUE, start = rep(0.1, 3), progress = FALSE)
  expect_false(any(grepl("explain the target poorly", fit$flags)))
  expect_gt(fit$bridge_proposal_fit[["ess_ratio"]], 0.4)
})

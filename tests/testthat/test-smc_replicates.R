test_that("a run's own relative variance is the importance-sampling one without resampling", {
  w <- c(4, 1, 1, 2)
  N <- length(w)
  W <- w / sum(w)
  # no resampling: each particle its own ancestor; (N sum W^2 - 1) / (N - 1)
  expect_equal(logz:::smc_rel_var(w, seq_len(N), 0L), (N * sum(W^2) - 1) / (N - 1))
  expect_equal(logz:::smc_rel_var(w, seq_len(N), 0L), var(w) / N / mean(w)^2)
  # every particle from one ancestor: the run knows nothing of its variance
  expect_equal(logz:::smc_rel_var(w, rep(2L, N), 1L), 1)
  # two ancestors after one resampling: 1 - (N / (N - 1))^2 (1 - sum S_e^2), floored at 0
  s <- c(sum(W[1:2]), sum(W[3:4]))
  expect_equal(logz:::smc_rel_var(w, c(1L, 1L, 3L, 3L), 1L),
               max(0, 1 - (N / (N - 1))^2 * (1 - sum(s^2))))
  expect_equal(logz:::smc_rel_var(rep(1, 100), seq_len(100), 3L), 0)
})

test_that("the se is the larger of the replicates' spread and the runs' own variance", {
  comb <- logz:::combine_log_z(c(-1, -1.02, -0.99), c(0.01, 0.02, 0.015))
  lm <- log(mean(exp(c(-1, -1.02, -0.99))))
  within <- sqrt(sum(exp(2 * (c(-1, -1.02, -0.99) - lm)) * c(0.01, 0.02, 0.015))) / 3
  expect_equal(comb[["se_within"]], within)
  expect_equal(comb[["se"]], max(comb[["se_replicates"]], within))
  expect_equal(comb[["se_replicates"]], logz:::combine_log_z(c(-1, -1.02, -0.99))[["se"]])
  # one replicate: no se, as without rel_var
  expect_true(is.na(logz:::combine_log_z(-1, 0.01)[["se"]]))
})

test_that("the runs' own variance estimates the spread of Z over replicates", {
  # a Student-t target (df 8) from its Gaussian Laplace base: right-skewed weights
  d <- 5
  nu <- 8
  f <- function(X) -(nu + d) / 2 * log1p(rowSums(X^2) / nu)
  g <- function(X) -(nu + d) * X / (nu + rowSums(X^2))
  set.seed(3)
  fit <- smc(f, gradient = g, vectorized = TRUE, start = rep(0.1, d), particles = 100,
             replicates = 100, refit_base = FALSE, mode_starts = 0, progress = FALSE)
  spread <- stats::var(exp(fit$log_z_runs - fit$log_z))
  expect_length(fit$rel_var_runs, 100L)
  expect_gt(mean(fit$rel_var_runs) / spread, 0.3)
  expect_lt(mean(fit$rel_var_runs) / spread, 3)
  expect_equal(fit$smc[["se"]], max(fit$se_parts))
  exact <- lgamma(nu / 2) + d / 2 * log(nu * pi) - lgamma((nu + d) / 2)
  expect_lt(abs(fit$smc[["log_z"]] - exact) / fit$smc[["se"]], 3)
  expect_lt(abs(fit$log_z - exact) / fit$se, 3)
})

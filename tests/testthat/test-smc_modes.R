# The multi-start mode search of smc() and the missed-mode flag.

test_that("a two-mode mixture: the mode search finds the far mode and log Z keeps its mass", {
  mx <- two_mode_mixture(6)
  err <- vapply(1:3, function(s) {
    set.seed(s)
    fit <- smc(mx$f, gradient = mx$g, vectorized = TRUE, start = mx$start, particles = 100,
               replicates = 4, progress = FALSE)
    expect_gte(fit$modes_found, 1L)
    expect_match(fit$base$how, "multi-start search")
    fit$log_z - mx$log_z
  }, 0)
  # the Laplace base at the heavier mode alone misses log(0.7) = -0.36 nats
  expect_lt(max(abs(err)), 0.15)
})

test_that("a run whose particles miss a mode the search found is flagged", {
  lb <- laplace_base(function(x) -sum(x^2) / 2, start = c(1, 1), gradient = function(x) -x,
                     df = Inf)
  far <- laplace_base(function(x) -sum((x - 6)^2) / 2, start = c(5, 5),
                      gradient = function(x) -(x - 6), df = Inf)
  set.seed(1)
  X <- matrix(stats::rnorm(40), 20)
  flag <- logz:::smc_check_modes(lb, list(far), X, rep(-log(20), 20), rep(1L, 20))
  expect_match(flag, "^a mode the particles did not reach: .* 0.50 of the Laplace mass .* holds 0.00")
  # particles in both modes in proportion: no flag
  X2 <- rbind(X[1:10, ], X[11:20, ] + 6)
  expect_length(logz:::smc_check_modes(lb, list(far), X2, rep(-log(20), 20), rep(1L, 20)), 0L)
  expect_error(smc(function(x) -sum(x^2) / 2, start = c(0, 0), mode_starts = -1,
                   progress = FALSE), "`mode_starts`")
  expect_error(smc(function(x) -sum(x^2) / 2, start = c(0, 0), refit_base = NA,
                   progress = FALSE), "`refit_base`")
})

test_that("the missed-mode flag fires end to end when the particles miss a found mode", {
  # 0.7 N(0, 1) + 0.3 N(8, 0.05^2): the search finds the narrow far mode
  # (seed 1), but 20 particles from the widened base do not reach it
  w2 <- 0.3
  parts <- function(X) {
    a <- log(1 - w2) + stats::dnorm(X[, 1], 0, 1, log = TRUE)
    b <- log(w2) + stats::dnorm(X[, 1], 8, 0.05, log = TRUE)
    list(a = a, b = b, mx = pmax(a, b))
  }
  f <- function(X) {
    p <- parts(X)
    p$mx + log(exp(p$a - p$mx) + exp(p$b - p$mx))
  }
  g <- function(X) {
    p <- parts(X)
    wa <- exp(p$a - p$mx) / (exp(p$a - p$mx) + exp(p$b - p$mx))
    matrix(-(wa * X[, 1] + (1 - wa) * (X[, 1] - 8) / 0.05^2))
  }
  set.seed(1)
  fit <- suppressWarnings(smc(f, gradient = g, vectorized = TRUE, start = 0.1, particles = 20,
                              replicates = 4, progress = FALSE))
  expect_identical(fit$modes_found, 1L)
  expect_lt(fit$log_z, log(1 - w2) + 0.15)          # the far mode's mass is missing
  expect_false(fit$reliable)
  expect_match(fit$flags, "^a mode the particles did not reach: .* at \\(8\\), with 0.30 of the Laplace mass",
               all = FALSE)
  # a unimodal target at the same size: no such flag
  set.seed(1)
  uni <- smc(function(X) stats::dnorm(X[, 1], 0, 1, log = TRUE), gradient = function(X) -X,
             vectorized = TRUE, start = 0.1, particles = 20, replicates = 4, progress = FALSE)
  expect_identical(uni$modes_found, 0L)
  expect_false(any(grepl("did not reach", uni$flags)))
})

# The defaults of smc() and log_partition() on R log densities: the base
# refitted to a pilot run where the Laplace fit is off-centre, the
# multi-start mode search, and SMC as log_partition()'s choice.

test_that("log_partition() on an R function with a gradient runs SMC by default", {
  tg <- correlated_gaussian(2)
  set.seed(3)
  fit <- log_partition(tg$f, gradient = tg$g, vectorized = TRUE, start = c(0, 0),
                       particles = 100, replicates = 4, progress = FALSE)
  expect_s3_class(fit, "logz_smc")
  expect_identical(fit$method, "SMC")
  expect_lt(abs(fit$log_z - tg$log_z), 3 * fit$se + 0.01)
  # an argument of ais() only is an error naming the choice
  expect_error(log_partition(tg$f, gradient = tg$g, vectorized = TRUE, start = c(0, 0),
                             n_chains = 10), "chose \"smc\"")
})

test_that("hierarchical normal: the base refitted to the pilot brings log Z within 0.15 nats", {
  h <- hierarchical_normal(n = 20)
  err <- vapply(1:4, function(s) {
    set.seed(s)
    fit <- smc(h$f, gradient = h$g, vectorized = TRUE, start = h$start, particles = 100,
               replicates = 4, progress = FALSE)
    expect_false(is.null(fit$base$refit))
    expect_lt(fit$base$refit[["var_refit"]], fit$base$refit[["var_laplace"]])
    fit$log_z - h$log_z
  }, 0)
  # from the Laplace fit in the funnel's neck alone, an error of 0.83 nats at seed 4
  expect_lt(sqrt(mean(err^2)), 0.15)
})

test_that("a Gaussian target keeps its (exact) Laplace base", {
  tg <- correlated_gaussian(4)
  set.seed(2)
  fit <- smc(tg$f, gradient = tg$g, vectorized = TRUE, start = rep(0, 4), particles = 100,
             replicates = 4, progress = FALSE)
  expect_null(fit$base$refit)
  expect_identical(fit$modes_found, 0L)
  expect_true(fit$reliable)
})

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

test_that("log_partition() on a bayes_model with gradients runs SMC on its joint from a Laplace base", {
  rm <- regression_model(3)
  set.seed(4)
  fit <- log_partition(rm$model, particles = 100, replicates = 4, progress = FALSE)
  expect_s3_class(fit, "logz_smc")
  expect_match(fit$target, "from a Laplace base")
  expect_lt(abs(fit$log_z - rm$exact), max(3 * fit$se, 0.02))
  # the power posteriors from the prior cross the whole information gain:
  # several times the temperatures for the same particles
  set.seed(4)
  prior <- smc(rm$model, particles = 100, replicates = 1, progress = FALSE)
  expect_gt(prior$counts[["temperatures"]], 5 * fit$counts[["temperatures"]])
  # without gradients, "auto" takes the log joint from the Laplace base too
  p <- normal_mean_model(15, gradients = FALSE)
  set.seed(5)
  a <- log_partition(p$model, particles = 100, replicates = 2, progress = FALSE)
  expect_match(a$target, "from a Laplace base")
})

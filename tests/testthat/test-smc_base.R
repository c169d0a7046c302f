# The defaults of smc() and log_partition() on R log densities: the base
# refitted to a pilot run where the Laplace fit is off-centre, and SMC as
# log_partition()'s choice (the mode search is in test-smc_modes.R).

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
  # without gradients, "auto" keeps the power posteriors
  p <- normal_mean_model(15, gradients = FALSE)
  set.seed(5)
  a <- log_partition(p$model, particles = 100, replicates = 2, progress = FALSE)
  expect_match(a$target, "power posteriors")
})

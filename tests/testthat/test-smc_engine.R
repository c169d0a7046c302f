# The steps of adaptive tempering SMC: the conditional ESS, bisection, resampling.

test_that("the conditional ESS of each step is held at `cess`", {
  p <- normal_mean_model(4)
  set.seed(4)
  fit <- smc(p$model, particles = 300, replicates = 2, cess = 0.8, progress = FALSE)
  expect_equal(fit$cess, 0.8)
  # with the pilot's schedule every replicate runs on the same betas
  expect_identical(fit$schedules[[1]], fit$schedules[[2]])
  set.seed(4)
  ad <- smc(p$model, particles = 300, replicates = 2, schedule = "adaptive", progress = FALSE)
  expect_false(identical(ad$schedules[[1]], ad$schedules[[2]]))
  # bisection: the chosen step's CESS fraction is 0.8 (except the last one, capped at beta = 1)
  lw <- log(rep(1 / 5, 5))
  ell <- c(-1, 0, 2, 3, -4)
  b <- logz:::smc_next_beta(lw, ell, 0, 0.8)
  expect_equal(logz:::smc_cess(lw, ell, b), 0.8, tolerance = 1e-8)
  expect_identical(logz:::smc_next_beta(lw, ell * 1e-6, 0, 0.8), 1)
  # resampling draws in proportion to the weights
  set.seed(5)
  idx <- logz:::resample_systematic(c(0.5, 0.25, 0.25, 0), 4000)
  expect_equal(as.vector(table(factor(idx, 1:4))), c(2000, 1000, 1000, 0))
})

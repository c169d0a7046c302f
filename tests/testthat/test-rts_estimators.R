# The c_hat of the initial iterations (Rao-Blackwellized or visit counts, the
# paper's Figure 1) and the pooled likelihood of Eq. 14 over stages.

test_that("c_hat = \"visits\" updates the ladder from the counts plus 0.1", {
  g <- ising_grid(3, 3, coupling = 0.4, field = 0.1)
  K <- 12
  M <- 20
  set.seed(1)
  # (one sweep per stage: the drift check may warn)
  fit <- suppressWarnings(rts(g, K = K, n_chains = M, sweeps = 20, init_iter = 1, init_sweeps = 1,
                              tol = 1e-9, pilot_sweeps = 0, groups = 1, estimators = "rts",
                              c_hat = "visits", progress = FALSE))
  # one sweep of M chains: the counts are whole numbers summing to M
  counts <- fit$init$c_hat[1, ] * (M + 0.1 * K) - 0.1
  expect_equal(counts, round(counts), tolerance = 1e-9)
  expect_equal(sum(counts), M)
  # the update is Eq. 12 with those c_hat
  expect_equal(fit$init$log_z[1, ] - fit$init$log_z_hat[1, ],
               log(fit$init$c_hat[1, ] / fit$init$c_hat[1, 1]) - log(fit$prior / fit$prior[1]))
  set.seed(1)
  rb <- suppressWarnings(rts(g, K = K, n_chains = M, sweeps = 20, init_iter = 1, init_sweeps = 1,
                             tol = 1e-9, pilot_sweeps = 0, groups = 1, estimators = "rts",
                             progress = FALSE))
  expect_false(isTRUE(all.equal(rb$init$c_hat, fit$init$c_hat)))
  expect_error(rts(g, K = K, c_hat = "counts", progress = FALSE), "`c_hat`")
})

test_that("Rao-Blackwellized initial iterations reach the exact ladder sooner than visit counts", {
  g <- ising_grid(3, 4, coupling = 0.5, field = 0.1)
  ex <- exact_log_z(g)$log_z
  err <- function(how) vapply(1:6, function(s) {
    set.seed(s)
    fit <- suppressWarnings(rts(g, K = 40, n_chains = 20, sweeps = 10, init_iter = 4,
                                init_sweeps = 10, tol = 1e-9, pilot_sweeps = 0, groups = 1,
                                estimators = "rts", c_hat = how, progress = FALSE))
    fit$init$log_z[4, 40] - ex
  }, 0)
  rmse <- function(e) sqrt(mean(e^2))
  expect_lt(rmse(err("rao_blackwell")), rmse(err("visits")))
})

test_that("the pooled Eq. 14 likelihood is Eq. 12 on one stage and pools stages on one ladder", {
  K <- 6
  lr <- log(exp(2 * seq(0, 1, length.out = K)))
  z <- c(0, 1.5, 2.5, 3, 3.2, 3.1)
  c1 <- c(0.1, 0.2, 0.15, 0.2, 0.25, 0.1)
  one <- logz:::rts_combine_stages(z, c1, 1, lr, 5)
  expect_equal(as.vector(one), 5 + logz:::rts_update_ladder(z, c1, lr), tolerance = 1e-8)
  c2 <- c(0.2, 0.1, 0.25, 0.15, 0.2, 0.1)
  two <- logz:::rts_combine_stages(rbind(z, z), rbind(c1, c2), c(100, 300), lr, 5)
  expect_equal(as.vector(two), 5 + logz:::rts_update_ladder(z, (100 * c1 + 300 * c2) / 400, lr),
               tolerance = 1e-8)
  # stages under different ladders whose c_hat agree with the same truth give it back
  truth <- c(0, 2, 3, 3.5, 3.6, 3.4)
  zs <- rbind(truth + c(0, 0.5, -0.3, 0.2, 0, 0.4), truth + c(0, -0.2, 0.1, 0.6, -0.5, 0))
  cs <- t(apply(zs, 1L, function(zz) { q <- exp(lr + truth - zz); q / sum(q) }))
  expect_equal(as.vector(logz:::rts_combine_stages(zs, cs, c(50, 80), lr, 0)), truth,
               tolerance = 1e-7)
})

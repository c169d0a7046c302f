# The diagonal mass matrix of MALA/HMC in rts() on an R log density: learnt per
# rung in the initial iterations, then frozen.

gauss3 <- function() {
  s <- c(0.3, 1, 3)
  mu <- c(1, -1, 2)
  list(s = s, log_z = sum(log(s)) + 1.5 * log(2 * pi),
       f = function(X) -0.5 * rowSums(sweep(sweep(X, 2, mu), 2, s, "/")^2),
       g = function(X) -sweep(sweep(X, 2, mu), 2, s^2, "/"))
}

test_that("rts() on a function adapts the HMC mass to the target's sds and stays correct", {
  tg <- gauss3()
  op <- options(logz.warn_unreliable = FALSE)   # the ladder-drift flag of a short run
  on.exit(options(op))
  set.seed(4)
  fit <- rts(tg$f, base = proposal_normal(c(0, 0, 0), 4), gradient = tg$g, vectorized = TRUE,
             kernel = "hmc", n_leapfrog = 5L, K = 40L, n_chains = 50L, sweeps = 400L,
             progress = FALSE)
  expect_equal(dim(fit$mass), c(40L, 3L))
  # at beta = 1 the position scales are the target's sds (1 / sqrt(mass))
  expect_equal(fit$mass[40, ], tg$s, tolerance = 0.15)
  # near beta = 0 they are the base's (sd 4), far from the target's 0.3
  expect_true(all(fit$mass[1, ] > 1.5))
  expect_lt(abs(fit$log_z - tg$log_z), 4 * fit$se + 0.02)
})

test_that("rts_rung_scales() interpolates and smooths the per-rung sds", {
  K <- 10L
  betas <- seq(0, 1, length.out = K)
  sd_true <- cbind(exp(seq(log(4), log(0.5), length.out = K)), rep(2, K))
  q <- rep(50, K)
  q[c(3, 4)] <- 0                               # two rungs without weight
  mom <- list(q = q, x = matrix(0, K, 2), xx = q * sd_true^2)
  sc <- logz:::rts_rung_scales(mom, c(4, 4), betas)
  expect_equal(sc[, 2], rep(2, K), tolerance = 1e-6)
  expect_equal(sc[c(1, 10), 1], sd_true[c(1, 10), 1], tolerance = 0.1)
  expect_true(all(is.finite(sc)) && all(sc > 0))
  # no rung with weight: the template throughout
  mom0 <- list(q = numeric(K), x = matrix(0, K, 2), xx = matrix(0, K, 2))
  expect_equal(logz:::rts_rung_scales(mom0, c(4, 1), betas), matrix(c(4, 1), K, 2, byrow = TRUE))
})

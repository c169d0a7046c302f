# ARM-reseed's fresh particles, SMC without a move step, and particles kept at
# chosen iterations, against exact answers (enumeration, orthant probabilities).

# log f_n of every state of the first n spins of an Ising model (variables in
# the order 1..N), with the states: the exact p_n by enumeration.
ising_prefix <- function(g, n) {
  X <- as.matrix(expand.grid(rep(list(g$values), n)))
  e <- g$edges[g$edges$from <= n & g$edges$to <= n, ]
  lf <- drop(X %*% g$field[seq_len(n)]) +
    rowSums(X[, e$from, drop = FALSE] * X[, e$to, drop = FALSE] *
              rep(e$weight, each = nrow(X)))
  list(X = X, lf = lf)
}

reseed_gpc_model <- function(n, seed, lengthscale = 1.5, amplitude = 2) {
  set.seed(seed)
  d <- data.frame(x1 = rnorm(n), x2 = rnorm(n))
  d$y <- ifelse(d$x1 + 0.7 * rnorm(n) > 0, 1, -1)
  gpc(y ~ x1 + x2, d, lengthscale = lengthscale, amplitude = amplitude)
}

reseed_orthant <- function(m) {
  log(as.numeric(mvtnorm::pmvnorm(ifelse(m$y > 0, 0, -Inf), ifelse(m$y > 0, Inf, 0),
                                  sigma = m$sigma,
                                  algorithm = mvtnorm::GenzBretz(maxpts = 2e6, abseps = 1e-8))))
}

test_that("fresh reseed particles are properly weighted for f_n (Ising, GPC, RBM)", {
  skip_if_not_installed("mvtnorm")
  set.seed(11)
  g <- ising_grid(3, 3, coupling = 0.7, field = 0.3)
  spec <- logz:::arm_spec_ising(g, seq_len(9))
  fr <- logz:::arm_fresh_sampler(spec)(6, 20000)
  ex <- ising_prefix(g, 6)
  u <- exp(fr$lu - logz:::log_sum_exp(ex$lf))
  expect_lt(abs(mean(u) - 1), 4 * sd(u) / sqrt(length(u)))
  # the weighted fresh states target p_6: marginals of P(x_i = +1)
  p_ex <- colSums(exp(ex$lf - logz:::log_sum_exp(ex$lf)) * (ex$X == 1))
  w <- u / sum(u)
  p_fr <- colSums(w * t(fr$X == 1))
  se <- sqrt(colSums(w^2 * (t(fr$X == 1) - rep(p_ex, each = ncol(fr$X)))^2))
  expect_true(all(abs(p_fr - p_ex) < 4 * se + 1e-3))

  m <- reseed_gpc_model(8, 3)
  spec <- logz:::arm_spec_gpc(m, seq_len(8))
  fr <- logz:::arm_fresh_sampler(spec)(8, 20000)
  ex <- reseed_orthant(m)
  u <- exp(fr$lu - ex)
  expect_lt(abs(mean(u) - 1), 4 * sd(u) / sqrt(length(u)))
  expect_true(all(fr$X * m$y > 0))

  r <- random_rbm(8, 4, sd = 1)
  b <- logz:::resolve_base(r, NULL)
  spec <- logz:::arm_spec_rbm(r, seq_len(8), b)
  fr <- logz:::arm_fresh_sampler(spec)(8, 20000)
  u <- exp(fr$lu + spec$log_z0 - exact_log_z(r))
  expect_lt(abs(mean(u) - 1), 4 * sd(u) / sqrt(length(u)))
})

test_that("fresh reseed particles do not depend on the current set", {
  # the block is drawn without the pool: two runs whose pools differ (other
  # seeds before the block) give the same block from the same stream
  g <- ising_grid(3, 3, coupling = 0.7, field = 0.3)
  fresh <- logz:::arm_fresh_sampler(logz:::arm_spec_ising(g, seq_len(9)))
  set.seed(5)
  a <- fresh(9, 50)
  # resampled copies of a collapsed pool (the previous reseed) would all be one
  # state; fresh draws spread over the states of p_9
  expect_gt(nrow(unique(t(a$X))), 25)
})

test_that("ARM-reseed is unbiased on Z over seeds (Ising, GPC, RBM)", {
  skip_if_not_installed("mvtnorm")
  # gamma_threshold = 1 with the per-block rule expands once at (almost) every
  # iteration, with S = R = 50 fresh particles, so the z-test sees the block
  zt <- function(lz, ex) {
    u <- exp(lz - ex)
    (mean(u) - 1) / (sd(u) / sqrt(length(u)))
  }
  g <- ising_grid(3, 3, coupling = 0.6, field = 0.2)
  m <- reseed_gpc_model(10, 4, lengthscale = 1, amplitude = 3)
  r <- random_rbm(9, 4, sd = 1)
  cases <- list(list(g, exact_log_z(g), 2L), list(m, reseed_orthant(m), 1L), list(r, exact_log_z(r), 2L))
  for (cs in cases) {
    set.seed(21)
    lz <- replicate(40, arm(cs[[1]], particles = 50, variant = "reseed", rule = "per_block",
                            gamma_threshold = 1, i_max = 1, move_steps = cs[[3]],
                            reseed_steps = 2L, progress = FALSE)$log_z)
    expect_lt(abs(zt(lz, cs[[2]])), 4)
  }
})

test_that("move_steps = 0 runs SMC without a move step, unbiased on Z", {
  g <- ising_grid(3, 3, coupling = 0.6, field = 0.2)
  ex <- exact_log_z(g)
  set.seed(3)
  fits <- lapply(1:40, function(i) arm(g, particles = 30, variant = "rm", move_steps = 0,
                                       progress = FALSE))
  expect_true(all(vapply(fits, function(f) f$counts[["particle_moves"]], 0) == 0))
  u <- exp(vapply(fits, `[[`, 0, "log_z") - ex)
  expect_lt(abs(mean(u) - 1), 4 * sd(u) / sqrt(length(u)))
  expect_error(arm(g, move_steps = 0), "move_steps")
  expect_error(arm(g, variant = "anticipate", move_steps = 0), "variant")
  expect_s3_class(arm(g, particles = 20, variant = "reseed", move_steps = 0, progress = FALSE),
                  "logz_arm")
})

test_that("keep_particles at iterations keeps particles that target p_n", {
  g <- ising_grid(3, 3, coupling = 0.5, field = 0.3)
  set.seed(8)
  fit <- arm(g, particles = 4000, keep_particles = c(5, 9), progress = FALSE)
  expect_named(fit$particles_at, c("5", "9"))
  k5 <- fit$particles_at[["5"]]
  expect_equal(dim(k5$states), c(4000L, 5L))
  expect_equal(sum(exp(k5$log_weights)), 1)
  ex <- ising_prefix(g, 5)
  p_ex <- colSums(exp(ex$lf - logz:::log_sum_exp(ex$lf)) * (ex$X == 1))
  p_fit <- colSums(exp(k5$log_weights) * (k5$states == 1))
  expect_lt(max(abs(p_fit - p_ex)), 0.05)
  expect_equal(fit$particles_at[["9"]]$states, fit$states)
  expect_error(arm(g, keep_particles = 0), "keep_particles")
  expect_error(arm(g, keep_particles = 10), "keep_particles")
  expect_error(arm(g, keep_particles = NA), "keep_particles")
})

test_that("RBM reseed from training examples: a mixture proposal with exact weights", {
  set.seed(12)
  r <- random_rbm(8, 4, sd = 1)
  data <- matrix(rbinom(5 * 8, 1, 0.4), 5, 8)
  spec <- logz:::arm_spec_rbm(r, 8:1)
  spec$seed_p <- logz:::arm_seed_components(data, 8, 8:1)
  fr <- logz:::arm_fresh_sampler(spec)(8, 20000)
  u <- exp(fr$lu + spec$log_z0 - exact_log_z(r))
  expect_lt(abs(mean(u) - 1), 4 * sd(u) / sqrt(length(u)))
  set.seed(13)
  # some runs are flagged (min ESS / R_n < 0.1): the fresh blocks' weights vary
  lz <- suppressWarnings(replicate(30, arm(r, particles = 50, variant = "reseed", rule = "per_block",
                                           gamma_threshold = 1, i_max = 1, move_steps = 2,
                                           reseed_steps = 1, reseed_data = data,
                                           progress = FALSE)$log_z), classes = "logz_unreliable")
  u <- exp(lz - exact_log_z(r))
  expect_lt(abs(mean(u) - 1), 4 * sd(u) / sqrt(length(u)))
  expect_error(arm(r, variant = "reseed", reseed_data = data[, 1:7]), "reseed_data")
  expect_error(arm(r, variant = "reseed", reseed_data = data + 1), "reseed_data")
  expect_error(arm(r, reseed_data = data), "reseed_data")
})

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

# log P(y_i z_i > 0 for all i), z ~ N(0, K + I): the exact evidence (to about
# 1e-4 relative, far inside the tests' bands)
reseed_orthant <- function(m) {
  log(as.numeric(mvtnorm::pmvnorm(ifelse(m$y > 0, 0, -Inf), ifelse(m$y > 0, Inf, 0),
                                  sigma = m$sigma,
                                  algorithm = mvtnorm::GenzBretz(maxpts = 2e5, abseps = 1e-6))))
}

# A fixed base for the RBM runs, so that no run pays for the automatic base's pilot
fixed_base <- function(r) logz:::resolve_base(r, "visible")

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

  m <- arm_gpc_model(8, 3)
  spec <- logz:::arm_spec_gpc(m, seq_len(8))
  fr <- logz:::arm_fresh_sampler(spec)(8, 20000)
  ex <- reseed_orthant(m)
  u <- exp(fr$lu - ex)
  expect_lt(abs(mean(u) - 1), 4 * sd(u) / sqrt(length(u)))
  expect_true(all(fr$X * m$y > 0))

  r <- random_rbm(8, 4, sd = 1)
  spec <- logz:::arm_spec_rbm(r, seq_len(8), fixed_base(r))
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
  m <- arm_gpc_model(10, 4, lengthscale = 1, amplitude = 3)
  r <- random_rbm(9, 4, sd = 1)
  cases <- list(list(g, exact_log_z(g), 2L, NULL), list(m, reseed_orthant(m), 1L, NULL),
                list(r, exact_log_z(r), 2L, fixed_base(r)))
  for (cs in cases) {
    set.seed(21)
    args <- list(cs[[1]], particles = 50, variant = "reseed", rule = "per_block",
                 gamma_threshold = 1, i_max = 1, move_steps = cs[[3]], reseed_steps = 2L,
                 progress = FALSE, keep_particles = FALSE, base = cs[[4]])
    lz <- replicate(40, do.call(arm, args[!vapply(args, is.null, NA)])$log_z)
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
  b <- fixed_base(r)
  lz <- suppressWarnings(replicate(30, arm(r, particles = 50, variant = "reseed", rule = "per_block",
                                           gamma_threshold = 1, i_max = 1, move_steps = 2,
                                           reseed_steps = 1, reseed_data = data, base = b,
                                           progress = FALSE, keep_particles = FALSE)$log_z),
                         classes = "logz_unreliable")
  u <- exp(lz - exact_log_z(r))
  expect_lt(abs(mean(u) - 1), 4 * sd(u) / sqrt(length(u)))
  expect_error(arm(r, variant = "reseed", reseed_data = data[, 1:7], base = b), "reseed_data")
  expect_error(arm(r, variant = "reseed", reseed_data = data + 1, base = b), "reseed_data")
  expect_error(arm(r, reseed_data = data), "reseed_data")
})

test_that("reseed_weights = \"equal\" (the paper's 1/S) is unbiased for converged fresh draws only", {
  # fresh particles from the uniform base: after 20 Gibbs moves they are close
  # to exact draws from p_n and 1/S weights are unbiased on Z; unmoved
  # (reseed_steps = 0) they are the base's draws, and 1/S weights are biased
  # low (z far below -4), where the importance weights stay unbiased
  set.seed(5)
  r <- rbm(matrix(rnorm(36), 9, 4), rnorm(9), rnorm(4))
  b <- logz:::resolve_base(r, "uniform")
  ex <- exact_log_z(r)$log_z
  z_of <- function(weights, steps) {
    set.seed(21)
    lz <- suppressWarnings(replicate(40, arm(r, particles = 20, variant = "reseed", rule = "per_block",
                                             base = b, gamma_threshold = 1, i_max = 1, move_steps = 2,
                                             reseed_steps = steps, reseed_weights = weights,
                                             progress = FALSE, keep_particles = FALSE)$log_z),
                           classes = "logz_unreliable")
    u <- exp(lz - ex)
    (mean(u) - 1) / (sd(u) / sqrt(length(u)))
  }
  expect_lt(abs(z_of("equal", 20L)), 4)
  expect_lt(z_of("equal", 0L), -4)
  expect_lt(abs(z_of("importance", 0L)), 4)
  set.seed(1)
  f <- arm(r, particles = 20, variant = "reseed", reseed_weights = "eq", base = b, progress = FALSE)
  expect_identical(f$reseed_weights, "equal")
  expect_null(f$reseed_shift)
  expect_true(all(is.na(f$diagnostics$fresh_shift)))
  expect_false("fresh reseed blocks" %in% substr(f$flags, 1, 19))
  expect_error(arm(r, reseed_weights = "equal", base = b), "reseed_weights")
  expect_error(arm(r, variant = "reseed", reseed_weights = "1/S", base = b), "reseed_weights")
})

test_that("a reseed run whose fresh blocks lower log Z is flagged; an easy one is not", {
  # two equal modes (the patterns s > 0 and s < 0) and fresh particles from the
  # uniform base: a block of 20 rarely lands in a mode, so a typical block's
  # estimate of Z_n is far below the pool's and the mixture loses up to log 2
  # per expansion
  s <- rep(c(1, -1), length.out = 24)
  two_mode <- rbm(matrix(4 * s, 24, 1), a = -2 * s, b = 0)
  ex <- exact_log_z(two_mode)$log_z
  b <- logz:::resolve_base(two_mode, "uniform")
  run <- function(m, base = NULL) {
    args <- list(m, particles = 20, variant = "reseed", rule = "per_block", gamma_threshold = 1,
                 i_max = 1, move_steps = 2, reseed_steps = 0, progress = FALSE,
                 keep_particles = FALSE, base = base)
    do.call(arm, args[!vapply(args, is.null, NA)])
  }
  set.seed(1)
  fits <- suppressWarnings(lapply(1:10, function(i) run(two_mode, b)), classes = "logz_unreliable")
  flagged <- vapply(fits, function(f) any(grepl("^fresh reseed blocks lowered log Z by [0-9.]+ nats > 1$",
                                                f$flags)), NA)
  shift <- vapply(fits, `[[`, 0, "reseed_shift")
  expect_gte(sum(flagged), 6)
  expect_identical(flagged, shift < -1)
  for (f in fits) expect_equal(f$reseed_shift, sum(f$diagnostics$fresh_shift, na.rm = TRUE))
  # the flagged runs are low: by about the shift
  lz <- vapply(fits, `[[`, 0, "log_z")
  expect_lt(mean(lz[flagged]) - ex, -1)
  expect_gt(cor(lz, shift), 0.5)
  expect_true(all(fits[[1]]$diagnostics$fresh_ess < 1, na.rm = TRUE))
  set.seed(1)
  expect_warning(run(two_mode, b), class = "logz_unreliable")
  # the same settings on an easy model: the shift stays near 0 over seeds
  g <- ising_grid(3, 3, coupling = 0.6, field = 0.2)
  set.seed(2)
  easy <- replicate(10, run(g)$reseed_shift)
  expect_lt(max(abs(easy)), 0.3)
  expect_no_warning(ok <- run(g))
  expect_true(ok$reliable)
})

# Adaptive Resample-Move against exact log Z (enumeration, orthant probability).

orthant <- function(m) {
  lo <- ifelse(m$y > 0, 0, -Inf)
  up <- ifelse(m$y > 0, Inf, 0)
  log(as.numeric(mvtnorm::pmvnorm(lo, up, sigma = m$sigma,
                                  algorithm = mvtnorm::GenzBretz(maxpts = 2e6, abseps = 1e-8))))
}

test_that("ARM, RM and the variants agree with the exact orthant probability (GP classification)", {
  skip_if_not_installed("mvtnorm")
  m <- arm_gpc_model(16, 1, lengthscale = 1, amplitude = 3)
  ex <- orthant(m)
  for (v in c("arm", "rm", "anticipate", "reseed")) for (rule in c("pool_ess", "per_block")) {
    set.seed(2)
    fit <- arm(m, particles = 300, variant = v, rule = rule, i_max = 5, repeats = 8,
               progress = FALSE)
    expect_s3_class(fit, "logz_arm")
    expect_lt(abs(fit$log_z - ex), 4 * fit$se + 0.03)
  }
  expect_lt(abs(ep_log_z(m) - ex), 0.15)
})

test_that("the first smooth step is exact: Z_1 = 1/2 for GPC, 2 cosh(f_1) for Ising", {
  m <- arm_gpc_model(6, 3)
  set.seed(1)
  fit <- arm(m, particles = 10, progress = FALSE)
  expect_equal(fit$diagnostics$log_z[1], log(0.5))
  g <- ising(NULL, field = c(0.3, -0.2, 0.5))
  set.seed(1)
  fit <- arm(g, particles = 10, progress = FALSE)
  expect_equal(fit$diagnostics$log_z[1], log(2 * cosh(0.3)))
  # no couplings: every smooth weight is constant, so log Z is exact
  expect_equal(fit$log_z, exact_log_z(g))
})

test_that("ARM and RM are within tolerance of exact log Z on 15-variable Ising models", {
  set.seed(4)
  models <- list(ising_grid(3, 5, coupling = 0.8, field = 0.3),
                 ising_random(15, n_edges = 30, coupling = 0.6, field = 0.3, type = "mixed"),
                 ising_clique(15, coupling = 0.15, field = 0.2, spins = "01"))
  for (g in models) {
    ex <- exact_log_z(g)
    for (v in c("arm", "per_block", "rm")) {
      set.seed(5)
      fit <- if (v == "per_block") arm(g, particles = 300, rule = v, repeats = 6, progress = FALSE)
             else arm(g, particles = 300, variant = v, repeats = 6, progress = FALSE)
      expect_lt(abs(fit$log_z - ex), 4 * fit$se + 0.03)
    }
  }
})

test_that("ARM and RM are within tolerance of exact log Z on small RBMs", {
  set.seed(6)
  for (k in 1:2) {
    r <- random_rbm(12, 5, sd = 1)
    ex <- exact_log_z(r)
    for (v in c("arm", "per_block", "rm")) {
      set.seed(7)
      fit <- if (v == "per_block") arm(r, particles = 300, rule = v, move_steps = 3, repeats = 6,
                                       progress = FALSE)
             else arm(r, particles = 300, variant = v, move_steps = 3, repeats = 6, progress = FALSE)
      expect_lt(abs(fit$log_z - ex), 4 * fit$se + 0.03)
    }
  }
})

test_that("ARM on a trained MNIST RBM (784 x 20) is close to the exact log Z", {
  skip_on_cran()
  fx <- mnist_rbm20()
  set.seed(8)
  fit <- arm(fx$model, particles = 100, move_steps = 2, i_max = 3, progress = FALSE)
  expect_lt(abs(fit$log_z - fx$log_z), 2)
  # the default order adds the most variable pixels first
  p <- plogis(fx$model$base_rate)
  v <- p * (1 - p)
  expect_true(all(diff(v[fit$order]) <= 0))
})

test_that("gamma_threshold = 0 makes ARM identical to RM under the same seed", {
  m <- arm_gpc_model(12, 9, lengthscale = 1, amplitude = 3)
  set.seed(11)
  a <- arm(m, particles = 50, variant = "arm", gamma_threshold = 0, progress = FALSE)
  set.seed(11)
  b <- arm(m, particles = 50, variant = "rm", progress = FALSE)
  expect_identical(a$log_z, b$log_z)
  expect_identical(a$diagnostics, b$diagnostics)
  r <- rbm(matrix(c(1, -1, 0.5, 2, 0, -0.5), 3, 2))
  set.seed(12)
  a <- arm(r, particles = 30, gamma_threshold = 0, progress = FALSE)
  set.seed(12)
  b <- arm(r, particles = 30, variant = "rm", progress = FALSE)
  expect_identical(a$log_z, b$log_z)
})

test_that("ARM expands the particle set when gamma is low and resamples back to R", {
  m <- arm_gpc_model(14, 13, lengthscale = 2, amplitude = 8)
  set.seed(14)
  fit <- arm(m, particles = 40, i_max = 4, rule = "per_block", progress = FALSE)
  d <- fit$diagnostics
  # the text's rule: an expansion that stops before i_max has ESS / R_n >= 0.7
  stopped <- d$particles > 40 & d$particles < 40 * 5
  expect_true(all(d$gamma[stopped] >= 0.7))
  expect_gt(fit$counts[["expansions"]], 0)
  expect_true(all(d$particles %% 40 == 0))
  expect_true(all(d$particles <= 40 * 5))
  expect_true(all(d$resampled[d$particles > 40] == 1))
  expect_equal(fit$counts[["particle_moves"]], sum(d$particles[-1]))
  # gamma0 is gamma of the R moved particles: expansions start exactly below the
  # threshold, and an iteration without expansion keeps it
  ex <- d$particles > 40
  expect_true(all(d$gamma0[ex] < 0.7))
  expect_true(all(d$gamma0[!ex & d$n > 1] >= 0.7))
  expect_equal(d$gamma0[!ex], d$gamma[!ex])
})

test_that("arm() is reproducible under set.seed and independent of threads", {
  g <- ising_grid(3, 4, coupling = 0.7, field = 0.1)
  set.seed(15)
  a <- arm(g, particles = 60, progress = FALSE)
  set.seed(15)
  b <- arm(g, particles = 60, threads = 2, progress = FALSE)
  expect_identical(a$log_z, b$log_z)
  m <- arm_gpc_model(10, 16)
  set.seed(17)
  a <- arm(m, particles = 60, progress = FALSE)
  set.seed(17)
  b <- arm(m, particles = 60, threads = 2, progress = FALSE)
  expect_identical(a$diagnostics, b$diagnostics)
})

test_that("arm() rejects bad input, naming the argument", {
  g <- ising_grid(2, 2)
  expect_error(arm(g, particles = 1), "particles")
  expect_error(arm(g, gamma_threshold = 1.5), "gamma_threshold")
  expect_error(arm(g, ess_threshold = -0.1), "ess_threshold")
  expect_error(arm(g, i_max = -1), "i_max")
  expect_error(arm(g, move_steps = 0), "move_steps")
  expect_error(arm(g, repeats = 0), "repeats")
  expect_error(arm(g, order = c(1, 1, 2, 3)), "order")
  expect_error(arm(g, variant = "nope"), "variant")
  expect_error(arm(list(a = 1)), "model")
})

test_that("the two stopping rules: pool_ess stops once the pool's ESS reaches gamma_thr R", {
  m <- arm_gpc_model(14, 13, lengthscale = 2, amplitude = 8)
  set.seed(14)
  a <- arm(m, particles = 40, i_max = 20, rule = "pool_ess", progress = FALSE)
  set.seed(14)
  b <- arm(m, particles = 40, i_max = 20, rule = "per_block", progress = FALSE)
  expect_identical(a$rule, "pool_ess")
  expect_identical(b$rule, "per_block")
  expect_identical(a$order, b$order)
  da <- a$diagnostics
  ex <- da$particles > 40
  expect_true(any(ex))
  # stopped before i_max: ESS of the pool >= 0.7 R (not 0.7 R_n)
  st <- ex & da$particles < 40 * 21
  expect_true(all(da$ess[st] >= 0.7 * 40))
  expect_true(any(da$gamma[st] < 0.7))
  # the same first test (gamma0 below 0.7) under both rules; pool_ess costs less
  expect_true(all(da$gamma0[ex] < 0.7))
  expect_lt(a$counts[["particle_moves"]], b$counts[["particle_moves"]])
  expect_error(arm(m, rule = "nope"), "rule")
})

test_that("ARM-anticipate blocks hold at most 2R particles (N_r = floor(R w))", {
  # a split of the last block by its own size would grow the blocks geometrically here
  m <- arm_gpc_model(20, 21, lengthscale = 2, amplitude = 10)
  set.seed(22)
  # a hard problem at small R on purpose: its low-ESS flag is not what is tested here
  fit <- suppressWarnings(arm(m, particles = 30, variant = "anticipate", rule = "per_block",
                              i_max = 6, progress = FALSE), classes = "logz_unreliable")
  d <- fit$diagnostics
  expect_gt(fit$counts[["expansions"]], 0)
  expect_true(all(d$particles <= 30 * (1 + 2 * 6)))
  expect_true(any(d$particles > 30 * 7))
})

test_that("arm() on a GP classifier adds the data in a seeded random order by default", {
  m <- arm_gpc_model(12, 23)
  set.seed(24)
  a <- arm(m, particles = 30, progress = FALSE)
  set.seed(24)
  b <- arm(m, particles = 30, progress = FALSE)
  expect_identical(a$order, b$order)
  expect_identical(a$log_z, b$log_z)
  expect_setequal(a$order, seq_len(12))
  expect_false(identical(a$order, seq_len(12)))
  # the stored RNG state reproduces the run, order included
  assign(".Random.seed", a$seed, envir = globalenv())
  c2 <- arm(m, particles = 30, progress = FALSE)
  expect_identical(c2$log_z, a$log_z)
  set.seed(24)
  d <- arm(m, particles = 30, order = seq_len(12), progress = FALSE)
  expect_identical(d$order, seq_len(12))
})

test_that("arm() refuses overflowing weights and particle stores beyond memory", {
  g <- ising_grid(3, 3, coupling = 1e298, field = 0.1)   # past 1e300 ising() refuses it
  expect_error(arm(g, particles = 50, progress = FALSE), "double precision")
  expect_error(arm(ising_grid(3, 3, coupling = 1e308, field = 0.1), particles = 50,
                   progress = FALSE), "too large")
  expect_error(arm(ising_grid(3, 3), particles = .Machine$integer.max, progress = FALSE),
               "particles.*needs about .* GiB")
  # the pool's growth is checked too
  m <- arm_gpc_model(14, 13, lengthscale = 2, amplitude = 8)
  old <- options(logz.max_bytes = 40 * 2.5 * (14 * 8 + 128))
  on.exit(options(old))
  set.seed(14)
  expect_error(arm(m, particles = 40, i_max = 4, rule = "per_block", progress = FALSE),
               "pool would grow")
})

test_that("a time limit stops arm() inside its C loops", {
  skip_on_cran()
  g <- ising_grid(20, 20, coupling = 0.4)
  f <- function() {
    setTimeLimit(elapsed = 0.5, transient = TRUE)
    arm(g, particles = 2e4, progress = FALSE)
  }
  expect_error(f(), "time limit")
})

# E[z | y] of the z-representation for two data points in closed form (Tallis
# 1961): u = y z ~ N(0, D S D) truncated to u > 0; E[u_i] = sum_k S_ik F_k / a
# with F_k = phi(0) / sigma_k * P(u_other > 0 | u_k = 0) = 1 / (2 sigma_k sqrt(2 pi))
# and a = P(u > 0) = 1/4 + asin(rho) / (2 pi) (= Z).
gpc2_moments <- function(m) {
  S <- m$sigma * tcrossprod(m$y)
  s <- sqrt(diag(S))
  a <- 1 / 4 + asin(S[1, 2] / prod(s)) / (2 * pi)
  Eu <- drop(S %*% (1 / (2 * s * sqrt(2 * pi)))) / a
  list(log_z = log(a), z = m$y * Eu)
}

weighted_mean_se <- function(x, lw) {
  w <- exp(lw - max(lw))
  w <- w / sum(w)
  mu <- colSums(w * x)
  list(mean = mu, se = sqrt(colSums(w^2 * sweep(x, 2, mu)^2)))
}

test_that("ARM's final weighted particles match a two-point GP classifier in closed form", {
  d <- data.frame(a = c(0, 0.4), y = c(1, -1))
  m <- gpc(y ~ a, d, lengthscale = 1, amplitude = 2)
  ex <- gpc2_moments(m)
  set.seed(12)
  # no resampling: the weights carry the last smoothing step
  fit <- arm(m, particles = 20000, variant = "rm", ess_threshold = 0, progress = FALSE)
  expect_identical(dim(fit$states), c(20000L, 2L))
  expect_identical(colnames(fit$states), c("z1", "z2"))
  expect_equal(sum(exp(fit$log_weights)), 1)
  expect_gt(diff(range(fit$log_weights)), 1)
  expect_true(all(fit$states[, 1] > 0 & fit$states[, 2] < 0))   # y z > 0
  expect_lt(abs(fit$log_z - ex$log_z), 0.02)
  ms <- weighted_mean_se(fit$states, fit$log_weights)
  expect_true(all(abs(ms$mean - ex$z) < 4 * ms$se))
  # the latent f: E[f | y] = K (K + I)^-1 E[z | y]
  Ef <- drop(m$K %*% solve(m$sigma, ms$mean))
  expect_equal(Ef, drop(m$K %*% solve(m$sigma, ex$z)), tolerance = 0.02)
  # the rows follow the data, whatever the order the points were added in
  set.seed(12)
  rev_fit <- arm(m, particles = 20000, variant = "rm", ess_threshold = 0, order = 2:1,
                 progress = FALSE)
  ms2 <- weighted_mean_se(rev_fit$states, rev_fit$log_weights)
  expect_true(all(abs(ms2$mean - ex$z) < 4 * ms2$se))
})

test_that("ARM's final weighted particles give the exact marginals of Ising models and RBMs", {
  set.seed(13)
  g <- ising(data.frame(from = c(1, 2, 3, 4, 1, 2), to = c(2, 3, 4, 5, 6, 6), weight = 0.6),
             field = c(1, -0.8, 0.5, 0, -0.3, 0.9))
  ex <- exact_marginals(g)$node
  fit <- arm(g, particles = 3000, repeats = 2, order = c(6, 2, 4, 1, 5, 3), progress = FALSE)
  expect_identical(fit$run, rep(1:2, each = 3000))
  p <- colSums(exp(fit$log_weights) * (fit$states == 1)) / 2
  expect_lt(max(abs(p - ex)), 0.04)
  r <- random_rbm(8, 3, sd = 1)
  V <- as.matrix(expand.grid(rep(list(0:1), 8)))
  pv <- exp(-free_energy(r, V) - exact_log_z(r))
  set.seed(14)
  fit <- arm(r, particles = 3000, move_steps = 3, progress = FALSE)
  expect_true(all(fit$states %in% 0:1))
  expect_lt(max(abs(colSums(exp(fit$log_weights) * fit$states) - colSums(pv * V))), 0.04)
  # keep_particles = FALSE keeps none, and the same estimate
  set.seed(14)
  fit0 <- arm(r, particles = 3000, move_steps = 3, keep_particles = FALSE, progress = FALSE)
  expect_null(fit0$states)
  expect_identical(fit0$log_z, fit$log_z)
  expect_error(arm(r, particles = 10, keep_particles = NA, progress = FALSE), "`keep_particles`")
  withr_opt <- options(logz.max_bytes = 2.5e5)
  on.exit(options(withr_opt))
  expect_error(arm(r, particles = 1000, repeats = 4, progress = FALSE),
               "Keeping the final particles .* 4 runs x R = 1000 particles x 8 variables")
  expect_silent(arm(r, particles = 1000, repeats = 4, keep_particles = FALSE, progress = FALSE))
})

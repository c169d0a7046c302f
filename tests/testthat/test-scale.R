# Scale-out through future: pieces merged exactly, results independent of the
# plan for a given seed and number of pieces.

small_rbm <- function() {
  set.seed(3)
  rbm(matrix(rnorm(60, 0, 0.5), 12, 5), rnorm(12), rnorm(5))
}

test_that("AIS in pieces: pooled weights, exact trace merge, close to exact log Z", {
  skip_if_not_installed("future.apply")
  m <- small_rbm()
  set.seed(11)
  a <- ais(m, schedule_linear(300), n_chains = 61, workers = 3, progress = FALSE)
  expect_equal(a$pieces, 3L)
  expect_length(a$log_weights, 61L)
  expect_equal(a$counts[["chains"]], 61)
  # the merged per-step trace ends at the estimate from all pooled weights
  last <- a$diagnostics[nrow(a$diagnostics), ]
  expect_equal(last$log_z, a$log_z, tolerance = 1e-10)
  expect_equal(last$ess, a$ess, tolerance = 1e-8)
  s <- logz:::ais_summary(a$log_weights, a$log_z0)
  expect_equal(a$log_z, s$log_z)
  expect_lt(abs(a$log_z - exact_log_z(m)), 4 * a$se + 0.01)
  expect_output(print(a), "in 3 pieces")
})

test_that("results depend on the seed and pieces, not on the plan", {
  skip_if_not_installed("future.apply")
  skip_on_cran()
  m <- small_rbm()
  set.seed(12)
  seq_run <- ais(m, schedule_linear(100), n_chains = 20, workers = 2, progress = FALSE)
  set.seed(12)
  tg <- astar_example("clutter", D = 1)
  seq_samples <- astar_sample(tg, 10, workers = 2)
  oplan <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(oplan), add = TRUE)
  set.seed(12)
  par_run <- ais(m, schedule_linear(100), n_chains = 20, workers = 2, progress = FALSE)
  set.seed(12)
  par_samples <- astar_sample(tg, 10, workers = 2)
  expect_identical(par_run$log_weights, seq_run$log_weights)
  expect_identical(par_samples$samples, seq_samples$samples)
  expect_identical(par_samples$gumbel, seq_samples$gumbel)
  # with a parallel plan and workers = NULL, the work is split over its workers
  set.seed(12)
  auto <- ais(m, schedule_linear(100), n_chains = 20, progress = FALSE)
  expect_equal(auto$pieces, 2L)
  expect_identical(auto$log_weights, seq_run$log_weights)
})

test_that("RAISE, Ising AIS and A* in pieces agree with their exact values", {
  skip_if_not_installed("future.apply")
  m <- small_rbm()
  set.seed(13)
  data <- matrix(rbinom(6 * 12, 1, 0.5), 6, 12)
  r <- raise(m, data, schedule_linear(200), n_chains = 4, workers = 2, progress = FALSE)
  expect_equal(r$pieces, 2L)
  expect_equal(r$counts[["examples"]], 6)
  expect_equal(dim(r$log_weights), c(4L, 6L))
  expect_equal(r$log_p, log_likelihood(m, data, exact_log_z(m), per_example = TRUE),
               tolerance = 0.05)
  g <- ising_grid(3, 3, coupling = 0.3, field = 0.1)
  fit <- ais(g, schedule_linear(300), n_chains = 30, workers = 2, progress = FALSE)
  expect_lt(abs(fit$log_z - exact_log_z(g)), 4 * fit$se + 0.01)
  s <- astar_sample(astar_example("peaky", a = 10), 300, workers = 3)
  expect_equal(dim(s$samples), c(300L, 1L))
  expect_equal(nrow(s$cost), 300L)
  expect_equal(s$log_z, mean(s$gumbel) - 0.5772156649)
  exact <- log(integrate(function(x) exp(-x) / (1 + x)^10, 0, Inf)$value)
  expect_lt(abs(s$log_z - exact), 4 * s$se)
})

test_that("exact samples of an Ising model in pieces", {
  skip_if_not_installed("future.apply")
  set.seed(14)
  g <- ising_grid(3, 3, coupling = 0.4, field = 0.2)
  s <- mip_sample(g, 40, workers = 2, progress = FALSE)
  expect_equal(s$pieces, 2L)
  expect_equal(dim(s$states), c(40L, 9L))
  expect_true(all(s$exact))
  expect_equal(sort(unique(s$trace$sample)), 1:40)
  expect_lt(abs(s$log_z - exact_log_z(g)), 4 * s$se)
  expect_output(print(s), "in 2 pieces")
})

test_that("RTS in pieces pools the Rao-Blackwell statistics exactly", {
  skip_if_not_installed("future.apply")
  g <- ising_grid(4, 5, coupling = 0.3, field = 0.1)
  set.seed(15)
  one <- rts(g, K = 20, n_chains = 40, sweeps = 300, progress = FALSE)
  set.seed(15)
  two <- rts(g, K = 20, n_chains = 40, sweeps = 300, progress = FALSE, workers = 2)
  # every chain carries its own stream, so the pieces reproduce the one-piece run
  expect_equal(two$pieces, 2L)
  expect_equal(two$log_z_k, one$log_z_k)
  expect_equal(two$estimates, one$estimates)
  expect_equal(two$diagnostics, one$diagnostics)
  expect_lt(abs(two$log_z - exact_log_z(g)), 4 * two$se + 0.02)
})

test_that("AIS on a GP classifier in pieces keeps its counters", {
  skip_if_not_installed("future.apply")
  d <- data.frame(x = seq(-2, 2, length.out = 8), y = factor(rep(c("a", "b"), 4)))
  gp <- gpc(y ~ x, d, lengthscale = 1)
  set.seed(17)
  a <- ais(gp, schedule_geometric(200), n_chains = 40, workers = 2, progress = FALSE)
  expect_equal(a$pieces, 2L)
  expect_true(a$counts[["likelihood_evals"]] > 0)
  expect_equal(a$diagnostics$log_z[nrow(a$diagnostics)], a$log_z, tolerance = 1e-10)
})

test_that("ARM repeats in pieces", {
  skip_if_not_installed("future.apply")
  g <- ising_grid(3, 4, coupling = 0.3, field = 0.1)
  set.seed(16)
  a <- arm(g, particles = 100, repeats = 6, workers = 3, progress = FALSE)
  expect_equal(a$pieces, 3L)
  expect_length(a$log_z_runs, 6L)
  expect_equal(sort(unique(a$diagnostics$run)), 1:6)
  expect_lt(abs(a$log_z - exact_log_z(g)), 4 * a$se + 0.02)
  expect_output(print(a), "in 3 pieces")
})

test_that("bad workers are errors naming the argument", {
  m <- small_rbm()
  expect_error(ais(m, n_chains = 10, workers = 0), "`workers`")
  expect_error(ais(m, n_chains = 10, workers = NA), "`workers`")
  expect_error(ais(m, n_chains = 10, workers = "two"), "`workers`")
  expect_error(astar_sample(astar_example("peaky"), 5, workers = 1.5), "`workers`")
  expect_error(mip_sample(ising_grid(2, 2), 5, workers = -1), "`workers`")
  expect_error(rts(ising_grid(2, 2), K = 5, workers = 0), "`workers`")
  expect_error(arm(ising_grid(2, 2), particles = 10, repeats = 2, workers = "a"), "`workers`")
})

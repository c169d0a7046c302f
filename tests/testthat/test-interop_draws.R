# Samples as posterior draws and coda chains.

test_that("gibbs_sample() draws convert to posterior draws with the chains kept apart", {
  skip_if_not_installed("posterior")
  set.seed(44)
  g <- ising_grid(3, 3, coupling = 0.3, field = 0.2)
  x <- gibbs_sample(g, 40, sweeps = 2, burn_in = 5, n_chains = 4)
  expect_s3_class(x, "logz_gibbs")
  for (f in list(posterior::as_draws, posterior::as_draws_df, posterior::as_draws_array,
                 posterior::as_draws_matrix, posterior::as_draws_list,
                 posterior::as_draws_rvars)) {
    d <- f(x)
    expect_true(posterior::is_draws(d))
    expect_identical(posterior::nchains(d), 4L)
    expect_equal(posterior::niterations(d), 10)
  }
  a <- posterior::as_draws_array(x)
  expect_identical(posterior::variables(a), paste0("x", 1:9))
  # chain c is rows (c - 1) * 10 + 1:10, in order
  for (ch in 1:4)
    expect_equal(as.vector(unclass(a)[, ch, ]), as.vector(unclass(x)[attr(x, "chain") == ch, ]))
  df <- posterior::as_draws_df(x)
  expect_identical(df$.chain, attr(x, "chain"))
  expect_equal(df$x5, as.double(x[, 5]))
  # unequal chains: draws_df holds them; arrays refuse with a clear error
  y <- gibbs_sample(g, 10, n_chains = 3)
  expect_identical(as.vector(table(posterior::as_draws_df(y)$.chain)), c(4L, 4L, 2L))
  expect_error(posterior::as_draws_array(y), "chains of different lengths")
  expect_error(posterior::as_draws_df(x, foo = 1), "unused argument `foo` in as_draws_df.logz_gibbs\\(\\)")
  # the old name is an unused argument, with the right one suggested
  expect_error(gibbs_sample(g, 12, chains = 3), "unused argument `chains`.*n_chains")
})

test_that("exact samples and blocked Gibbs convert to draws (one chain) and estimates without samples error", {
  skip_if_not_installed("posterior")
  set.seed(46)
  g <- ising_grid(3, 3, coupling = 0.3)
  s <- mip_sample(g, 8, progress = FALSE)
  d <- posterior::as_draws_matrix(s)
  expect_true(posterior::is_draws(d))
  expect_identical(posterior::ndraws(d), 8L)
  expect_identical(posterior::nchains(d), 1L)
  expect_equal(unname(unclass(d)), unname(s$states * 1), ignore_attr = TRUE)
  t <- astar_sample(astar_example("peaky", a = 5), 6)
  expect_equal(as.vector(unclass(posterior::as_draws_array(t))), as.vector(t$samples))
  b <- blocked_gibbs(g, block_size = 3, iterations = 20, thin = 2, progress = FALSE)
  db <- posterior::as_draws_df(b)
  expect_true(posterior::is_draws(db))
  expect_identical(posterior::ndraws(db), 10L)
  fit <- ais(g, schedule_linear(10), n_chains = 5, progress = FALSE)
  expect_error(posterior::as_draws(fit), "holds no samples")
})

test_that("samples convert to coda mcmc / mcmc.list with chains, thinning and start", {
  skip_if_not_installed("coda")
  set.seed(47)
  g <- ising_grid(3, 3, coupling = 0.3, field = 0.2)
  x <- gibbs_sample(g, 60, sweeps = 3, burn_in = 10, n_chains = 3)
  ml <- coda::as.mcmc.list(x)
  expect_true(coda::is.mcmc.list(ml))
  expect_identical(coda::nchain(ml), 3L)
  expect_identical(coda::niter(ml), 20L)
  expect_identical(coda::thin(ml), 3)
  expect_identical(stats::start(ml[[1]]), 13)
  expect_equal(unname(as.matrix(ml[[2]])), unname(unclass(x)[21:40, ]), ignore_attr = TRUE)
  expect_error(coda::as.mcmc(x), "use coda::as.mcmc.list")
  one <- coda::as.mcmc(gibbs_sample(g, 15))
  expect_true(coda::is.mcmc(one))
  expect_identical(coda::niter(one), 15L)
  s <- mip_sample(g, 5, progress = FALSE)
  expect_true(coda::is.mcmc(coda::as.mcmc(s)))
  expect_true(coda::is.mcmc.list(coda::as.mcmc.list(s)))
  b <- blocked_gibbs(g, block_size = 3, iterations = 20, thin = 4, progress = FALSE)
  mb <- coda::as.mcmc(b)
  expect_identical(coda::thin(mb), 4)
  expect_identical(coda::niter(mb), 5L)
  expect_error(coda::as.mcmc.list(gibbs_sample(g, 10, n_chains = 3)), "different lengths")
})

test_that("ARM particles convert to weighted posterior draws and resampled coda chains", {
  skip_if_not_installed("posterior")
  skip_if_not_installed("coda")
  set.seed(48)
  g <- ising(data.frame(from = c(1, 2, 3), to = c(2, 3, 4), weight = 0.7),
             field = c(0.8, -0.5, 0, 0.3))
  fit <- arm(g, particles = 2000, repeats = 3, variant = "rm", ess_threshold = 0,
             progress = FALSE)
  expect_gt(diff(range(fit$log_weights)), 0.5)
  for (f in list(posterior::as_draws, posterior::as_draws_df, posterior::as_draws_array,
                 posterior::as_draws_matrix, posterior::as_draws_list,
                 posterior::as_draws_rvars)) {
    d <- f(fit)
    expect_true(posterior::is_draws(d))
    expect_identical(posterior::nchains(d), 3L)
    expect_identical(posterior::ndraws(d), 6000L)
    expect_true(".log_weight" %in% posterior::variables(d, reserved = TRUE))
  }
  a <- posterior::as_draws_array(fit)
  expect_identical(posterior::variables(a), paste0("x", 1:4))
  expect_equal(as.vector(unclass(a)[, 2, 1:4]), as.vector(fit$states[fit$run == 2, ]))
  expect_equal(as.vector(stats::weights(a, log = TRUE, normalize = FALSE)), fit$log_weights)
  # the weighted means are the exact E[x_i]; posterior's resample_draws() uses the weights
  ex <- 2 * exact_marginals(g)$node - 1
  w <- as.vector(stats::weights(a))
  mu <- colSums(w * posterior::as_draws_matrix(a)[, 1:4])
  expect_lt(max(abs(mu - ex)), 0.03)
  set.seed(50)
  rs <- suppressMessages(posterior::resample_draws(a, method = "stratified"))
  expect_lt(max(abs(colMeans(posterior::as_draws_matrix(rs)[, 1:4]) - ex)), 0.04)
  # coda: each run resampled to equal weights, kept apart
  ml <- coda::as.mcmc.list(fit)
  expect_true(coda::is.mcmc.list(ml))
  expect_identical(coda::nchain(ml), 3L)
  expect_identical(coda::niter(ml), 2000L)
  expect_true(all(as.matrix(ml[[1]]) %in% c(-1, 1)))
  expect_lt(max(abs(colMeans(as.matrix(ml)) - ex)), 0.04)
  expect_error(coda::as.mcmc(fit), "use coda::as.mcmc.list")
  # equal weights (after resampling): coda gets the particles as they are
  set.seed(49)
  one <- arm(g, particles = 50, ess_threshold = 1, progress = FALSE)
  expect_true(max(abs(one$log_weights + log(50))) < 1e-12)
  mc <- coda::as.mcmc(one)
  expect_true(coda::is.mcmc(mc))
  expect_equal(unname(as.matrix(mc)), unname(one$states), ignore_attr = TRUE)
  none <- arm(g, particles = 50, keep_particles = FALSE, progress = FALSE)
  expect_error(posterior::as_draws(none), "holds no samples")
})

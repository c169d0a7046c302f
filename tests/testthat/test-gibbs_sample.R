# gibbs_sample() on Ising models: the enumerated distribution, seeds and threads.

test_that("Gibbs samples follow the enumerated distribution (chi-square)", {
  set.seed(15)
  for (spins in c("pm1", "01")) {
    m <- ising_random(5, n_edges = 7, coupling = 1, field = 0.6, type = "mixed", spins = spins)
    bf <- brute_force(m)
    x <- gibbs_sample(m, 8000, sweeps = 3, burn_in = 20, n_chains = 8)
    expect_identical(dim(x), c(8000L, 5L))
    expect_true(all(x %in% m$values))
    code <- function(M) drop((M == m$values[2]) %*% 2^(0:4))
    obs <- tabulate(code(x) + 1L, 32L)
    expected <- numeric(32)
    expected[code(bf$X) + 1L] <- bf$p
    expect_gt(suppressWarnings(stats::chisq.test(obs, p = expected))$p.value, 1e-3)
  }
  # checkerboard sweeps on a grid: node marginals match the junction tree
  g <- ising_grid(4, 4, coupling = 0.4, field = 0.3)
  x <- gibbs_sample(g, 6000, sweeps = 2, burn_in = 20, n_chains = 6)
  p <- exact_marginals(g)$node
  se <- sqrt(p * (1 - p) / 6000)
  expect_true(all(abs(colMeans(x == 1) - p) < 5 * se * 2))  # factor 2 for autocorrelation
})

test_that("Gibbs sampling is reproducible and independent of threads", {
  g <- ising_grid(5, 5, coupling = 0.5, field = 0.2)
  set.seed(16)
  a <- gibbs_sample(g, 40, sweeps = 2, burn_in = 5, n_chains = 4, threads = 1)
  set.seed(16)
  b <- gibbs_sample(g, 40, sweeps = 2, burn_in = 5, n_chains = 4, threads = 2)
  expect_identical(a, b)
  assign(".Random.seed", attr(a, "seed"), envir = globalenv())
  expect_identical(gibbs_sample(g, 40, sweeps = 2, burn_in = 5, n_chains = 4), a)
  expect_identical(attr(a, "chain"), rep(1:4, each = 10))
  # `init` is honoured: with very strong couplings one sweep keeps an aligned start
  # (flip probability about exp(-20) per node), in each chain's own start
  s <- ising_grid(3, 3, coupling = 5, type = "constant")
  x <- gibbs_sample(s, 4, burn_in = 0, init = rbind(rep(1, 9), rep(-1, 9)), n_chains = 2)
  expect_identical(unname(x[, 1:9]), matrix(rep(c(1L, -1L), each = 2), 4, 9))
  x <- gibbs_sample(s, 3, burn_in = 0, init = rep(-1, 9))
  expect_true(all(x == -1L))
})

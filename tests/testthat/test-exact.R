# exact_log_z() and exact_marginals() on Ising models and RBMs against brute force.

test_that("enumeration equals brute force for both spin conventions", {
  set.seed(11)
  for (spins in c("pm1", "01")) {
    for (type in c("attractive", "mixed")) {
      m <- ising_random(9, n_edges = 16, coupling = 1.2, field = 0.8, type = type, spins = spins)
      bf <- brute_force(m)
      expect_equal(exact_log_z(m, method = "enumerate"), bf$log_z, tolerance = 1e-10)
      expect_equal(exact_log_z(m, method = "enumerate", threads = 2L), bf$log_z, tolerance = 1e-10)
    }
  }
  # strong couplings (large log-sum-exp range) and a clique
  m <- ising_clique(10, coupling = 3, field = 2, type = "mixed")
  expect_equal(exact_log_z(m, method = "enumerate"), brute_force(m)$log_z, tolerance = 1e-10)
})

test_that("enumeration is exact across Gray-code resyncs and threads", {
  set.seed(12)
  m <- ising_random(18, n_edges = 30, coupling = 1, field = 0.5, type = "mixed")
  a <- exact_log_z(m, method = "enumerate", threads = 1L)
  b <- exact_log_z(m, method = "enumerate", threads = 2L)
  expect_identical(a, b)
  expect_equal(exact_log_z(m, method = "junction_tree"), a, tolerance = 1e-10)
})

test_that("exact marginals equal brute-force marginals", {
  set.seed(14)
  for (spins in c("pm1", "01")) {
    m <- ising_random(9, n_edges = 15, coupling = 1, field = 0.7, type = "mixed", spins = spins)
    bf <- brute_force(m)
    for (method in c("enumerate", "junction_tree")) {
      mg <- exact_marginals(m, method = method, pairwise = TRUE)
      expect_identical(mg$method, method)
      expect_equal(mg$log_z, bf$log_z, tolerance = 1e-10)
      expect_equal(mg$node, bf$node, tolerance = 1e-10)
      expect_equal(mg$pairwise$p11, bf$p11, tolerance = 1e-10)
      expect_equal(mg$pairwise$mean_product, bf$mean_product, tolerance = 1e-10)
    }
    expect_null(exact_marginals(m)$pairwise)
  }
  # junction tree marginals on a grid too large for R brute force agree with enumeration
  g <- ising_grid(4, 4, coupling = 1, field = 0.5, type = "mixed")
  a <- exact_marginals(g, method = "enumerate", pairwise = TRUE)
  b <- exact_marginals(g, method = "junction_tree", pairwise = TRUE)
  expect_equal(b$node, a$node, tolerance = 1e-10)
  expect_equal(b$pairwise, a$pairwise, tolerance = 1e-10)
})

test_that("exact_log_z matches brute force over all joint states", {
  set.seed(1)
  for (dims in list(c(3, 2), c(6, 4), c(5, 7), c(9, 3))) {
    m <- random_rbm(dims[1], dims[2])
    bf <- brute_log_z_rbm(m)
    expect_equal(exact_log_z(m), bf, tolerance = 1e-10)
    expect_equal(exact_log_z(m, layer = "hidden"), bf, tolerance = 1e-10)
    expect_equal(exact_log_z(m, layer = "visible"), bf, tolerance = 1e-10)
    expect_equal(exact_log_z(m, threads = 2), bf, tolerance = 1e-10)
  }
})

test_that("exact_log_z is symmetric in the enumerated layer on larger models", {
  set.seed(2)
  m <- random_rbm(14, 13, sd = 0.7)
  expect_equal(exact_log_z(m, layer = "hidden"), exact_log_z(m, layer = "visible"),
               tolerance = 1e-10)
  # crosses the Gray-code resync and several blocks
  m2 <- rbm(matrix(rnorm(30 * 16, sd = 0.5), 30, 16), rnorm(30), rnorm(16))
  e1 <- exact_log_z(m2, threads = 1)
  expect_equal(exact_log_z(m2, threads = 2), e1, tolerance = 1e-12)
  # the transposed model (visible <-> hidden) has the same partition function
  mt <- rbm(t(m2$W), m2$b, m2$a)
  expect_equal(exact_log_z(mt), e1, tolerance = 1e-10)
})

test_that("closed forms: no couplings, and the base-rate model", {
  m <- rbm(matrix(0, 4, 3), c(-1, 0, 1, 2), c(0.5, -0.5, 0))
  expect_equal(exact_log_z(m), sum(log1p(exp(m$a))) + sum(log1p(exp(m$b))))
  x <- matrix(c(1, 0, 1, 1, 0, 0, 1, 0), 4, 2)
  base <- rbm_base_rate(x, n_hidden = 2)
  p <- (colSums(x) + 0.05 * 4) / (1.05 * 4)
  expect_equal(base$a, qlogis(p))
  expect_true(all(base$W == 0) && all(base$b == 0))
  expect_equal(exact_log_z(base), sum(log1p(exp(base$a))) + 2 * log(2))
})

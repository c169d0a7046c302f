# The junction tree against enumeration, and its elimination order.

test_that("junction tree equals enumeration on grids and sparse random graphs", {
  set.seed(13)
  models <- list(
    ising_grid(4, 5, coupling = 1, field = 0.5, type = "mixed"),
    ising_grid(3, 6, coupling = 0.8, field = 0.3, spins = "01"),
    ising_grid(1, 12, coupling = 1, field = 1, type = "mixed"),
    ising_random(20, n_edges = 28, coupling = 1, field = 0.5, type = "mixed"),
    ising_random(18, n_edges = 40, coupling = 0.7, field = 0.4, spins = "01"),
    ising_random(16, n_edges = 5, coupling = 1, field = 0.5),   # isolated nodes, components
    ising_clique(12, coupling = 0.5, field = 0.5, type = "mixed")
  )
  for (m in models) {
    expect_equal(exact_log_z(m, method = "junction_tree"), exact_log_z(m, method = "enumerate"),
                 tolerance = 1e-10)
  }
  # the answer does not depend on the elimination order
  m <- models[[4]]
  cm <- function(order) logz:::ising_c_model(m, order = as.integer(order))
  ref <- exact_log_z(m, method = "enumerate")
  for (o in list(seq_len(m$n) - 1L, rev(seq_len(m$n)) - 1L, sample(m$n) - 1L))
    expect_equal(logz:::jt_calibrate(cm(o), "none")$log_z, ref, tolerance = 1e-10)
})

test_that("junction tree handles wide grids quickly and picks a width-optimal order", {
  g <- ising_grid(15, 15, coupling = 0.5, field = 0.2)
  expect_identical(logz:::jt_order(g)$width, 15L)
  t <- system.time(lz <- exact_log_z(g))[["elapsed"]]
  expect_true(is.finite(lz))
  expect_lt(t, 10)
  # with zero couplings log Z has a closed form
  g0 <- ising_grid(12, 9, coupling = 0, field = 0.7, type = "constant")
  expect_equal(exact_log_z(g0, method = "junction_tree"), 108 * log(2 * cosh(0.7)),
               tolerance = 1e-10)
  # Onsager-free check: a 1-D chain with constant coupling J and no field has
  # Z = 2 (2 cosh J)^(n - 1)
  ch <- ising_grid(1, 40, coupling = 0.9, type = "constant")
  expect_equal(exact_log_z(ch), log(2) + 39 * log(2 * cosh(0.9)), tolerance = 1e-10)
})

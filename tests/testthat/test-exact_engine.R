# Exact enumeration in chunks (for progress) gives the same answers as in one piece.

test_that("exact enumeration in chunks (for progress) gives the same log Z", {
  set.seed(49)
  m <- random_rbm(7, 9, sd = 0.5)
  bf <- brute_log_z_rbm(m)
  expect_equal(logz:::rbm_exact_chunked(m, "hidden", 1L, k = 3L, progress = FALSE), bf,
               tolerance = 1e-12)
  expect_equal(logz:::rbm_exact_chunked(m, "visible", 1L, k = 2L, progress = FALSE), bf,
               tolerance = 1e-12)
  for (spins in c("pm1", "01")) {
    g <- ising_random(12, n_edges = 30, coupling = 0.8, field = 0.5, type = "mixed", spins = spins)
    ref <- exact_log_z(g, method = "enumerate", progress = FALSE)
    expect_equal(logz:::ising_exact_chunked(g, 1L, k = 4L, progress = FALSE), ref,
                 tolerance = 1e-12)
    expect_equal(logz:::ising_exact_chunked(g, 1L, k = 1L, progress = FALSE), ref,
                 tolerance = 1e-12)
  }
  # the public path: progress on a 2^22-state enumeration reports through progressr
  skip_if_not_installed("progressr")
  skip_on_cran()
  old <- options(logz.progress = "progressr", progressr.enable = TRUE)
  on.exit(options(old))
  g <- ising_grid(2, 11, coupling = 0.3, field = 0.1)
  seen <- 0L
  lz <- withCallingHandlers(exact_log_z(g, method = "enumerate", progress = TRUE),
                            progression = function(p) if (identical(p$type, "update")) seen <<- seen + 1L)
  expect_identical(seen, 64L)
  expect_equal(lz, exact_log_z(g, method = "junction_tree"), tolerance = 1e-10)
  expect_error(exact_log_z(g, progress = NA), "`progress`")
})

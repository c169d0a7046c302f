# Progress reporting (text bar or progressr) by every long-running estimator and sampler.

test_that("progress goes through progressr when its handlers are on, and pieces report", {
  skip_if_not_installed("progressr")
  skip_if_not_installed("future.apply")
  g <- ising_grid(3, 3, coupling = 0.3)
  seen <- 0L
  old <- options(logz.progress = "progressr", progressr.enable = TRUE)
  on.exit(options(old))
  withCallingHandlers(
    ais(g, schedule_linear(20), n_chains = 10, progress = TRUE),
    progression = function(p) if (identical(p$type, "update")) seen <<- seen + 1L)
  expect_gt(seen, 0L)
  # split over workers (sequential plan): one step per finished piece
  seen <- 0L
  withCallingHandlers(
    ais(g, schedule_linear(20), n_chains = 10, progress = TRUE, workers = 2),
    progression = function(p) if (identical(p$type, "update")) seen <<- seen + 1L)
  expect_identical(seen, 2L)
  # no progressr signals with progress = FALSE, or with the text bar forced
  seen <- 0L
  withCallingHandlers(
    ais(g, schedule_linear(20), n_chains = 10, progress = FALSE),
    progression = function(p) seen <<- seen + 1L)
  expect_identical(seen, 0L)
  options(logz.progress = "txt")
  expect_output(withCallingHandlers(
    ais(g, schedule_linear(20), n_chains = 10, progress = TRUE),
    progression = function(p) seen <<- seen + 1L), "100%")
  expect_identical(seen, 0L)
})

test_that("`progress` is accepted by every estimator log_partition() dispatches to", {
  set.seed(50)
  g <- ising_grid(3, 3, coupling = 0.3)
  expect_s3_class(log_partition(g, progress = FALSE), "logz_exact")
  expect_s3_class(log_partition(g, method = "ais", n_chains = 10, progress = FALSE), "logz_ais")
  expect_s3_class(log_partition(g, method = "arm", particles = 20, progress = FALSE), "logz_arm")
  expect_s3_class(log_partition(g, method = "rts", K = 5, n_chains = 5, sweeps = 20,
                                progress = FALSE), "logz_rts")
  expect_s3_class(log_partition(g, method = "mip", n = 2, progress = FALSE), "logz_mip")
  expect_s3_class(log_partition(astar_example("peaky", a = 5), n = 5, progress = FALSE),
                  "logz_astar")
  d <- data.frame(x = c(-1, -0.5, 0.2, 0.8, 1.5), y = factor(c("a", "a", "b", "a", "b")))
  expect_s3_class(log_partition(gpc(y ~ x, d, lengthscale = 1, amplitude = 1), method = "ep",
                                progress = FALSE), "logz_ep")
  expect_error(astar_sample(astar_example("peaky", a = 5), 5, progress = "no"), "`progress`")
  # schedule_gms13(): one progress step per knot
  skip_if_not_installed("progressr")
  old <- options(logz.progress = "progressr", progressr.enable = TRUE)
  on.exit(options(old))
  seen <- 0L
  withCallingHandlers(schedule_gms13(g, K = 50, knots = 4, n_chains = 4, sweeps = 10, burn_in = 5,
                                     progress = TRUE),
                      progression = function(p) if (identical(p$type, "update")) seen <<- seen + 1L)
  expect_identical(seen, 4L)
})

test_that("the long-running samplers and exact methods take progress, report, and give the same results", {
  skip_if_not_installed("progressr")
  old <- options(logz.progress = "progressr", progressr.enable = TRUE)
  on.exit(options(old))
  count <- function(expr) {
    seen <- 0L
    value <- withCallingHandlers(expr, progression = function(p)
      if (identical(p$type, "update")) seen <<- seen + 1L)
    list(value = value, seen = seen)
  }
  same <- function(f, pick = identity) {
    set.seed(51)
    quiet <- f(FALSE)
    set.seed(51)
    loud <- count(f(TRUE))
    expect_gt(loud$seen, 0L)
    expect_identical(pick(loud$value), pick(quiet))
  }
  g <- ising_grid(3, 4, coupling = 0.4, field = 0.1)
  same(function(pr) gibbs_sample(g, 103, sweeps = 2, burn_in = 7, n_chains = 4, progress = pr))
  pk <- astar_example("peaky", a = 10)
  same(function(pr) os_star_sample(pk, 40, progress = pr), function(x) x$samples)
  same(function(pr) astar_sample(pk, 40, progress = pr), function(x) x$samples)
  same(function(pr) astar_sample(pk, 40, method = "drill_down", reuse_bounds = FALSE,
                                 progress = pr), function(x) x$samples)
  same(function(pr) rejection_sample(pk, 40, progress = pr), function(x) x$samples)
  same(function(pr) ais(function(th) -sum(th^2), proposal_normal(c(0, 0), 2),
                        schedule_geometric(20), n_chains = 10, progress = pr),
       function(x) x$log_weights)
  d <- data.frame(x = c(-1.5, -1, -0.2, 0.3, 1, 1.4), y = c(-1, -1, 1, -1, 1, 1))
  gp <- gpc(y ~ x, d, lengthscale = 1)
  same(function(pr) ep_log_z(gp, progress = pr))
  same(function(pr) log_partition(gp, method = "ep", progress = pr), function(x) x$log_z)
  if (logz_has_glpk())
    same(function(pr) rejection_sample(ising_clique(6, coupling = 0.5, field = 0.5), 20,
                                       depth = 2, progress = pr), function(x) x$states)
  expect_silent(progressr::with_progress(x <- gibbs_sample(g, 20, progress = TRUE),
                                         handlers = progressr::handler_void()))
  expect_error(gibbs_sample(g, 5, progress = NA), "`progress`")
  expect_error(os_star_sample(pk, 5, progress = "yes"), "`progress`")
  expect_error(ep_log_z(gp, progress = 1), "`progress`")
  expect_error(exact_marginals(g, progress = NA), "`progress`")
  # exact marginals in chunks (the path progress takes for 2^22 states or more)
  for (spins in c("pm1", "01")) {
    m <- ising_random(12, n_edges = 30, coupling = 0.8, field = 0.5, type = "mixed", spins = spins)
    ref <- exact_marginals(m, method = "enumerate", pairwise = TRUE, progress = FALSE)
    ch <- logz:::ising_exact_chunked(m, 1L, k = 4L, progress = FALSE, marginals = "pair")
    expect_equal(ch$log_z, ref$log_z, tolerance = 1e-12)
    expect_equal(ch$node, unname(ref$node), tolerance = 1e-12)
    expect_equal(ch$pair, ref$pairwise$p11, tolerance = 1e-12)
  }
  skip_on_cran()
  big <- ising_grid(2, 11, coupling = 0.3, field = 0.1)
  r <- count(exact_marginals(big, method = "enumerate", progress = TRUE))
  expect_identical(r$seen, 64L)
  expect_equal(r$value$node, exact_marginals(big, method = "junction_tree")$node, tolerance = 1e-10)
})

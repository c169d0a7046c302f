# Cross-cutting (no R file of its own), continuing test-integration-interrupts.R: R clears
# its time limits as it signals a time-limit error, so a handler that swallows
# errors (requireNamespace(), tryCatch(error = )) on the way would let the rest
# of a long call run with no limit; and loops whose single units of work are
# large check between rounds sized by work.

test_that("a time limit that fires while an optional namespace loads is not swallowed", {
  skip_on_cran()
  skip_if_not_installed("progressr")
  # the first progress bar of a session loads progressr; with the namespace
  # unloaded the time limit below expires inside that load
  if (isNamespaceLoaded("progressr") &&
      inherits(try(unloadNamespace("progressr"), silent = TRUE), "try-error"))
    skip("progressr cannot be unloaded here")
  msg <- local({
    setTimeLimit(elapsed = 1e-6, transient = TRUE)
    on.exit(setTimeLimit(elapsed = Inf), add = TRUE)
    tryCatch({
      use_progressr()
      "finished"
    }, error = function(e) conditionMessage(e))
  })
  expect_match(msg, "time limit")
  expect_true(namespace_available("progressr"))   # loads normally afterwards
})

test_that("catch_error() hands other errors to its handler and re-signals time limits", {
  expect_identical(catch_error(stop("boom"), function(e) conditionMessage(e)), "boom")
  expect_identical(catch_error(1 + 1, function(e) NA), 2)
  tl <- simpleError(gettext("reached elapsed time limit", domain = "R"))
  expect_error(catch_error(stop(tl), function(e) "swallowed"), "time limit")
})

# The call's time to R's time-limit error under setTimeLimit(elapsed = 0.3),
# with the CPU time used (the second reading, which load does not inflate).
stops_promptly <- function(expr, label) {
  p0 <- proc.time()
  msg <- stops_on_time_limit(expr, elapsed = 0.3)
  d <- proc.time() - p0
  cpu <- sum(d[c(1, 2, 4, 5)], na.rm = TRUE)
  expect_match(msg, "time limit|interrupted", label = label)
  expect_true(d[["elapsed"]] < 3 || cpu < 1.5,
              label = sprintf("%s stopped after %.2f s (%.2f s CPU)", label, d[["elapsed"]], cpu))
}

test_that("RTS checks inside one long call of its engines (a long initial stage)", {
  skip_on_cran()
  set.seed(6)
  g <- ising_grid(8, 8, coupling = 0.3)
  m <- rbm(matrix(rnorm(100 * 20, 0, 0.1), 100, 20))
  ub <- logz_base(m, "uniform")   # given: no base is fitted inside the timed call
  # no pilot: the first initial iteration is one call of many sweeps
  for (th in 1:2) {
    stops_promptly(rts(g, K = 10, n_chains = 10, init_sweeps = 3e5, pilot_sweeps = 0,
                       threads = th, progress = FALSE), sprintf("rts ising, threads = %d", th))
    stops_promptly(rts(m, K = 10, n_chains = 16, init_sweeps = 3e5, pilot_sweeps = 0, base = ub,
                       threads = th, progress = FALSE), sprintf("rts rbm, threads = %d", th))
  }
})

test_that("exact RBM enumeration checks inside a block of a wide model", {
  skip_on_cran()
  # 5000 visible units: one block of the 2^36 hidden states takes seconds
  m <- rbm(matrix(0.001, 5000, 36))
  for (th in 1:2)
    stops_promptly(exact_log_z(m, max_states = 2^40, threads = th, progress = FALSE),
                   sprintf("exact rbm, 5000 visible, threads = %d", th))
})

test_that("A* and OS* on a built-in target with a large data set check by work", {
  skip_on_cran()
  # each node's log_lik and bound pass over 1e5 data rows
  tg <- astar_example("cauchy_regression", D = 3, N = 1e5)
  stops_promptly(astar_sample(tg, 1e4), "astar, cauchy regression, N = 1e5")
  stops_promptly(os_star_sample(tg, 1e4), "os_star, cauchy regression, N = 1e5")
})

test_that("Ising AIS checks inside one step over many chains of a dense model", {
  skip_on_cran()
  # one sweep of 3e4 chains on a 400-spin clique is ~5e9 updates (seconds)
  cl <- ising_clique(400, coupling = 0.01)
  for (th in 1:2)
    stops_promptly(ais(cl, schedule_linear(3), n_chains = 3e4, threads = th, progress = FALSE),
                   sprintf("ais ising, 3e4 chains, threads = %d", th))
})

# Cross-cutting (no R file of its own): long runs honour R's interrupt and
# time-limit checks (R_CheckUserInterrupt between C chunks, never inside
# threads) and leave the session usable: each call below would run for minutes;
# under a 1-second elapsed-time limit it must stop with R's "reached elapsed
# time limit" error.

test_that("long runs stop at a time limit and the session stays usable", {
  skip_on_cran()
  set.seed(1)
  m <- rbm(matrix(rnorm(784 * 50, 0, 0.1), 784, 50))
  g <- ising_grid(30, 30, coupling = 0.3)
  runs <- list(
    ais_rbm = quote(ais(m, schedule_linear(1e6), n_chains = 100, progress = FALSE)),
    ais_rbm_threads = quote(ais(m, schedule_linear(1e6), n_chains = 100, threads = 2,
                                progress = FALSE)),
    ais_ising = quote(ais(g, schedule_linear(1e7), n_chains = 100, progress = FALSE)),
    raise = quote(raise(m, mnist$x[1:50, ], schedule_linear(1e6), n_chains = 10,
                        progress = FALSE)),
    exact_rbm = quote(exact_log_z(rbm(matrix(0.01, 40, 36)), max_states = 2^40)),
    exact_ising = quote(exact_log_z(ising_clique(34, coupling = 0.01), method = "enumerate",
                                    max_states = 2^40)),
    gibbs = quote(gibbs_sample(g, n = 1e6, sweeps = 10)),
    rbm_train = quote(rbm_train(mnist$x, 100, epochs = 1000, progress = FALSE)),
    astar = quote(astar_sample(astar_example("clutter", D = 4), 1e5)),
    rts = quote(rts(g, K = 50, n_chains = 100, sweeps = 1e7, progress = FALSE)),
    rts_final = quote(rts(g, K = 50, n_chains = 100, sweeps = 1e7, init_iter = 0,
                          progress = FALSE)),
    mip = quote(mip_sample(ising_clique(60, coupling = 0.2), 100, progress = FALSE)),
    mip_glpk = quote(mip_sample(ising_grid(8, 8, coupling = 1, type = "mixed"), 100,
                                lp_solver = "glpk", progress = FALSE)))
  for (nm in names(runs)) {
    msg <- stops_on_time_limit(eval(runs[[nm]]))
    expect_match(msg, "time limit|interrupted", label = nm)
  }
  # the session (and GLPK, after an interrupted search) still works
  small <- ising_grid(3, 3, coupling = 0.3)
  expect_equal(exact_log_z(small), exact_log_z(small, method = "junction_tree"))
  s <- mip_sample(small, 5, lp_solver = "glpk", progress = FALSE)
  expect_true(all(s$exact))
  # (a 10-step run is rightly flagged; only that it runs matters here)
  expect_true(is.finite(suppressWarnings(ais(m, schedule_linear(10), n_chains = 5,
                                             progress = FALSE))$log_z))
})

test_that("EP and GP AIS stop at a time limit, also with threads > 1", {
  skip_on_cran()
  set.seed(3)
  # EP's site updates run in R: each is O(n^2) (3-7 s per sweep at n = 1500),
  # so the byte-code loop's own check (every 1000 iterations) is far too rare
  n <- 1500
  d <- data.frame(x1 = rnorm(n), x2 = rnorm(n))
  d$y <- factor(d$x1 + rnorm(n) > 0)
  big <- gpc(y ~ x1 + x2, d, lengthscale = 1, amplitude = 2)
  small <- gpc(y ~ x1 + x2, d[1:300, ], lengthscale = 1, amplitude = 2)
  runs <- list(
    ep = quote(ep_log_z(big)),
    # one annealing step of 1e5 sweeps: the check must come between sweeps
    ais_gpc = quote(ais(small, schedule_linear(2), n_chains = 50, sweeps_per_step = 1e5,
                        progress = FALSE)),
    ais_gpc_threads = quote(ais(small, schedule_linear(2), n_chains = 50,
                                sweeps_per_step = 1e5, threads = 2, progress = FALSE)))
  for (nm in names(runs)) {
    msg <- stops_on_time_limit(eval(runs[[nm]]))
    expect_match(msg, "time limit|interrupted", label = nm)
  }
  d5 <- data.frame(x = c(-2, -1, 1, 2, 0.2), y = c(-1, -1, 1, 1, -1))
  expect_true(is.finite(ep_log_z(gpc(y ~ x, d5, lengthscale = 1, amplitude = 2))))
})

test_that("A* and OS* with a slow R log_lik stop at a time limit", {
  skip_on_cran()
  # each call is one vectorised pass over 5e5 points (~5-100 ms, no R loop,
  # so R's own evaluation-count check rarely fires): the samplers check after
  # every node / trial for R targets, not every 1024th
  y <- seq(-3, 3, length.out = 5e5)
  tg <- astar_target(proposal_normal(0, 1),
                     log_lik = function(x) sum(stats::dnorm(x, y, 100, log = TRUE)) -
                       sum(stats::dnorm(0, y, 100, log = TRUE)),
                     bound = function(lower, upper) 1)
  runs <- list(astar = quote(astar_sample(tg, 1e5)),
               os_star = quote(os_star_sample(tg, 1e5)))
  for (nm in names(runs)) {
    msg <- stops_on_time_limit(eval(runs[[nm]]))
    expect_match(msg, "time limit|interrupted", label = nm)
  }
})

# The time from the call to R's time-limit error under setTimeLimit(elapsed =
# 0.3): every class of long loop checks for interrupts at least every ~0.1 s
# of work, so the error comes well within a few seconds (under a heavily
# loaded machine the wall time stretches while the work does not: the CPU time
# used is the second reading).
time_to_limit <- function(expr) {
  p0 <- proc.time()
  setTimeLimit(elapsed = 0.3, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf), add = TRUE)
  msg <- tryCatch({
    force(expr)
    "finished"
  }, error = function(e) conditionMessage(e))
  setTimeLimit(elapsed = Inf)
  d <- proc.time() - p0
  list(msg = msg, elapsed = d[["elapsed"]], cpu = sum(d[c(1, 2, 4, 5)], na.rm = TRUE))
}

expect_prompt_stop <- function(expr, label) {
  r <- time_to_limit(expr)
  expect_match(r$msg, "time limit|interrupted", label = label)
  expect_true(r$elapsed < 3 || r$cpu < 1.5,
              label = sprintf("%s stopped after %.2f s (%.2f s CPU)", label, r$elapsed, r$cpu))
}

test_that("Gibbs sampling that stores many states stops promptly", {
  skip_on_cran()
  set.seed(2)
  g <- ising_grid(8, 8, coupling = 0.3)
  expect_prompt_stop(gibbs_sample(g, n = 5e5, progress = FALSE), "gibbs")
  expect_prompt_stop(gibbs_sample(g, n = 5e5, n_chains = 4, threads = 2, progress = FALSE),
                     "gibbs threads = 2")
  expect_prompt_stop(gibbs_sample(g, n = 5e5, n_chains = 4, progress = TRUE), "gibbs progress")
  # one sweep of all chains is already long: chains go in groups between checks
  big <- ising_clique(400, coupling = 0.01)
  expect_prompt_stop(gibbs_sample(big, n = 100, n_chains = 2000, progress = FALSE),
                     "gibbs many chains")
})

test_that("exact enumeration with threads stops promptly", {
  skip_on_cran()
  m <- rbm(matrix(0.01, 40, 36))
  expect_prompt_stop(exact_log_z(m, max_states = 2^40, threads = 2, progress = FALSE),
                     "exact rbm threads = 2")
  expect_prompt_stop(exact_log_z(ising_clique(34, coupling = 0.01), method = "enumerate",
                                 max_states = 2^40, threads = 2, progress = FALSE),
                     "exact ising threads = 2")
})

test_that("annealing, tempering, ARM and training loops stop promptly", {
  skip_on_cran()
  set.seed(4)
  m <- rbm(matrix(rnorm(784 * 50, 0, 0.1), 784, 50))
  g <- ising_grid(30, 30, coupling = 0.3)
  x <- mnist$x[1:2000, ]
  expect_prompt_stop(ais(m, schedule_linear(1e5), n_chains = 100, threads = 2, progress = FALSE),
                     "ais rbm")
  expect_prompt_stop(ais(g, schedule_linear(1e6), n_chains = 100, threads = 2, progress = FALSE),
                     "ais ising")
  # one annealing step of 1000 sweeps: the check must come inside the step
  expect_prompt_stop(ais(g, schedule_linear(1e4), n_chains = 100, sweeps_per_step = 1000,
                         progress = FALSE), "ais ising, long step")
  expect_prompt_stop(rts(g, K = 50, n_chains = 100, sweeps = 1e7, progress = FALSE), "rts ising")
  expect_prompt_stop(rts(m, K = 100, n_chains = 100, sweeps = 1e6, threads = 2, progress = FALSE),
                     "rts rbm")
  expect_prompt_stop(arm(m, particles = 1e4, threads = 2, progress = FALSE), "arm")
  expect_prompt_stop(rbm_train(x, 200, method = "pcd", k = 10, epochs = 1000, progress = FALSE),
                     "rbm_train")
  expect_prompt_stop(rbm_train(x, 500, batch_size = 2000, epochs = 1000, progress = FALSE),
                     "rbm_train one large batch")
})

test_that("one long RBM annealing step and one large training product stop promptly", {
  skip_on_cran()
  set.seed(5)
  # 100 hidden units: no mode search; an explicit base: no pilot runs
  m <- rbm(matrix(rnorm(784 * 100, 0, 0.1), 784, 100))
  ub <- logz_base(m, "uniform")
  x <- mnist$x[1:50, ]
  suppressWarnings(ais(m, schedule_linear(2), n_chains = 4, base = ub, progress = FALSE))
  # a single step of 2e4 sweeps (tens of seconds): the checks must come between sweeps
  for (th in 1:2) {
    expect_prompt_stop(ais(m, schedule_linear(2), n_chains = 100, sweeps_per_step = 2e4,
                           base = ub, threads = th, progress = FALSE),
                       sprintf("ais rbm, long step, threads = %d", th))
    expect_prompt_stop(raise(m, x, schedule_linear(2), n_chains = 2, sweeps_per_step = 2e4,
                             base = ub, threads = th, progress = FALSE),
                       sprintf("raise rbm, long step, threads = %d", th))
  }
  # one batch of 8,000 rows against 2,000 hidden units: each product is 1.3e10
  # multiply-adds, split into row blocks with checks between them
  xall <- mnist$x
  expect_prompt_stop(rbm_train(xall, 2000, batch_size = nrow(xall), epochs = 2, progress = FALSE),
                     "rbm_train one huge batch")
})

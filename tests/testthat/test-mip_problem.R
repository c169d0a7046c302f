# GumbelMIP edge cases and GLPK optional at build time:
# builds without GLPK, binary programs with no 0/1 point, RBMs without hidden
# units, log-weights too large for double precision, argument names in errors,
# and long runs that must stop under a time limit (also with threads and
# inside GLPK).

test_that("logz_has_glpk() tells; without GLPK the GLPK-bounded calls say how to get it", {
  has <- logz_has_glpk()
  expect_true(is.logical(has) && length(has) == 1L && !is.na(has))
  mixed <- ising_grid(3, 3, coupling = 0.5, type = "mixed")
  mm <- mip_model(c(1, -0.5, 0.3), A = matrix(1, 1, 3), b = 2)
  if (has) {
    expect_match(logz:::glpk_version(), "^[0-9]+\\.[0-9]+")
    expect_true(all(mip_sample(mixed, 3, progress = FALSE)$exact))
  } else {
    expect_true(is.na(logz:::glpk_version()))
    msg <- "needs the GNU Linear Programming Kit.*libglpk-dev.*bound = \"simple\""
    expect_error(mip_sample(mixed, 2, progress = FALSE), msg)
    expect_error(mip_sample(ising_clique(4), 2, lp_solver = "glpk"), msg)
    expect_error(mip_sample(mm, 2, progress = FALSE), msg)
    expect_error(perturb_and_map(mixed, 2, progress = FALSE), msg)
    expect_error(rejection_sample(mixed, 2), msg)
  }
  # needs no GLPK: the min-cut LP (attractive), the simple bound, mip_model()
  set.seed(1)
  att <- ising_clique(5, coupling = 0.8, field = 0.3)
  s <- mip_sample(att, 2000, progress = FALSE)
  expect_match(s$method, "min cut")
  expect_gt(mip_chisq((s$states + 1) / 2, mip_enumerate(att)), 1e-3)
  small <- ising_grid(2, 3, coupling = 0.8, field = 0.3, type = "mixed")
  s <- mip_sample(small, 3000, bound = "simple", progress = FALSE)
  expect_gt(mip_chisq((s$states + 1) / 2, mip_enumerate(small)), 1e-3)
  s <- mip_sample(mm, 1000, bound = "simple", progress = FALSE)
  expect_gt(mip_chisq(s$states, mip_enumerate(mm)), 1e-3)
  expect_true(all(perturb_and_map(att, 5, progress = FALSE)$exact))
  expect_equal(dim(blocked_gibbs(att, 2, 5, progress = FALSE)$states), c(5L, 5L))
})

test_that("binary programs with no 0/1 point: clear errors, also from rejection_sample()", {
  # x1 + ... + x10 == 4.5: LP-feasible, no binary point
  mm <- mip_model(rep(0.1, 10), A = matrix(1, 1, 10), b = 4.5, dir = "==")
  expect_error(mip_sample(mm, 1, bound = "simple", progress = FALSE), "no feasible binary point")
  skip_if_no_glpk()
  expect_error(mip_sample(mm, 1, progress = FALSE), "no feasible binary point")
  expect_error(perturb_and_map(mm, 1, progress = FALSE), "no feasible binary point")
  expect_error(rejection_sample(mm, 1), "no feasible binary point")   # used to loop forever
})

test_that("RBMs without hidden units: a product of Bernoullis in every sampler", {
  a <- c(0.5, -1, 0, 2)
  r <- rbm(matrix(0, 4, 0), a = a)
  set.seed(2)
  s <- mip_sample(r, 3000, progress = FALSE)
  expect_equal(colnames(s$states), c("v1", "v2", "v3", "v4"))
  expect_true(all(s$exact))
  expect_gt(mip_chisq(s$states, mip_enumerate(r)), 1e-3)
  expect_lt(abs(s$log_z - sum(log1p(exp(a)))), 4 * s$se)
  pm <- perturb_and_map(r, 200, progress = FALSE)
  expect_true(all(pm$exact))       # independent variables: Perturb-and-MAP is exact
  expect_gt(mip_chisq(pm$states, mip_enumerate(r)), 1e-3)
  ch <- blocked_gibbs(r, block_size = 2, iterations = 20, progress = FALSE)
  expect_equal(dim(ch$states), c(20L, 4L))
  skip_if_no_glpk()
  rj <- rejection_sample(r, 1000, depth = 2)
  expect_gt(mip_chisq(rj$states, mip_enumerate(r)), 1e-3)
})

test_that("log-weights too large for double precision: a clear error or a correct answer", {
  # past 1e300 the ising() constructor refuses them already; below, mip_sample() does
  expect_error(mip_sample(ising_clique(5, coupling = 1e308), 2, progress = FALSE), "too large")
  expect_error(mip_sample(ising_clique(5, coupling = 1e299), 2, progress = FALSE),
               "`model` has log-weights too large")
  expect_error(mip_sample(ising_grid(3, 3, coupling = 1e13), 2, progress = FALSE),
               "too large for exact sampling")
  expect_error(perturb_and_map(ising(NULL, field = c(1e308, 1e308, 1)), 2, progress = FALSE),
               "too large")
  expect_error(rejection_sample(ising(NULL, field = c(1e308, 1e308, 1)), 2), "too large")
  expect_error(rejection_sample(ising(NULL, field = c(1e299, 1e299, 1)), 2), "`target`.*too large")
  expect_error(mip_sample(mip_model(c(1e308, 1e308)), 2, progress = FALSE), "too large")
  # huge constraint coefficients (the same feasible set as x1 + x2 + x3 <= 1) and a
  # huge offset: exact frequencies
  m2 <- mip_model(c(1, 0.5, 0.2), A = rbind(c(1e308, 1e308, 1e308)), b = 1e308, offset = 1e300)
  en <- mip_enumerate(mip_model(c(1, 0.5, 0.2), A = rbind(c(1, 1, 1)), b = 1))
  set.seed(3)
  s <- mip_sample(m2, 3000, bound = "simple", progress = FALSE)
  expect_gt(mip_chisq(s$states, en), 1e-3)
  expect_equal(s$log_z, 1e300)
  skip_if_no_glpk()
  set.seed(3)
  s <- mip_sample(m2, 3000, progress = FALSE)
  expect_gt(mip_chisq(s$states, en), 1e-3)
  m3 <- mip_model(c(1, 0.5, 0.2), A = rbind(c(1e200, 1, 1e200)), b = 1e200, dir = ">=")
  s <- mip_sample(m3, 2000, progress = FALSE)
  expect_true(all(s$states[, 1] + s$states[, 3] >= 1))
})

test_that("argument errors name the argument (choices, kept states)", {
  m <- ising_clique(4)
  s <- mip_sample(m, 2, progress = FALSE)
  expect_error(plot(s, type = "trace"), "`type` must be one of \"bounds\", \"cost\"")
  expect_error(mip_sample(m, 2, lp_solver = "cplex"), "`lp_solver`")
  expect_error(mip_sample(m, 2, node_selection = 1), "`node_selection`")
  expect_error(perturb_and_map(m, 2, bound = "x"), "`bound`")
  expect_error(blocked_gibbs(m, 2, 2, bound = NA), "`bound`")
  expect_error(blocked_gibbs(ising_clique(30), 2, 2e9), "increase `thin`")
})

stops_within <- function(expr) {
  setTimeLimit(elapsed = 1, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf), add = TRUE)
  t0 <- proc.time()[["elapsed"]]
  msg <- tryCatch({
    force(expr)
    "finished"
  }, error = function(e) conditionMessage(e))
  list(msg = msg, time = proc.time()[["elapsed"]] - t0)
}

test_that("long GumbelMIP runs stop at a time limit: GLPK, roof dual, cuts, threads, MAPs, blocked Gibbs", {
  skip_on_cran()
  set.seed(4)
  mixed60 <- ising_clique(60, coupling = 0.2, type = "mixed")
  runs <- list(
    mip_cut_threads = quote(mip_sample(ising_clique(60, coupling = 0.2), 100, threads = 2,
                                       progress = FALSE)),
    mip_roof_threads = quote(mip_sample(ising_clique(60, coupling = 0.5, type = "mixed"), 100,
                                        threads = 2, progress = FALSE)),
    mip_simple_threads = quote(mip_sample(ising_clique(40, coupling = 0.3), 100, bound = "simple",
                                          threads = 2, progress = FALSE)),
    blocked_gibbs = quote(blocked_gibbs(ising_clique(20, coupling = 0.3), 5, 1e6,
                                        progress = FALSE)))
  if (logz_has_glpk()) runs <- c(runs, list(
    mip_glpk = quote(mip_sample(mixed60, 100, lp_solver = "glpk", progress = FALSE)),
    mip_glpk_threads = quote(mip_sample(mixed60, 100, lp_solver = "glpk", threads = 2,
                                        progress = FALSE)),
    mip_cycle = quote(mip_sample(mixed60, 100, lp_solver = "cycle", progress = FALSE)),
    perturb_and_map = quote(perturb_and_map(mixed60, 1000, progress = FALSE)),
    rejection = quote(rejection_sample(ising_clique(18, coupling = 1.5, type = "mixed"), 1e6))))
  for (nm in names(runs)) {
    r <- stops_within(eval(runs[[nm]]))
    expect_match(r$msg, "time limit|interrupted", label = nm)
    expect_lt(r$time, 30)   # (loose: a shared machine; typically 1-2 s)
  }
  # the session and GLPK still work
  small <- ising_grid(3, 3, coupling = 0.3, type = "mixed")
  expect_true(all(mip_sample(small, 5, bound = if (logz_has_glpk()) "lp" else "simple",
                             progress = FALSE)$exact))
})

test_that("the dive heuristic leaves the samples exact: chi-square, every bound", {
  # attractive (min cut), mixed (GLPK), a constrained binary program (GLPK), the
  # simple bound (no dive: no LP solution) and 'none' for comparison
  att <- ising_clique(6, coupling = 0.8, field = 0.7)
  set.seed(21)
  s <- mip_sample(att, 4000, heuristic = "dive", progress = FALSE)
  expect_gt(mip_chisq((s$states + 1) / 2, mip_enumerate(att)), 1e-3)
  expect_error(mip_sample(att, 2, heuristic = "icm"), "`heuristic` must be one of")
  skip_if_no_glpk()
  mixed <- ising_clique(5, coupling = 1, field = 0.5, type = "mixed")
  for (h in c("dive", "none")) {
    set.seed(22)
    s <- mip_sample(mixed, 4000, heuristic = h, progress = FALSE)
    expect_gt(mip_chisq((s$states + 1) / 2, mip_enumerate(mixed)), 1e-3)
    expect_lt(abs(s$log_z - exact_log_z(mixed)), 4 * s$se)
  }
  A <- rbind(rep(1, 6), c(1, 1, 0, 0, 0, 0), c(0, 0, 0, 0, 1, 1))
  mm <- mip_model(c(1, 0.8, -0.5, 0.3, 0.2, -1), A, b = c(3, 1, 1), dir = c("<=", "<=", ">="))
  set.seed(23)
  s <- mip_sample(mm, 3000, progress = FALSE)
  expect_gt(mip_chisq(s$states, mip_enumerate(mm)), 1e-3)
  # early stopped: the Theorem 2 statements still hold on average
  m <- ising_clique(10, coupling = 0.6, field = 0.5, type = "mixed")
  r <- suppressWarnings(mip_sample(m, 300, node_limit = 3, progress = FALSE),
                        classes = "logz_unreliable")   # stopped early on purpose
  se <- pi / sqrt(6 * 300)
  expect_lt(mean(r$value) - 0.5772156649, exact_log_z(m) + 4 * se)
  expect_gt(mean(r$upper) - 0.5772156649, exact_log_z(m) - 4 * se)
})

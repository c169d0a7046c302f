# GumbelMIP with threads on models bounded by GLPK (not attractive): every
# thread solves its own LP with its own GLPK environment and error trap
# (src/mip_batch.c); the samples are exact (chi-square against enumeration,
# Gumbel values against exact log Z) and the same for any thread count; a
# GLPK error on any thread becomes an R error and leaves GLPK usable.

# a small frustrated model: a clique of mixed-sign couplings
frustrated <- function(n, seed, sd = 0.8) {
  set.seed(seed)
  ed <- expand.grid(from = seq_len(n), to = seq_len(n))
  ed <- ed[ed$from < ed$to, ]
  ed$weight <- stats::rnorm(nrow(ed), 0, sd)
  ising(ed, field = stats::rnorm(n, 0, 0.5))
}

glpk_ctl <- function(threads = 2L, ...) {
  utils::modifyList(list(bound_lp = 1L, best_first = 1L, branching = logz:::MIP_BRANCHING[["auto"]],
                         perturb = 1L, node_limit = Inf, time_limit = Inf, cut = FALSE, roof = FALSE,
                         threads = as.integer(threads)), list(...))
}

test_that("threads = 2 with GLPK: exact samples (chi-square, Gumbel(log Z) values)", {
  skip_if_no_glpk()
  m <- frustrated(7, 1)
  expect_false(logz:::mip_attractive(logz:::mip_problem(m)))
  en <- mip_enumerate(m)
  set.seed(2)
  s <- mip_sample(m, 2000, lp_solver = "glpk", threads = 2, progress = FALSE)
  expect_match(s$method, "GLPK")
  expect_identical(s$threads, 2L)
  expect_true(all(s$exact))
  expect_gt(mip_chisq((s$states + 1) / 2, en), 1e-3)
  z <- exact_log_z(m)
  expect_gt(suppressWarnings(stats::ks.test(s$value, function(q) exp(-exp(-(q - z))))$p.value), 1e-3)
  # a linear mip_model() (constraint rows) too
  mm <- mip_model(c(0.3, -0.2, 0.5, 0.1, -0.4), A = rbind(c(1, 1, 1, 0, 0), c(0, 0, 1, 1, 1)),
                  b = c(1, 2), dir = c(">=", "<="))
  enm <- mip_enumerate(mm)
  set.seed(3)
  r <- mip_sample(mm, 1500, threads = 2, progress = FALSE)
  expect_identical(r$threads, 2L)
  expect_gt(mip_chisq(r$states, enm), 1e-3)
})

test_that("GLPK threads: reproducible under set.seed and the same for any thread count", {
  skip_if_no_glpk()
  m <- frustrated(10, 4)
  set.seed(5)
  a <- mip_sample(m, 40, lp_solver = "glpk", threads = 1, progress = FALSE)
  set.seed(5)
  b <- mip_sample(m, 40, lp_solver = "glpk", threads = 2, progress = FALSE)
  set.seed(5)
  d <- mip_sample(m, 40, lp_solver = "glpk", threads = 2, progress = FALSE)
  set.seed(5)
  utils::capture.output(e <- mip_sample(m, 40, lp_solver = "glpk", threads = 3, progress = TRUE))   # chunks of samples
  expect_identical(a$threads, 1L)
  expect_identical(b$threads, 2L)
  for (x in list(b, d, e)) {
    expect_identical(x$states, a$states)
    expect_identical(x$value, a$value)
    expect_identical(x$nodes, a$nodes)     # searches are not shared with GLPK
  }
  expect_true(all(b$diagnostics$shared_nodes == 0))
  # fewer samples than threads: the threads that run, no sharing
  set.seed(5)
  one <- mip_sample(m, 1, lp_solver = "glpk", threads = 2, progress = FALSE)
  expect_identical(one$threads, 1L)
  expect_identical(one$value, a$value[1])
})

test_that("GLPK errors on any thread become R errors and leave GLPK usable", {
  skip_if_no_glpk()
  m <- frustrated(8, 6)
  p <- logz:::mip_problem(m)
  for (st in 1:2) {     # on the first (R's) thread, on the last thread
    expect_error(logz:::mip_run(p, 6L, glpk_ctl(2L), selftest = st),
                 "GLPK failed.*column number out of range")
    expect_error(logz:::mip_run(p, 1L, glpk_ctl(1L), selftest = st),
                 "GLPK failed.*column number out of range")
  }
  set.seed(7)
  s <- mip_sample(m, 10, lp_solver = "glpk", threads = 2, progress = FALSE)
  expect_true(all(s$exact))
  expect_identical(s$threads, 2L)
})

test_that("GLPK without thread-local environments: one thread, a message, the same samples", {
  skip_if_no_glpk()
  m <- frustrated(8, 8)
  p <- logz:::mip_problem(m)
  set.seed(9)
  a <- logz:::mip_run(p, 6L, glpk_ctl(2L))
  set.seed(9)
  b <- logz:::mip_run(p, 6L, glpk_ctl(2L, no_tls = TRUE))
  expect_false(a$lp_serial)
  expect_identical(a$threads, 2L)
  expect_true(b$lp_serial)
  expect_identical(b$threads, 1L)
  expect_identical(a$states, b$states)
  expect_message(logz:::mip_serial_note(b, 2L), "solved on 1 thread, not 2.*TLS")
  expect_silent(logz:::mip_serial_note(b, 1L))
  expect_silent(logz:::mip_serial_note(a, 2L))
})

test_that("GLPK threads: searches stopped by time_limit give valid anytime results", {
  skip_if_no_glpk()
  m <- frustrated(40, 11, sd = 0.3)
  set.seed(12)
  s <- suppressWarnings(mip_sample(m, 4, lp_solver = "glpk", time_limit = 0.1, threads = 2,
                                   progress = FALSE),
                        classes = "logz_unreliable")
  expect_identical(s$threads, 2L)
  expect_false(all(s$exact))
  expect_true(all(s$value <= s$upper))
  expect_true(all(s$rank_bound >= 1))
})

test_that("bad `threads` errors name it", {
  m <- frustrated(4, 10)
  for (bad in list(0, -1, 1.5, NA, "2", c(1, 2), 2000, Inf))
    expect_error(mip_sample(m, 2, threads = bad, progress = FALSE), "`threads`")
})

# GLPK is optional at build time (configure; logz_has_glpk()): tests that need
# the GLPK-bounded search skip without it.
skip_if_no_glpk <- function() {
  testthat::skip_if_not(logz::logz_has_glpk(), "logz was built without GLPK")
}

# All 2^n configurations of a problem (0/1 rows) with their log-weights.
mip_enumerate <- function(model) {
  p <- logz:::mip_problem(model)
  S <- as.matrix(expand.grid(rep(list(0:1), p$n)))
  list(S = S, v = logz:::mip_value(p, S), p = p)
}

# Chi-square p-value of sampled 0/1 states against the enumerated distribution.
mip_chisq <- function(states01, en) {
  n <- ncol(en$S)
  code <- drop(en$S %*% 2^(seq_len(n) - 1))
  prob <- exp(en$v - max(en$v))
  prob <- prob / sum(prob)
  obs <- tabulate(drop(states01 %*% 2^(seq_len(n) - 1)) + 1, 2^n)[code + 1]
  keep <- prob > 0
  expect_equal(sum(obs[!keep]), 0)       # never an infeasible configuration
  obs <- obs[keep]
  prob <- prob[keep]
  # configurations expected fewer than 5 times are pooled into one cell (the
  # chi-square approximation fails for them: one draw of a 1e-5 state would
  # give p ~ 0)
  small <- prob * sum(obs) < 5
  if (sum(small) > 1) {
    obs <- c(obs[!small], sum(obs[small]))
    prob <- c(prob[!small], sum(prob[small]))
  }
  suppressWarnings(stats::chisq.test(obs, p = prob))$p.value
}

# mip_sample() on 1 and 2 threads from the same seed: identical states and values.
expect_mip_threads_identical <- function(model, n, seed, ...) {
  force(model)
  set.seed(seed)
  a <- mip_sample(model, n, threads = 1, progress = FALSE, ...)
  set.seed(seed)
  b <- mip_sample(model, n, threads = 2, progress = FALSE, ...)
  testthat::expect_identical(a$states, b$states)
  testthat::expect_identical(a$value, b$value)
}

# The engine's search on 1 thread and as one search shared by 2 threads (every
# thread joins every sample) from the same seed: identical states and values.
expect_mip_shared_identical <- function(problem, n, control, seed) {
  set.seed(seed)
  f1 <- logz:::mip_run(problem, n, utils::modifyList(control, list(threads = 1L)))
  set.seed(seed)
  f2 <- logz:::mip_run(problem, n, utils::modifyList(control, list(
    threads = 2L, share = logz:::MIP_SHARE[["forced"]])))
  testthat::expect_identical(f1$states, f2$states)
  testthat::expect_identical(f1$value, f2$value)
  testthat::expect_true(all(f2$helped > 0))
}

# The mode check of the annealing estimators on RBMs (R/base_check.R).

small_rbm <- function(nv, nh, sd, seed) {
  set.seed(seed)
  rbm(matrix(rnorm(nv * nh, sd = sd), nv, nh), a = rnorm(nv, sd = 0.5), b = rnorm(nh, sd = 0.5))
}
all_hidden <- function(nh) t(as.matrix(expand.grid(rep(list(c(0, 1)), nh))))

test_that("log f(h) summed over every hidden state is exact log Z", {
  for (seed in 1:3) {
    m <- small_rbm(12, 6, 1, seed)
    H <- all_hidden(6)
    expect_equal(logz:::log_sum_exp(logz:::rbm_log_f_hidden(m, H)), exact_log_z(m),
                 tolerance = 1e-10)
  }
})

test_that("the ascent ends in local maxima of log f(h), and the bound is below log Z", {
  for (seed in 1:4) {
    m <- small_rbm(30, 8, 1.5, seed)
    set.seed(seed)
    H <- logz:::hidden_ascent(m, matrix(as.double(runif(8 * 20) < 0.5), 8))
    lf <- logz:::rbm_log_f_hidden(m, H)
    for (j in 1:8) {                       # no single flip gains
      F <- H
      F[j, ] <- 1 - F[j, ]
      expect_true(all(logz:::rbm_log_f_hidden(m, F) <= lf + 1e-9))
    }
    mb <- logz:::rbm_mode_bound(m, starts = 20L)
    expect_lte(mb$log_z, exact_log_z(m) + 1e-9)
    expect_identical(anyDuplicated(t(mb$states)), 0L)
    expect_equal(mb$log_f, logz:::rbm_log_f_hidden(m, mb$states))
  }
  # on a sharply bimodal RBM the two modes carry almost all the mass
  m <- small_rbm(40, 3, 4, 9)
  expect_lt(exact_log_z(m) - logz:::rbm_mode_bound(m, starts = 30L)$log_z, 0.05)
  expect_null(logz:::rbm_mode_bound(rbm(matrix(0, 5, 70))))   # n_h > 64: no search
})

test_that("the mode search leaves R's random numbers alone", {
  m <- small_rbm(20, 5, 1, 3)
  set.seed(11)
  logz:::rbm_mode_bound(m)
  u <- runif(3)
  set.seed(11)
  expect_identical(runif(3), u)
})

# two_mode_rbm(): the two-mode RBM of helper-models.R.
test_that("an AIS run that misses a mode is flagged by the mode checks, a good one is not", {
  m <- two_mode_rbm(3, 2, 1)
  truth <- exact_log_z(m)
  set.seed(52)
  w <- NULL
  fit <- withCallingHandlers(ais(m, schedule_linear(1000), n_chains = 100, base = "visible",
                                 progress = FALSE),
                             warning = function(x) {
                               w <<- c(w, conditionMessage(x))
                               invokeRestart("muffleWarning")
                             })
  expect_lt(fit$log_z, truth - 1)             # the visible base misses the sharp mode
  expect_gt(fit$ess, 50)                      # with ESS near M: a confident wrong answer
  expect_match(fit$flags, "mode bound", all = FALSE)
  expect_match(fit$flags, "^mode occupancy", all = FALSE)
  expect_length(w, 1L)                        # one warning per call
  expect_match(w, "below the lower bound log Z >=")
  expect_false(fit$reliable)
  expect_gt(fit$mode_check$bound, fit$log_z + 1)
  expect_lte(fit$mode_check$bound, truth + 1e-9)
  # the same model from the mode base: right, and unflagged
  set.seed(52)
  ok <- ais(m, schedule_linear(1000), n_chains = 100, base = "mode", progress = FALSE)
  expect_lt(abs(ok$log_z - truth), 4 * ok$se + 0.05)
  expect_true(ok$reliable)
  expect_lt(ok$mode_check$short, 0.25)
})

test_that("the check flags an estimate provably below the bound, with any estimator", {
  m <- two_mode_rbm(3, 5, 2)
  set.seed(3)
  b <- logz_base(m, "visible")
  b$mode_bound <- logz:::rbm_mode_bound(m)
  fake <- logz:::new_logz_estimate(list(log_z = b$mode_bound$log_z - 2, se = 0.1, method = "AIS",
                                 time = 0, counts = c(chains = 1), diagnostics = NULL,
                                 seed = NULL, call = NULL), "logz_ais")
  expect_warning(chk <- logz:::check_against_base(fake, b), "nats below the lower bound",
                 class = "logz_unreliable")
  expect_false(chk$reliable)
  close <- fake
  close$log_z <- b$mode_bound$log_z - 0.35  # within 0.1 nats + 3 se: no flag
  expect_warning(chk <- logz:::check_against_base(close, b), NA)
  expect_true(chk$reliable)
})

test_that("Kiwaki's CD-1 model: default ais() misses modes and is flagged", {
  x <- bench_rbm("rbm20_cd1_v1")
  m <- x$bare
  set.seed(1)
  mb <- logz:::rbm_mode_bound(m)
  expect_lte(mb$log_z, x$log_z)
  expect_gt(mb$log_z, x$log_z - 0.5)          # four hidden states hold 0.96 of Z
  # a short run from the model base sits in the broad mode (0.23 of Z)
  set.seed(2)
  fit <- suppressWarnings(ais(x$model, schedule_sm08(1000), n_chains = 30, progress = FALSE))
  expect_lt(fit$log_z, x$log_z - 0.7)
  expect_false(fit$reliable)
  expect_match(fit$flags, "mode bound|^mode occupancy", all = FALSE)
})

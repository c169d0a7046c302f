# The checks of an estimate against its base (R/base_check.R): the mode bound and
# the mode occupancy (the pilot check is in test-base.R, on the two-mode RBMs).

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

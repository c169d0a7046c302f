# Reliability diagnostics: ESS/M, Pareto k-hat, flags, the warning, print.

rgpd <- function(n, k, sigma = 1) sigma * (stats::runif(n)^(-k) - 1) / k

test_that("gpd_fit recovers the shape of generalized Pareto draws", {
  for (k in c(0.2, 0.5, 0.9)) {
    for (s in 1:3) {
      set.seed(s)
      x <- rgpd(2000, k, sigma = 2)
      fit <- logz:::gpd_fit(x, wip = FALSE)
      expect_lt(abs(fit$k - k), 0.1)
      expect_lt(abs(fit$sigma / 2 - 1), 0.15)
    }
  }
})

test_that("the Pareto k-hat of log weights recovers the tail shape", {
  # the tail of a GPD is a GPD with the same shape, so the PSIS tail fit of
  # log weights log(x), x ~ GPD(k), estimates k
  for (k in c(0.2, 0.5, 0.9)) {
    set.seed(10 + round(10 * k))
    d <- weight_diagnostics(log(rgpd(20000, k)), method = "logz")
    expect_lt(abs(d$khat - k), 0.2)
    expect_identical(d$khat_method, "logz")
  }
  # light tails: k-hat well below 0.5; equal weights: no tail to fit
  set.seed(3)
  expect_lt(weight_diagnostics(stats::rnorm(4000, sd = 0.1), method = "logz")$khat, 0.3)
  expect_true(is.na(weight_diagnostics(rep(0, 100))$khat))
  # too few weights for a tail of 5
  expect_true(is.na(weight_diagnostics(stats::rnorm(20))$khat))
})

test_that("the in-house k-hat agrees with loo::psis where loo is installed", {
  skip_if_not_installed("loo")
  for (k in c(0.2, 0.5, 0.9)) {
    set.seed(20 + round(10 * k))
    lw <- log(rgpd(1000, k))
    ours <- weight_diagnostics(lw, method = "logz")$khat
    theirs <- suppressWarnings(loo::psis(lw, r_eff = 1))$diagnostics$pareto_k
    expect_equal(ours, theirs, tolerance = 0.05)
  }
})

test_that("ESS/M of normalised weights has its closed form", {
  w <- c(1, 2, 3, 4)
  d <- weight_diagnostics(log(w) + 100)
  expect_equal(d$ess, sum(w)^2 / sum(w^2))
  expect_equal(d$ess_ratio, sum(w)^2 / sum(w^2) / 4)
  expect_equal(weight_diagnostics(rep(-5, 10))$ess_ratio, 1)
  expect_equal(weight_diagnostics(c(0, rep(-Inf, 9)))$ess_ratio, 0.1)
  expect_error(weight_diagnostics(c(1, NA)), "`log_w`")
  expect_error(weight_diagnostics("a"), "`log_w`")
})

test_that("weight_flags names the thresholds it crossed", {
  expect_identical(weight_flags(list(ess_ratio = 0.5, khat = 0.3)), character())
  expect_identical(weight_flags(list(ess_ratio = 0.04, khat = 0.83)),
                   c("ESS/M = 0.04 < 0.1", "Pareto k-hat = 0.83 > 0.7"))
  expect_identical(weight_flags(list(ess_ratio = 0.2, khat = NA)), character())
  expect_identical(weight_flags(list(ess_ratio = 0.2, khat = 0.6), khat_max = 0.5),
                   "Pareto k-hat = 0.60 > 0.5")
})

peaked_rbm <- function() {
  set.seed(1)
  rbm(matrix(stats::rnorm(200, sd = 3), 20, 10), a = stats::rnorm(20), b = stats::rnorm(10))
}

test_that("a too-short AIS schedule on a peaked RBM is flagged, with one warning", {
  m <- peaked_rbm()
  set.seed(2)
  expect_warning(bad <- ais(m, schedule_linear(10), n_chains = 100, progress = FALSE, base = "uniform"),
                 class = "logz_unreliable")
  expect_false(bad$reliable)
  expect_match(bad$flags, "^(ESS/M = [0-9.]+ < 0.1|Pareto k-hat = [0-9.]+ > 0.7)$")
  expect_true(any(grepl("ESS/M", bad$flags)))
  expect_lt(bad$ess_ratio, 0.1)
  expect_equal(bad$ess_ratio, bad$ess / 100)
  # the estimate is indeed off: well below the exact value
  expect_lt(bad$log_z, exact_log_z(m) - 0.05)
  # exactly one warning
  n_warn <- 0L
  set.seed(2)
  withCallingHandlers(ais(m, schedule_linear(10), n_chains = 100, progress = FALSE, base = "uniform"),
                      warning = function(w) {
                        n_warn <<- n_warn + 1L
                        invokeRestart("muffleWarning")
                      })
  expect_identical(n_warn, 1L)
  # the option silences it; the flags stay
  old <- options(logz.warn_unreliable = FALSE)
  on.exit(options(old))
  set.seed(2)
  expect_no_warning(quiet <- ais(m, schedule_linear(10), n_chains = 100, progress = FALSE, base = "uniform"))
  expect_identical(quiet$flags, bad$flags)
  out <- capture.output(print(bad))
  expect_true(any(grepl("log Z = [0-9.]+ nats \\(se [0-9.]+\\)", out)))
  expect_true(any(grepl("unreliable", out)))
  expect_true(any(grepl("ESS/M = [0-9.]+ < 0.1", out)))
})

test_that("a long AIS schedule on the same RBM is not flagged", {
  m <- peaked_rbm()
  set.seed(2)
  expect_no_warning(good <- ais(m, schedule_linear(3000), n_chains = 100, progress = FALSE))
  expect_true(good$reliable)
  expect_identical(good$flags, character())
  expect_gt(good$ess_ratio, 0.5)
  expect_lt(good$khat, 0.7)
  expect_lt(abs(good$log_z - exact_log_z(m)), 4 * good$se + 0.02)
  out <- capture.output(print(good))
  expect_true(any(grepl("nats", out)))
  expect_false(any(grepl("unreliable", out)))
})

test_that("the AIS lower 3-sd bound is finite when the 3-sd interval of Z reaches 0", {
  lw <- c(0, rep(-8, 9))
  s <- logz:::ais_summary(lw, 0)
  expect_true(3 * s$se >= 1)
  expect_identical(s$bounds_method, "delta")
  expect_equal(s$bounds[["lower"]], s$log_z - 3 * s$se)
  expect_true(is.finite(s$bounds[["lower"]]))
  s2 <- logz:::ais_summary(c(0, 0.1, -0.1, 0.05), 0)
  expect_identical(s2$bounds_method, "sm08")
  expect_equal(s2$bounds[["lower"]], s2$log_z + log1p(-3 * s2$se))
})

test_that("split AIS runs warn once, for the merged result", {
  skip_if_not_installed("future.apply")
  m <- peaked_rbm()
  n_warn <- 0L
  set.seed(2)
  fit <- withCallingHandlers(
    ais(m, schedule_linear(3), n_chains = 100, workers = 2, progress = FALSE, base = "uniform"),
    warning = function(w) {
      n_warn <<- n_warn + 1L
      invokeRestart("muffleWarning")
    })
  expect_identical(fit$pieces, 2L)
  expect_identical(n_warn, 1L)
  expect_false(fit$reliable)
})

test_that("estimates without an se say why and how to get one", {
  d <- data.frame(x = c(-2, -1, 1, 2, 0.2), y = c(-1, -1, 1, 1, -1))
  g <- gpc(y ~ x, d, lengthscale = 1, amplitude = 2)
  set.seed(1)
  a <- arm(g, particles = 50, progress = FALSE)
  expect_true(is.na(a$se))
  expect_output(print(a), "log Z = -?[0-9.]+ nats \\(no se: one run; use repeats = 4")
  set.seed(1)
  a4 <- arm(g, particles = 50, repeats = 4, progress = FALSE)
  expect_output(print(a4), "log Z = -?[0-9.]+ nats \\(se [0-9.]+\\)")
  ep <- log_partition(g, method = "ep")
  expect_output(print(ep), "nats \\(no se: EP is a deterministic approximation")
  expect_output(print(summary(ep)), "NA \\(EP is a deterministic")
  ex <- log_partition(ising_grid(3, 3, coupling = 0.3))
  expect_output(print(ex), "log Z = [0-9.]+ nats \\(exact: ")
})

test_that("GumbelMIP samples stopped at the node limit are flagged", {
  m <- ising_grid(4, 4, coupling = 1.5, field = 0.1)
  set.seed(3)
  expect_warning(s <- mip_sample(m, 10, node_limit = 1, progress = FALSE),
                 class = "logz_unreliable")
  expect_false(s$reliable)
  expect_match(s$flags, sprintf("^%d of 10 samples not exact within the time/node limit$",
                                sum(!s$exact)))
  expect_output(print(s), "not exact within the time/node limit")
  set.seed(3)
  expect_no_warning(s2 <- mip_sample(m, 5, progress = FALSE))
  expect_true(s2$reliable)
})

test_that("RAISE flags a low mean ESS/M over examples", {
  m <- peaked_rbm()
  set.seed(4)
  x <- matrix(stats::rbinom(5 * 20, 1, 0.5), 5, 20)
  expect_warning(r <- raise(m, x, schedule_linear(5), n_chains = 50, progress = FALSE, base = "uniform"),
                 class = "logz_unreliable")
  expect_match(r$flags, "^mean ESS/M over examples = [0-9.e-]+ < 0.1$")
  expect_equal(r$ess_ratio, mean(r$diagnostics$ess) / 50)
  expect_output(print(r), "nats")
  set.seed(4)
  expect_no_warning(r2 <- raise(m, x, schedule_linear(2000), n_chains = 10, progress = FALSE))
  expect_true(r2$reliable)
})

# Every reliability flag the package raises, each with a call that raises it:
# `run()` returns the flagged estimate (or base), or the flag of an RTS check
# (run before its result is built); `flag` matches the flag it must carry.
flag_cases <- function() {
  peaked <- peaked_rbm()
  fake_estimate <- function(log_z, ...)
    logz:::new_logz_estimate(list(log_z = log_z, se = 0.1, method = "AIS", time = 0,
                                  counts = c(chains = 1), diagnostics = NULL, seed = NULL,
                                  call = NULL, ...), "logz_ais")
  pilot_base <- function() {   # the auto base of `peaked` from a 3-step pilot, flagged
    old <- options(logz.mode_check_starts = 0)
    on.exit(options(old))
    set.seed(4)
    logz_base(peaked, pilot_chains = 6, pilot_steps = 3)
  }
  mode_base <- function() {
    b <- logz_base(peaked, "visible")
    b$mode_bound <- logz:::rbm_mode_bound(peaked)
    b
  }
  gp <- gpc(y ~ x, data.frame(x = c(-2, -1, 1, 2, 0.2), y = c(-1, -1, 1, 1, -1)),
            lengthscale = 1, amplitude = 2)
  short_ais <- function() {
    set.seed(2)
    ais(peaked, schedule_linear(10), n_chains = 100, progress = FALSE, base = "uniform")
  }
  list(
    ess = list(flag = "^ESS/M = [0-9.]+ < 0.1$", run = short_ais),
    laplace_width = list(flag = "^the target is [0-9.]+ times wider than its Laplace base",
                         run = function() {
      b <- 0.1
      f <- function(X) -X[, 1]^2 / 200 - (X[, 2] - b * X[, 1]^2 + 100 * b)^2 / 2
      g <- function(X) {
        r <- X[, 2] - b * X[, 1]^2 + 100 * b
        cbind(-X[, 1] / 100 + 2 * b * X[, 1] * r, -r)
      }
      set.seed(1)
      ais(f, gradient = g, vectorized = TRUE, start = c(1, 1), progress = FALSE)
    }),
    khat = list(flag = "^Pareto k-hat = [0-9.]+ > 0.7$", run = short_ais),
    raise = list(flag = "^mean ESS/M over examples = [0-9.e-]+ < 0.1$", run = function() {
      set.seed(4)
      x <- matrix(stats::rbinom(5 * 20, 1, 0.5), 5, 20)
      raise(peaked, x, schedule_linear(5), n_chains = 50, progress = FALSE, base = "uniform")
    }),
    arm = list(flag = "^min ESS/R_n over iterations = [0-9.e-]+ < 0.1$", run = function() {
      set.seed(1)
      x <- matrix(stats::rnorm(60), 30)
      d <- data.frame(x1 = x[, 1], x2 = x[, 2],
                      y = ifelse(x[, 1] + stats::rnorm(30, sd = 0.3) > 0, 1, -1))
      g <- gpc(y ~ x1 + x2, d, lengthscale = 1, amplitude = 10)
      set.seed(2)
      arm(g, particles = 10, progress = FALSE)
    }),
    arm_reseed = list(flag = "^fresh reseed blocks lowered log Z by [0-9.]+ nats > 1$", run = function() {
      # fresh blocks from the uniform base on two equal modes (test-arm_fresh.R)
      s <- rep(c(1, -1), length.out = 24)
      m <- rbm(matrix(4 * s, 24, 1), a = -2 * s, b = 0)
      set.seed(4)
      arm(m, particles = 20, variant = "reseed", rule = "per_block", gamma_threshold = 1, i_max = 1,
          move_steps = 2, reseed_steps = 0, base = "uniform", progress = FALSE)
    }),
    mip = list(flag = "samples not exact within the time/node limit$", run = function() {
      set.seed(3)
      mip_sample(ising_grid(4, 4, coupling = 1.5, field = 0.1), 10, node_limit = 1,
                 progress = FALSE)
    }),
    ep = list(flag = "^EP did not converge in 1 sweeps$",
              run = function() log_partition(gp, method = "ep", max_sweeps = 1)),
    base_pilot_sd = list(flag = "^base pilot sd of log weights = [0-9.]+ > 2", run = pilot_base),
    below_pilot = list(flag = "below the base pilot's log Z", run = function() {
      # an estimate 3 nats below the best pilot, given the flagged base
      b <- suppressWarnings(pilot_base(), classes = "logz_unreliable")
      logz:::with_base(fake_estimate(max(b$pilot$log_z) - 3), b)
    }),
    mode_bound = list(flag = "below the mode bound log Z >=", run = function() {
      b <- mode_base()
      logz:::check_against_base(fake_estimate(b$mode_bound$log_z - 2), b)
    }),
    mode_occupancy = list(flag = "^mode occupancy: ", run = function() {
      b <- mode_base()
      logz:::check_mode_occupancy(fake_estimate(b$mode_bound$log_z, log_weights = rep(0, 5)),
                                  b, peaked, matrix(0, 20, 5))
    }),
    smc_accept = list(flag = "^mean acceptance [0-9.]+ < 0.05 at some temperature",
                      run = function() {
      set.seed(1)
      smc(function(x) -sum(x^2) / 2, base = proposal_normal(c(0, 0), 3), kernel = "rwm",
          target_accept = 0.005, particles = 50, replicates = 2, progress = FALSE)
    }),
    smc_modes = list(flag = "^a mode the particles did not reach: the multi-start search found 1 other mode",
                     run = function() {
      lb <- laplace_base(function(x) -sum(x^2) / 2, start = c(1, 1), df = Inf)
      far <- laplace_base(function(x) -sum((x - 6)^2) / 2, start = c(5, 5), df = Inf)
      X <- matrix(seq(-1, 1, length.out = 40), 20)
      logz:::smc_flag(fake_estimate(0), logz:::smc_check_modes(lb, list(far), X,
                                                               rep(-log(20), 20), rep(1L, 20)))
    }),
    smc_bridge = list(flag = "^the bridge and SMC estimates of the same runs differ by 1 nats, 7.1 combined se \\(threshold 3\\); log Z is the smc estimate",
                      run = function() {
      x <- fake_estimate(0, bridge = c(log_z = 1, se = 0.1), smc = c(log_z = 0, se = 0.1))
      logz:::smc_flag(x, logz:::smc_bridge_flags(x, "auto"))
    }),
    target_se = list(flag = "^target se (1e-04|0.0001) not reached: se [0-9.e-]+ after [0-9]+ replicates",
                     run = function() {
      set.seed(1)
      smc(function(x) -sum(x^2) / 2, base = proposal_normal(c(0, 0), 3), kernel = "rwm",
          particles = 50, target_se = 1e-4, max_evaluations = 2e4, progress = FALSE)
    }),
    rts_visits = list(flag = "^visit deficit: ", run = function()
      logz:::rts_check_visits(c(0, rep(1 / 9, 9)), rep(0.1, 10))),
    rts_outlier = list(flag = "^outlier chain: chain 2 ", run = function() {
      acc <- logz:::rts_acc_new(5, 4)
      acc[, "sum_q", ] <- 1
      acc[5, "sum_q", 2] <- 10
      logz:::rts_chain_shares(acc)$flag
    }),
    rts_drift = list(flag = "^ladder drift: ", run = function() {
      init <- list(log_z = cbind(0, 0, c(10, 11, 12, 12.5)),
                   se = cbind(0, 0, c(0.3, 0.3, 0.4, 0.4)))
      logz:::rts_check_drift(13, 0.3, init)$flag
    }),
    rts_track = list(flag = "^tracking lag: ", run = function()
      logz:::rts_track_flags(data.frame(epoch = 1:2, visit_ratio = c(0.5, 0.5),
                                        lag_z = c(-10, 0)))),
    rts_track_innov = list(flag = "^tracking innovations: ", run = function()
      logz:::rts_track_flags(data.frame(epoch = 1:2, visit_ratio = c(0.5, 0.5), lag_z = 0,
                                        innov_z2 = c(1, 20)))),
    sandwich = list(flag = "^sandwich crossed: RAISE lower bound - AIS upper bound = [0-9.e-]+ nats",
                    run = function() logz:::sandwich_check(-209.2327, -209.2651, 0.02, 0.01)$flag))
}

# Run `run()` collecting (and muffling) every warning: list(value, warnings).
with_warnings <- function(run) {
  w <- list()
  value <- withCallingHandlers(run(), warning = function(cnd) {
    w[[length(w) + 1L]] <<- cnd
    invokeRestart("muffleWarning")
  })
  list(value = value, warnings = w)
}

flags_of <- function(x) if (is.character(x)) x else x$flags

test_that("every flag warns with class logz_unreliable, and the option silences each", {
  for (nm in names(cases <- flag_cases())) {
    case <- cases[[nm]]
    on <- with_warnings(case$run)
    expect_match(flags_of(on$value), case$flag, all = FALSE, info = nm)
    if (!is.character(on$value) && !inherits(on$value, "logz_base"))
      expect_false(on$value$reliable, info = nm)
    expect_gte(length(on$warnings), 1L)
    for (w in on$warnings) expect_s3_class(w, "logz_unreliable")
    old <- options(logz.warn_unreliable = FALSE)
    off <- with_warnings(case$run)
    options(old)
    expect_length(off$warnings, 0L)
    expect_identical(flags_of(off$value), flags_of(on$value), info = nm)
  }
})

test_that("the flag table covers every function that sets a flag", {
  # a new flag site must get a row in flag_cases() above
  ns <- asNamespace("logz")
  path <- c("flag_estimate", "warn_unreliable", "unreliable_warning")
  callers <- Filter(function(n) {
    f <- get(n, envir = ns)
    is.function(f) && any(path %in% all.names(body(f)))
  }, ls(ns, all.names = TRUE))
  expect_setequal(callers, c(
    "flag_estimate", "warn_unreliable",                          # the path itself
    "new_ais_result", "new_raise_result", "arm_fit", "new_mip_samples",  # ess, khat, raise, arm(_reseed), mip
    "ep_log_z", "ep_estimate",                                   # ep
    "rbm_auto_base", "with_base",                                # base_pilot_sd (carried)
    "check_against_base", "check_mode_occupancy",                # below_pilot, mode_*
    "rts_check_visits", "rts_chain_shares", "rts_check_drift",   # rts_*
    "check_laplace_width",                                       # laplace_width
    "sandwich_check",                                            # sandwich
    "rts_run_groups", "rts_shared_groups",                       # rts_* (groups)
    "rts_track_flags",                                           # rts_track
    "flag_target_se"))                                  # smc_accept, smc_modes, smc_bridge, target_se
})

# The default base of the annealing estimators (R/base.R).

# The trained 784 x 20 MNIST RBM of helper-models.R rebuilt from its weights
# alone, so it has no `base_rate` (as a model from rbm(W, a, b)).
bare_rbm20 <- function() {
  fx <- mnist_rbm20()
  list(model = rbm(fx$model$W, fx$model$a, fx$model$b), trained = fx$model, log_z = fx$log_z)
}

test_that("default ais() on an rbm(W, a, b) uses a pilot-chosen base and lands within 0.1 nats", {
  fx <- bare_rbm20()
  expect_null(fx$model$base_rate)
  set.seed(31)
  fit <- ais(fx$model, progress = FALSE)
  expect_true(fit$base$type %in% c("model", "visible", "mode"))
  expect_match(fit$base$how, "chosen over the .* bases by pilot AIS")
  expect_false(any(grepl("^base pilot", fit$flags)))
  expect_true(fit$reliable)   # no mode-check flag on a good run either
  expect_lt(abs(fit$log_z - fx$log_z), 0.1)
  expect_lt(abs(fit$log_z - fx$log_z), 4 * fit$se + 0.02)
})

test_that("default rts() on an rbm(W, a, b) uses a pilot-chosen base and lands within 0.1 nats", {
  fx <- bare_rbm20()
  set.seed(32)
  fit <- suppressWarnings(rts(fx$model, K = 100, n_chains = 100, sweeps = 1000,
                              estimators = "rts", progress = FALSE))
  expect_true(fit$base$type %in% c("model", "visible", "mode"))
  expect_lt(abs(fit$log_z - fx$log_z), 0.1)
  expect_lt(abs(fit$log_z - fx$log_z), 4 * fit$se + 0.02)
})

test_that("the uniform base is far off on the same model (the test above can fail)", {
  # with the paper's start-up: the default pilot (pilot_sweeps = NULL) rescues
  # part of the uniform base's error (0.6 nats off here), which hides the base
  fx <- bare_rbm20()
  set.seed(32)
  fit <- suppressWarnings(rts(fx$model, K = 100, n_chains = 100, sweeps = 1000,
                              estimators = "rts", base = "uniform", pilot_sweeps = 0,
                              progress = FALSE))
  expect_identical(fit$base$type, "uniform")
  expect_gt(abs(fit$log_z - fx$log_z), 1)
})

test_that("the model base is close to the data's base rates and reproducible", {
  fx <- bare_rbm20()
  set.seed(33)
  b1 <- logz_base(fx$model, "model")
  set.seed(33)
  b2 <- logz_base(fx$model, "model")
  expect_identical(b1, b2)
  expect_s3_class(b1, "logz_base")
  expect_identical(b1$type, "model")
  expect_length(b1$bias, 784L)
  expect_equal(b1$log_z0, sum(log1p(exp(b1$bias))) + 20 * log(2))
  # smoothed: no unit certain
  expect_true(all(b1$marginals >= 0.05 / 1.1 - 1e-12 & b1$marginals <= 1.05 / 1.1 + 1e-12))
  # the model was trained on these digits: its marginals track their pixel means
  expect_gt(cor(b1$marginals, plogis(fx$trained$base_rate)), 0.8)
  # threads do not change it
  set.seed(33)
  expect_identical(logz_base(fx$model, "model", threads = 2)$bias, b1$bias)
  # the auto base: the pilot table, reproducible, the same for any threads
  set.seed(33)
  a1 <- logz_base(fx$model)
  set.seed(33)
  # (equal, not identical: BLAS blocks the chains of each thread slice
  # differently, so sums may differ in the last bits)
  expect_equal(logz_base(fx$model, threads = 2), a1, tolerance = 1e-10)
  expect_identical(a1$pilot$type, c("model", "visible", "uniform", "mode"))
  expect_identical(a1$type, a1$pilot$type[which.max(a1$pilot$mean_log_w)])
  expect_true(all(a1$pilot$mean_log_w <= a1$pilot$log_z + 1e-9))   # Jensen
  expect_null(a1$flags)
  # the visible base is sigmoid(a), smoothed
  v <- logz_base(fx$model, "visible", smooth = 0)
  expect_equal(v$marginals, plogis(fx$model$a))
})

test_that("a plain rbm(W, a, b) with a hard-to-find mode gets log Z right (within se) or a flag", {
  # from the model or visible base every chain stays in the broad mode and AIS
  # was 1.5 to 4 nats low with ESS near M (a confident wrong answer); the
  # uniform base starts near the sharp mode's threshold, and its pilot wins.
  # The pilot alone, without the mode search (its candidate and checks are
  # tested below and in test-base-check.R):
  old <- options(logz.mode_check_starts = 0)
  on.exit(options(old))
  flagged <- 0
  for (case in list(c(2, 5, 1), c(3, 2, 1), c(3, 5, 2), c(3, 2, 3), c(3, 10, 4), c(3, 2, 4))) {
    m <- two_mode_rbm(case[1], case[2], case[3])
    truth <- exact_log_z(m)
    set.seed(50 + case[3])
    w <- NULL
    fit <- withCallingHandlers(ais(m, schedule_linear(1000), n_chains = 100, progress = FALSE),
                               warning = function(x) {
                                 w <<- c(w, conditionMessage(x))
                                 invokeRestart("muffleWarning")
                               })
    flag <- any(grepl("base pilot", fit$flags))
    # a flag and a warning go together
    expect_identical(any(grepl("pilot", w)), flag)
    expect_match(fit$base$how, "chosen over the .* bases by pilot AIS")
    if (flag) {
      flagged <- flagged + 1
      expect_false(fit$reliable)
    } else {
      expect_lt(abs(fit$log_z - truth), 4 * fit$se + 0.05)
    }
  }
  expect_gt(flagged, 0)   # the flag path is exercised
  # the pilot cross-check flags a run that ends below a pilot's estimate
  m <- two_mode_rbm(3, 2, 1)
  set.seed(51)
  b <- suppressWarnings(logz_base(m))   # (its uniform-base pilot may flag itself)
  set.seed(52)
  expect_warning(fit <- ais(m, schedule_linear(1000), n_chains = 100, base = "visible",
                            progress = FALSE), NA)
  expect_lt(fit$log_z, exact_log_z(m) - 1)   # the visible base misses the sharp mode
  expect_warning(chk <- logz:::check_against_base(fit, b), "nats below the pilot AIS")
  expect_match(chk$flags, "below the base pilot's log Z", all = FALSE)
  expect_false(chk$reliable)
  expect_identical(chk$log_z, fit$log_z)
})

test_that("with the mode search the two-mode RBMs get the mode base and log Z within se", {
  # from the pilot alone (above) 1.5 to 4 nats low or flagged; from the mode
  # base 5 of the 6 are within se. Case (3, 2, 3) is 0.21 nats low with se
  # 0.003 and no flag: its missing mass lies outside the hidden states the
  # search found (the bound is 0.64 below log Z, below the estimate: a limit
  # of the check, documented in ?logz_base).
  within <- 0
  for (case in list(c(2, 5, 1), c(3, 2, 1), c(3, 5, 2), c(3, 2, 3), c(3, 10, 4), c(3, 2, 4))) {
    m <- two_mode_rbm(case[1], case[2], case[3])
    truth <- exact_log_z(m)
    set.seed(50 + case[3])
    fit <- ais(m, schedule_linear(1000), n_chains = 100, progress = FALSE)
    expect_identical(fit$base$type, "mode")
    expect_lt(abs(fit$log_z - truth), 0.3)
    within <- within + (abs(fit$log_z - truth) < 4 * fit$se + 0.05)
  }
  expect_gte(within, 5)
})

test_that("Kiwaki's PCD model from its weights: the mode base wins the pilot, unflagged", {
  x <- bench_rbm("rbm20_pcd_v1")
  m <- x$bare
  set.seed(1)
  expect_warning(b <- logz_base(m), NA)
  expect_identical(b$type, "mode")
  expect_null(b$flags)
  # the model base's pilot is the one that shows a poor base
  expect_gt(b$pilot$sd_log_w[b$pilot$type == "model"], 2)
  set.seed(2)
  fit <- ais(m, schedule_sm08(2000), n_chains = 30, base = b, progress = FALSE)
  expect_lt(abs(fit$log_z - x$log_z), 0.5)   # from the model base: 23 nats low
})

test_that("the PCD model of bench/training/train_rbm20.R is flagged by the pilot without the mode search", {
  x <- bench_rbm("rbm20_pcd_v1")
  old <- options(logz.mode_check_starts = 0)
  on.exit(options(old))
  m <- x$bare
  # (the flag is not certain: with set.seed(1) the kept model base's pilot sd
  # of log weights was 1.73, under the threshold of 2; seeds 2 and 3 gave 4.5
  # and 4.9)
  for (s in 2:3) {
    set.seed(s)
    expect_warning(b <- logz_base(m), "estimate may be far too low")
    expect_match(b$flags, "^base pilot sd of log weights")
    # the flag reaches any estimator given this base
    # (and the 10-step run is flagged again, far below the pilots)
    expect_warning(fit <- ais(m, schedule_linear(10), n_chains = 5, base = b, progress = FALSE),
                   "below the pilot AIS")
    expect_true(b$flags %in% fit$flags)
    expect_false(fit$reliable)
  }
})

test_that("exact marginals of a small RBM are recovered by the model base", {
  set.seed(34)
  m <- random_rbm(6, 3, sd = 1)
  V <- as.matrix(expand.grid(rep(list(0:1), 6)))
  lp <- -free_energy(m, V)
  p <- colSums(exp(lp - max(lp)) * V) / sum(exp(lp - max(lp)))
  b <- logz_base(m, "model", n_chains = 200, sweeps = 400, smooth = 0)
  expect_lt(max(abs(b$marginals - p)), 0.03)
})

test_that("AIS from the auto base stays unbiased for Z (mean of Z_hat / Z is 1)", {
  set.seed(37)
  m <- random_rbm(8, 5, sd = 0.8)
  truth <- exact_log_z(m)
  # a fresh pilot (and so a fresh base) in every run
  est <- vapply(1:40, function(i)
    ais(m, schedule_linear(30), n_chains = 10, progress = FALSE)$log_z, numeric(1))
  ratio <- exp(est - truth)
  expect_lt(abs(mean(ratio) - 1), 4 * sd(ratio) / sqrt(length(ratio)))
  # and the exact moment-matched base does at least as well as the uniform one here
  fu <- ais(m, schedule_linear(30), n_chains = 400, base = "uniform", progress = FALSE)
  fm <- ais(m, schedule_linear(30), n_chains = 400, base = "model",
            progress = FALSE)
  expect_gt(fm$ess, fu$ess)
})

test_that("estimators record the base; results reproduce from their seed", {
  set.seed(35)
  m <- random_rbm(10, 4, sd = 0.5)
  fit <- ais(m, schedule_linear(100), n_chains = 20, progress = FALSE)
  expect_true(fit$base$type %in% c("model", "visible", "mode"))
  assign(".Random.seed", fit$seed, envir = globalenv())
  again <- ais(m, schedule_linear(100), n_chains = 20, progress = FALSE)
  expect_identical(again$log_weights, fit$log_weights)
  expect_output(print(fit), "base: (model|visible|mode)")
  # the same base object reused
  b <- logz_base(m)
  expect_identical(ais(m, schedule_linear(10), n_chains = 5, base = b,
                       progress = FALSE)$base, list(type = b$type, how = b$how))
  expect_identical(ais(m, schedule_linear(10), n_chains = 5, base = "uniform",
                       progress = FALSE)$base$type, "uniform")
  expect_identical(ais(m, schedule_linear(10), n_chains = 5, base = rep(0.1, 10),
                       progress = FALSE)$base$type, "given")
  r <- raise(m, matrix(rbinom(30, 1, 0.5), 3), schedule_linear(10), n_chains = 2,
             progress = FALSE)
  expect_true(r$base$type %in% c("model", "visible", "mode"))
  a <- arm(m, particles = 50, progress = FALSE)
  expect_true(a$base$type %in% c("model", "visible", "mode"))
  expect_identical(ais(m, schedule_linear(10), n_chains = 5, base = "model",
                       progress = FALSE)$base$type, "model")
  expect_null(arm(m, particles = 50, order = 10:1, progress = FALSE)$base)
  # a trained model keeps its data base rates
  tr <- mnist_rbm20()$model
  # (10 steps are far too few: the mode checks flag the run)
  expect_identical(suppressWarnings(ais(tr, schedule_linear(10), n_chains = 5,
                                        progress = FALSE))$base$type, "data")
  # Ising: the field base by default, the model base on request
  g <- ising_grid(3, 3, coupling = 0.3, field = 0.1)
  expect_identical(ais(g, schedule_linear(10), n_chains = 5, progress = FALSE)$base$type, "field")
  expect_identical(ais(g, schedule_linear(10), n_chains = 5, base = "model",
                       progress = FALSE)$base$type, "model")
  expect_identical(suppressWarnings(rts(g, K = 5, n_chains = 5, sweeps = 20, init_iter = 0,
                                        progress = FALSE))$base$type, "field")
})

test_that("a model base of an Ising model matches its exact marginals", {
  set.seed(36)
  g <- ising_grid(4, 4, coupling = 0.2, field = 0.3)
  ex <- exact_marginals(g)$node   # P(x_i = +1)
  b <- logz_base(g, type = "model", n_chains = 200, sweeps = 400, smooth = 0)
  expect_lt(max(abs(b$marginals - ex)), 0.03)
})

test_that("bad bases give clear errors", {
  m <- random_rbm(4, 2)
  expect_error(logz_base(m, type = "data"), "base_rate")
  expect_error(logz_base(m, type = "field"), "Ising")
  expect_error(logz_base(ising_grid(2, 2), type = "visible"), "RBMs only")
  expect_error(logz_base(m, pilot_chains = 1), "`pilot_chains`")
  expect_error(logz_base(m, pilot_steps = 0), "`pilot_steps`")
  expect_error(logz_base(list()), "`model` must be an rbm or an ising model")
  expect_error(logz_base(m, type = "nope"), "`type` must be one of")
  expect_error(logz_base(m, n_chains = 0), "`n_chains`")
  expect_error(logz_base(m, smooth = -1), "`smooth`")
  expect_error(ais(m, schedule_linear(10), base = "nope"), "`base` must be NULL")
  expect_error(ais(m, schedule_linear(10), base = logz_base(random_rbm(5, 2))),
               "base over 5 units")
  expect_error(ais(m, schedule_linear(10), base = list()), "`base` must be NULL")
})

# The mode search of the RBM bases (in R/base.R): log f(h), the ascent, the bound.

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

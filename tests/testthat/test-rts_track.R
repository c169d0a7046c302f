# Tracking log Z during RBM training with RTS (rbm_train(track_log_z = TRUE)).

test_that("rbm_train(track_log_z = TRUE) tracks log Z and the log-likelihoods", {
  set.seed(3)
  train <- mnist$x[1:1500, ]
  valid <- mnist$x[9001:9500, ]
  m <- suppressWarnings(rbm_train(train, n_hidden = 12, method = "pcd", epochs = 4,
                                  track_log_z = TRUE, validation = valid, progress = FALSE,
                                  track = list(K = 40, n_chains = 40, every = "epoch",
                                               sweeps = 150)),
                        classes = "logz_unreliable")
  h <- m$history
  expect_true(all(c("log_z", "train_ll", "valid_ll", "track_time", "visit_ratio") %in% names(h)))
  expect_equal(nrow(h), 4L)
  expect_equal(m$log_z_track$update, 15L * (1:4))
  ex <- exact_log_z(m)
  expect_lt(abs(h$log_z[4] - ex), 0.3)
  expect_equal(h$train_ll[4], mean(-free_energy(m, train)) - h$log_z[4])
  expect_equal(h$valid_ll[4], mean(-free_energy(m, valid)) - h$log_z[4])
  pdf(NULL)
  on.exit(dev.off())
  expect_identical(plot(m), m)
  expect_identical(plot(m, type = "log_z"), m)
  # without tracking the history is unchanged
  m0 <- rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, progress = FALSE)
  expect_null(m0$history$log_z)
  expect_null(m0$log_z_track)
  expect_error(plot(m0, type = "log_z"), "track_log_z")
  expect_error(rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, track_log_z = TRUE,
                         track = list(alpha = 0), progress = FALSE), "track\\$alpha")
  expect_error(rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, track_log_z = TRUE,
                         track = list(foo = 1), progress = FALSE), "`track`")
  expect_error(rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, track_log_z = TRUE,
                         track = list(every = "batch"), progress = FALSE), "track\\$every")
  expect_error(rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, track_log_z = TRUE,
                         track = list(check_every = -1), progress = FALSE), "track\\$check_every")
  expect_error(rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, track_log_z = TRUE,
                         validation = matrix(0, 2, 3), progress = FALSE), "`validation`")
  expect_error(rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, track_log_z = NA,
                         progress = FALSE), "`track_log_z`")
})

test_that("the default tracks log Z after every update, close to the exact value", {
  x <- mnist$x[1:300, ]
  run <- function(track = list(K = 30, n_chains = 50, check_every = 1)) {
    set.seed(5)
    suppressWarnings(rbm_train(x, n_hidden = 8, method = "pcd", epochs = 3, batch_size = 50,
                               track_log_z = TRUE, track = track, progress = FALSE),
                     classes = "logz_unreliable")
  }
  m <- run()
  h <- m$history
  # one tracked value per parameter update: 3 epochs of 6 mini-batches
  expect_equal(nrow(m$log_z_track), 18L)
  expect_equal(m$log_z_track$update, 1:18)
  expect_equal(m$log_z_track$epoch, rep(1:3, each = 6))
  expect_equal(h$log_z, m$log_z_track$log_z[c(6, 12, 18)])
  expect_true(all(h$check_method == "exact"))
  expect_equal(h$check_log_z[3], exact_log_z(m)$log_z)
  # at the end, where the decaying rate has slowed the parameters, the tracked
  # value is within a few tenths of a nat of the exact one
  expect_lt(abs(h$log_z[3] - h$check_log_z[3]), 0.4)
  # with alpha = 1 there is no smoothing lag: every epoch within 0.15 nats
  m1 <- run(list(K = 30, n_chains = 50, alpha = 1))
  expect_true(all(abs(m1$history$log_z - h$check_log_z) < 0.15))
  # the training is the same as in one call per epoch (the tracker draws only
  # from its own streams), and the run reproduces under set.seed()
  me <- run(list(K = 30, n_chains = 50, every = "epoch"))
  expect_identical(me$W, m$W)
  expect_identical(run()$log_z_track, m$log_z_track)
  expect_output(print(m), "tracked by RTS at 18 steps")
})

test_that("track$predict moves the ladder by the importance-weighted change of log Z", {
  x <- mnist$x[1:300, ]
  set.seed(6)
  m <- suppressWarnings(rbm_train(x, n_hidden = 8, method = "pcd", epochs = 3, batch_size = 50,
                                  track_log_z = TRUE, progress = FALSE,
                                  track = list(K = 30, n_chains = 50, predict = TRUE,
                                               check_every = 3)),
                        classes = "logz_unreliable")
  h <- m$history
  expect_lt(abs(h$log_z[3] - h$check_log_z[3]), 0.4)
  # the predicted change is 0 for unchanged parameters, and for a shift of the
  # visible biases by a constant s it is log E_k[exp(beta_k s sum(v))]: with
  # the chains' states weighted by q(k | x)
  set.seed(1)
  p <- list(W = m$W, a = m$a, b = m$b)
  a0 <- m$base_rate
  tr <- logz:::rts_tracker_start(p, a0, logz:::rts_track_control(list(K = 10, n_chains = 20,
                                                                      predict = TRUE)))
  tr <- logz:::rts_tracker_step(tr, p)
  expect_equal(logz:::rts_tracker_predict(tr, p), rep(0, 10))
  p2 <- p
  p2$a <- p$a + 0.01
  d <- logz:::rts_tracker_predict(tr, p2)
  expect_equal(d[1], 0)
  L <- t(tr$lk) + rep(tr$log_r - tr$zeta, each = 20)
  Q <- exp(L - apply(L, 1L, max))
  Q <- Q / rowSums(Q)
  s <- colSums(tr$state$X)
  expect_equal(d, log(colSums(Q * exp(outer(s, tr$betas) * 0.01)) / colSums(Q)))
  # at a subset of the rungs (the first and last included) the same values there, and linear
  # interpolation in beta between them
  r <- c(1, 4, 7, 10)
  expect_equal(logz:::rts_tracker_predict(tr, p2, r), approx(tr$betas[r], d[r], tr$betas)$y)
  expect_identical(logz:::rts_track_predict_at(100), as.integer(round(seq(1, 100, length.out = 11))))
  expect_identical(logz:::rts_track_predict_at(5), 1:5)
  # a rung no chain's q(k | x) reaches is interpolated over; without the top rung, no change
  tr2 <- tr
  tr2$lk[4, ] <- -1e6
  d2 <- logz:::rts_tracker_predict(tr2, p2, r)
  expect_true(all(is.finite(d2)))
  expect_equal(d2, approx(tr$betas[c(1, 7, 10)], d2[c(1, 7, 10)], tr$betas)$y)
  tr2$lk[10, ] <- -1e6
  expect_equal(logz:::rts_tracker_predict(tr2, p2), rep(0, 10))
  expect_error(rbm_train(x[1:100, ], n_hidden = 4, epochs = 1, track_log_z = TRUE,
                         track = list(predict = NA), progress = FALSE), "track\\$predict")
})

test_that("the tracked log Z has an se that covers exact log Z, and flags when it lags", {
  x <- mnist$x[1:300, ]
  run <- function(seed, ...) {
    set.seed(seed)
    rbm_train(x, n_hidden = 8, method = "pcd", batch_size = 50, track_log_z = TRUE,
              progress = FALSE, ...)
  }
  # good tracking: a full update per step (alpha = 1); no lag or visit flag
  # (log Z moves by more than 3 se per update, so the innovations flag is
  # expected), and the se covers the exact log Z at every epoch of every seed
  z <- unlist(lapply(1:3, function(s) {
    m <- suppressWarnings(run(s, epochs = 3, track = list(K = 30, n_chains = 50, alpha = 1,
                                                          check_every = 1)),
                          classes = "logz_unreliable")
    expect_false(any(grepl("^tracking (lag|visit)", m$track_flags)))
    expect_true(all(m$log_z_track$lag_z == 0))
    h <- m$history
    expect_equal(h$log_z_se, m$log_z_track$se[c(6, 12, 18)])
    (h$log_z - h$check_log_z) / h$log_z_se
  }))
  expect_true(all(abs(z) <= 3))
  # the paper's constant alpha = 0.2 (gain "fixed", no extra steps) lags while
  # the parameters move: its se includes the lag (it still covers), and the lag
  # z says so
  m <- suppressWarnings(run(1, epochs = 3, track = list(K = 30, n_chains = 50, check_every = 1,
                                                        gain = "fixed", extra_steps = 0)),
                        classes = "logz_unreliable")
  h <- m$history
  expect_true(all(abs(h$log_z - h$check_log_z) <= 3 * h$log_z_se))
  expect_gt(abs(h$lag_z[1]), 3)
  expect_match(m$track_flags, "^tracking lag: ", all = FALSE)
  # the default (adaptive) gain follows the same moves without the lag
  m <- suppressWarnings(run(1, epochs = 3, track = list(K = 30, n_chains = 50, check_every = 1)),
                        classes = "logz_unreliable")
  expect_false(any(grepl("^tracking lag", m$track_flags)))
  expect_true(all(abs(m$log_z_track$lag_z) <= 3))
  h1 <- m$history
  expect_true(all(abs(h1$log_z - h1$check_log_z) <= 3 * h1$log_z_se))
  # poor tracking: a high rate moves log Z by nats per update; with the
  # constant gain and no extra steps both flags fire and are warned
  expect_warning(m <- run(1, epochs = 2, learning_rate = 0.5,
                          track = list(K = 30, n_chains = 50, check_every = 1, gain = "fixed",
                                       extra_steps = 0)),
                 "tracked by RTS may be unreliable", class = "logz_unreliable")
  expect_match(m$track_flags, "^tracking visit deficit: .* \\(first: 1\\)", all = FALSE)
  expect_match(m$track_flags, "^tracking lag: .*at 2 epoch", all = FALSE)
  expect_gt(abs(m$history$log_z[1] - m$history$check_log_z[1]), 1)
  expect_output(print(m), "unreliable: tracking visit deficit")
  # the flags read the history
  f <- suppressWarnings(logz:::rts_track_flags(data.frame(epoch = 1:3, lag_z = c(-3.1, 2.9, 0),
                                                          visit_ratio = c(0.5, 0.09, 0.5))),
                        classes = "logz_unreliable")
  expect_match(f, "visit deficit: .*at 1 epoch\\(s\\) \\(first: 2\\)", all = FALSE)
  expect_match(f, "lag: .*at 1 epoch\\(s\\) \\(first: 1\\)", all = FALSE)
  expect_length(logz:::rts_track_flags(data.frame(epoch = 1, visit_ratio = 0.1, lag_z = 3)), 0L)
})

test_that("the adaptive gain follows a moving log Z and keeps alpha once it settles", {
  # full-batch updates: one update per epoch, so check_every = 1 gives the exact
  # log Z (enumeration of 2^8 hidden states) after every update
  x <- mnist$x[1:200, ]
  # the gains alone (no extra steps), and the default (adaptive gain with extra steps)
  run <- function(gain, ..., extra_steps = 0) {
    set.seed(1)
    suppressWarnings(rbm_train(x, n_hidden = 8, method = "pcd", batch_size = 200,
                               track_log_z = TRUE, progress = FALSE,
                               track = list(K = 30, n_chains = 50, check_every = 1, gain = gain,
                                            extra_steps = extra_steps),
                               ...), classes = "logz_unreliable")
  }
  err <- function(m) m$history$log_z - m$history$check_log_z
  # while training moves log Z by tenths of a nat per update, the constant
  # alpha = 0.2 trails it by more than a nat; the adaptive gain stays within
  # the steps' noise
  ea <- err(run("adaptive", epochs = 12))
  ef <- err(run("fixed", epochs = 12))
  expect_true(all(abs(ea) < 0.15))
  expect_gt(sqrt(mean(ef^2)), 0.8)
  # once the parameters barely move the innovations are noise and the gain is
  # alpha: the spread of the constant gain (a gain that followed the noise
  # would spread 2-3 times as far)
  set.seed(2)
  m0 <- rbm_train(x, n_hidden = 8, method = "pcd", epochs = 12, batch_size = 200, progress = FALSE)
  ex <- exact_log_z(m0)$log_z
  steady <- function(gain, extra_steps = 0) {
    m <- run(gain, epochs = 40, init = m0, learning_rate = 1e-6, lr_schedule = "constant",
             extra_steps = extra_steps)
    # settled: the innovations are noise (mean z^2 near 1), no flag
    expect_lt(mean(m$log_z_track$innov_z2[21:40]), 2)
    expect_length(m$track_flags, 0L)
    sqrt(mean((m$history$log_z[-(1:10)] - ex)^2))
  }
  sf <- steady("fixed")
  expect_lt(steady("adaptive"), 1.25 * sf)
  # the default's extra steps, which follow innovations beyond 3 se, add little there
  expect_lt(steady("adaptive", 3), 1.5 * sf)
  expect_error(rbm_train(x[1:100, ], n_hidden = 4, epochs = 1, track_log_z = TRUE,
                         track = list(gain = "kalman"), progress = FALSE), "track\\$gain")
})

test_that("the tracked se covers exact log Z after every update, or the innovations flag says why", {
  # mini-batch training at a high rate: 60 updates of a 784 x 8 RBM, exact log
  # Z (2^8 hidden states) after each. The chains trail log Z and each step's
  # own estimate is off by more than its Eq. 16 se; the se with the lag term of
  # the recent innovations covers the error, and the innovations flag fires
  set.seed(1)
  n <- 1000
  B <- 50
  x <- mnist$x[1:n, ]
  data_t <- t(x)
  a0 <- logz:::base_rate_bias(x)
  params <- list(W = matrix(rnorm(784 * 8, sd = 0.01), 784, 8), a = a0, b = numeric(8))
  state <- list(dW = matrix(0, 784, 8), da = numeric(784), db = numeric(8),
                P = data_t[, sample.int(n, 50)])
  tr <- logz:::rts_tracker_start(params, a0, logz:::rts_track_control(list(K = 30, n_chains = 50)))
  ctl <- list(perm = 0:(B - 1), pcd = 1L, k = 1L, batch_size = B, n_chains = 50L,
              learning_rate = 0.1, lr_step = 0, momentum = 0.5, weight_decay = 2e-4)
  out <- NULL
  for (ep in 1:3) {
    perm <- sample.int(n) - 1L
    for (i in seq_len(n %/% B)) {
      res <- logz:::rbm_train_epoch(data_t[, perm[(i - 1) * B + 1:B] + 1L, drop = FALSE],
                                    params, state, ctl)
      params <- res[c("W", "a", "b")]
      state <- res[c("dW", "da", "db", "P")]
      tr <- logz:::rts_tracker_update(tr, params)
      ex <- exact_log_z(rbm(params$W, params$a, params$b), progress = FALSE)$log_z
      out <- rbind(out, cbind(logz:::rts_tracker_point(tr), exact = ex))
    }
  }
  err <- out[, "log_z"] - out[, "exact"]
  expect_gt(sqrt(mean(err^2)), 1)                     # the chains do lag here
  covered <- abs(err) <= 2 * out[, "se"]
  flagged <- out[, "innov_z2"] > logz:::rts_track_innov_max
  expect_gte(mean(covered), 0.9)                      # the se without the lag term: 0.85
  expect_true(all(covered | flagged))
  expect_lt(median(out[, "se"]), 5 * sqrt(mean(err^2)))   # honest, not arbitrarily wide
  # the innovations flag of rbm_train() reads history$innov_z2 (the epoch's
  # largest windowed mean z^2)
  f <- suppressWarnings(logz:::rts_track_flags(data.frame(epoch = 1:3, lag_z = 0, visit_ratio = 1,
                                                          innov_z2 = c(2, 9.5, 30))),
                        classes = "logz_unreliable")
  expect_match(f, "^tracking innovations: .*> 9 at 2 epoch\\(s\\) \\(first: 2, 3\\)")
  expect_length(logz:::rts_track_flags(data.frame(epoch = 1, lag_z = 0, visit_ratio = 1,
                                                  innov_z2 = 9)), 0L)
})

test_that("extra steps (the default) and track$predict cut the tracking error where log Z moves fast", {
  # 35 updates of a 784 x 6 PCD RBM at a high rate (exact log Z moves by more than a nat per
  # update); the tracked value after each against the exact log Z of the update's parameters
  x <- mnist$x[1:600, ]
  set.seed(3)
  data_t <- t(x)
  a0 <- logz:::base_rate_bias(x)
  params <- list(W = matrix(rnorm(784 * 6, sd = 0.01), 784, 6), a = a0, b = numeric(6))
  state <- list(dW = matrix(0, 784, 6), da = numeric(784), db = numeric(6), P = data_t[, 1:50])
  ctl <- list(perm = 0:49, pcd = 1L, k = 1L, batch_size = 50L, n_chains = 50L, learning_rate = 0.1,
              lr_step = 0, momentum = 0.5, weight_decay = 0)
  ps <- list()
  for (i in 1:36) {
    res <- logz:::rbm_train_epoch(data_t[, ((i - 1) %% 12) * 50 + 1:50, drop = FALSE], params,
                                  state, ctl)
    params <- res[c("W", "a", "b")]
    state <- res[c("dW", "da", "db", "P")]
    ps[[i]] <- params
  }
  ex <- vapply(ps, function(p) exact_log_z(rbm(p$W, p$a, p$b), progress = FALSE)$log_z, 0)
  rmse <- function(track) {
    set.seed(4)
    tr <- logz:::rts_tracker_start(ps[[1]], a0, logz:::rts_track_control(
      c(list(K = 30, n_chains = 50), track)))
    err <- vapply(2:36, function(i) {
      tr <<- logz:::rts_tracker_update(tr, ps[[i]])
      logz:::rts_tracker_log_z(tr) - ex[i]
    }, 0)
    list(rmse = sqrt(mean(err^2)), extra = tr$extra)
  }
  def <- rmse(list(extra_steps = 0))
  ext <- rmse(list())                 # the default: up to 3 extra steps
  pre <- rmse(list(predict = TRUE, extra_steps = 0))
  expect_gt(def$rmse, 0.45)           # the adaptive gain alone trails the moving log Z
  expect_lt(ext$rmse, 0.6 * def$rmse)
  expect_lt(pre$rmse, 0.4 * def$rmse)
  expect_equal(def$extra, 0L)
  expect_gt(ext$extra, 0L)
  expect_lte(ext$extra, 3L * 35L)
  expect_identical(logz:::rts_track_control(list())$extra_steps, 3L)
  expect_identical(logz:::rts_track_control(list(every = "epoch"))$extra_steps, 0L)
  for (bad in list(-1, 1.5, "2", NA, 101))
    expect_error(rbm_train(x[1:100, ], n_hidden = 4, epochs = 1, track_log_z = TRUE,
                           track = list(extra_steps = bad), progress = FALSE),
                 "track\\$extra_steps")
})

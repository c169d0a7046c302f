# Tracking log Z during RBM training with RTS (rbm_train(track_log_z = TRUE)).

test_that("rbm_train(track_log_z = TRUE) tracks log Z and the log-likelihoods", {
  set.seed(3)
  train <- mnist$x[1:1500, ]
  valid <- mnist$x[9001:9500, ]
  m <- rbm_train(train, n_hidden = 12, method = "pcd", epochs = 4, track_log_z = TRUE,
                 validation = valid, track = list(K = 40, n_chains = 40, sweeps = 150),
                 progress = FALSE)
  h <- m$history
  expect_true(all(c("log_z", "train_ll", "valid_ll") %in% names(h)))
  expect_equal(nrow(h), 4L)
  ex <- exact_log_z(m)
  expect_lt(abs(h$log_z[4] - ex), 0.3)
  expect_equal(h$train_ll[4], mean(-free_energy(m, train)) - h$log_z[4])
  expect_equal(h$valid_ll[4], mean(-free_energy(m, valid)) - h$log_z[4])
  pdf(NULL)
  on.exit(dev.off())
  expect_identical(plot(m), m)
  # without tracking the history is unchanged
  m0 <- rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, progress = FALSE)
  expect_null(m0$history$log_z)
  expect_error(rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, track_log_z = TRUE,
                         track = list(alpha = 0), progress = FALSE), "track\\$alpha")
  expect_error(rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, track_log_z = TRUE,
                         track = list(foo = 1), progress = FALSE), "`track`")
  expect_error(rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, track_log_z = TRUE,
                         validation = matrix(0, 2, 3), progress = FALSE), "`validation`")
  expect_error(rbm_train(train[1:200, ], n_hidden = 4, epochs = 1, track_log_z = NA,
                         progress = FALSE), "`track_log_z`")
})

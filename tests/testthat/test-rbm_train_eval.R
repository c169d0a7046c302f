# The held-out log-likelihood check of rbm_train() (R/rbm_train_eval.R).

test_that("the held-out check equals the exact log-likelihood at the checked epochs", {
  x <- mnist$x[1:600, ]
  v <- mnist$x[9001:9300, ]
  m <- rbm_train(x, 6, method = "pcd", epochs = 5, eval_every = 2, validation = v, seed = 5,
                 progress = FALSE)
  h <- m$history
  expect_equal(which(!is.na(h$valid_ll)), c(2L, 4L, 5L))   # every 2 epochs and the last
  expect_equal(h$log_z_method[5], "exact")
  # independent enumeration of the 2^6 hidden states in R
  hs <- as.matrix(expand.grid(rep(list(0:1), 6)))
  lf <- drop(hs %*% m$b) + apply(hs, 1, function(h) sum(log1p(exp(m$a + m$W %*% h))))
  expect_equal(h$log_z[5], max(lf) + log(sum(exp(lf - max(lf)))))
  expect_equal(h$valid_ll[5], log_likelihood(m, v))
  expect_equal(h$train_ll[5], log_likelihood(m, x))
  expect_equal(h$log_z_se[5], 0)
  # plot() draws the checked epochs only
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_identical(plot(m), m)
  # without validation: no check columns
  m0 <- rbm_train(x, 6, epochs = 1, seed = 5, progress = FALSE)
  expect_null(m0$history$valid_ll)
})

test_that("the held-out check uses AIS above 20 hidden units", {
  x <- mnist$x[1:200, 400:409]   # 10 visible units: exact log Z by the visible layer
  v <- mnist$x[9001:9100, 400:409]
  m <- rbm_train(x, 21, epochs = 1, validation = v, seed = 6, progress = FALSE)
  h <- m$history
  expect_match(h$log_z_method, "^ais")
  ex <- exact_log_z(m, layer = "visible")
  expect_lt(abs(h$log_z - ex), 0.05 + 5 * h$log_z_se)
  expect_equal(h$valid_ll, mean(-free_energy(m, v)) - h$log_z)
})

test_that("a falling held-out log-likelihood with rising train log-likelihood warns", {
  warn <- logz:::rbm_eval_warn
  h <- data.frame(epoch = 1:3, log_z_se = 0, train_ll = c(-160, -150, -145),
                  valid_ll = c(-161, -152, -158))
  expect_warning(warn(h), "fell from -152.00 \\(epoch 2\\) to -158.00 \\(epoch 3\\)")
  h$valid_ll[3] <- -152.5   # within 1 nat: no warning
  expect_silent(warn(h))
  h$valid_ll[3] <- -158
  h$train_ll[3] <- -151     # train fell too: not over-sharpening
  expect_silent(warn(h))
  h$train_ll[3] <- -145
  h$log_z_se[3] <- 3        # an AIS log Z too noisy to tell
  expect_silent(warn(h))
})

# The training recipe of rbm_train(): learning-rate schedule, persistent chain
# count, held-out log-likelihood check (R/rbm_train.R, R/rbm_train_eval.R).

# A saturated RBM whose Gibbs moves are deterministic (all probabilities are
# exactly 0 or 1 in double precision), so every CD-1 gradient is the same
# constant while the weights stay saturated: W[1, 1] changes by
# G * (sum of the learning rates used).
saturated <- function() {
  rbm(W = matrix(c(50, 0), 2, 1), a = c(-100, 50), b = -25)
}

test_that("the linear schedule decays the rate from learning_rate to 0 (Tieleman 2008)", {
  x <- matrix(c(1, 0), 40, 2, byrow = TRUE)   # every row (1, 0)
  m0 <- saturated()
  T <- 4L   # full-batch updates, one per epoch
  fit <- function(sch) rbm_train(x, 1, epochs = T, batch_size = 40, learning_rate = 0.1,
                                 lr_schedule = sch, momentum = 0, weight_decay = 0, init = m0,
                                 seed = 1, progress = FALSE)
  lin <- fit("linear")
  con <- fit("constant")
  # v0 = (1, 0) -> h0 = 1 -> v1 = (0, 1) -> P(h1) = 0: dlog L / dW[1, 1] = 1
  expect_equal(con$W[1, 1] - 50, 0.1 * T)
  # linear: rates 0.1 * (1 - t / T), t = 0..T-1, sum 0.1 * (T + 1) / 2
  expect_equal(lin$W[1, 1] - 50, 0.1 * (T + 1) / 2)
  expect_equal(lin$history$learning_rate, 0.1 * (1 - (seq_len(T) - 1) / T))
  expect_equal(con$history$learning_rate, rep(0.1, T))
  # within an epoch the rate falls per update: 2 epochs of 2 updates
  lin2 <- rbm_train(x, 1, epochs = 2, batch_size = 20, learning_rate = 0.1, momentum = 0,
                    weight_decay = 0, init = m0, seed = 1, progress = FALSE)
  expect_equal(lin2$W[1, 1] - 50, 0.1 * (1 + 0.75 + 0.5 + 0.25))
  expect_equal(lin2$history$learning_rate, c(0.1, 0.05))
})

test_that("PCD keeps n_chains persistent chains (default: the batch size)", {
  x <- mnist$x[1:300, ]
  m <- rbm_train(x, 4, method = "pcd", epochs = 1, batch_size = 30, seed = 2, progress = FALSE)
  expect_equal(dim(m$chains), c(30L, 784L))
  expect_true(all(m$chains %in% c(0, 1)))
  m7 <- rbm_train(x, 4, method = "pcd", epochs = 1, batch_size = 30, n_chains = 7, seed = 2,
                  progress = FALSE)
  expect_equal(dim(m7$chains), c(7L, 784L))
  expect_null(rbm_train(x, 4, epochs = 1, batch_size = 30, seed = 2, progress = FALSE)$chains)
  # the negative statistics average over the chains: on the saturated model all
  # chains are the same deterministic state, so the update does not depend on
  # their number
  xs <- matrix(c(1, 0), 40, 2, byrow = TRUE)
  p <- function(nc) rbm_train(xs, 1, method = "pcd", epochs = 2, batch_size = 40, n_chains = nc,
                              momentum = 0, weight_decay = 0, init = saturated(), seed = 1,
                              progress = FALSE)
  expect_equal(p(3)$W, p(40)$W)
  expect_equal(p(3)$W[1, 1] - 50, 0.1 * 0 + 0.05 * (1 + 0.5))
  # a continued run starts from the chains of `init`
  m2 <- rbm_train(x, 4, method = "pcd", epochs = 0, batch_size = 30, init = m, seed = 3,
                  progress = FALSE)
  expect_identical(m2$chains, m$chains)
})

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

test_that("rbm_train() rejects bad recipe arguments, naming them", {
  x <- mnist$x[1:200, ]
  expect_error(rbm_train(x, 5, method = "pcd", n_chains = 0), "`n_chains` must be a whole number")
  expect_error(rbm_train(x, 5, method = "cd", n_chains = 7), "`n_chains` \\(7\\) must equal `batch_size`")
  expect_error(rbm_train(x, 5, lr_schedule = "cosine"), "`lr_schedule`")
  expect_error(rbm_train(x, 5, validation = x, eval_every = 0), "`eval_every` must be a whole number")
  expect_error(rbm_train(x, 5, validation = x[, 1:10]), "`validation`")
})

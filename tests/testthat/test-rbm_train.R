test_that("CD and PCD training improve the exact likelihood over the base rate", {
  x <- mnist$x[1:3000, ]
  test <- mnist$x[9001:10000, ]
  base <- rbm_base_rate(x)
  ll_base <- log_likelihood(base, test)
  for (method in c("cd", "pcd")) {
    m <- rbm_train(x, n_hidden = 12, method = method, epochs = 4, seed = 11, progress = FALSE)
    ll <- log_likelihood(m, test)   # exact log Z by enumeration
    expect_gt(ll, ll_base + 15)   # measured: about +29 nats per digit
    h <- m$history
    expect_equal(nrow(h), 4L)
    expect_lt(h$reconstruction_error[4], h$reconstruction_error[1])
    expect_equal(m$base_rate, base$a)
  }
})

test_that("training is reproducible under set.seed() and with `seed`", {
  x <- mnist$x[1:400, ]
  set.seed(9)
  a <- rbm_train(x, 5, epochs = 2, progress = FALSE)
  set.seed(9)
  b <- rbm_train(x, 5, epochs = 2, progress = FALSE)
  expect_identical(a$W, b$W)
  expect_identical(a$b, b$b)
  set.seed(100)
  before <- runif(1)
  set.seed(100)
  c1 <- rbm_train(x, 5, epochs = 2, k = 3, method = "pcd", seed = 4, progress = FALSE)
  expect_identical(runif(1), before)   # `seed` leaves the global RNG alone
  c2 <- rbm_train(x, 5, epochs = 2, k = 3, method = "pcd", seed = 4, progress = FALSE)
  expect_identical(c1$W, c2$W)
  expect_false(identical(c1$W, a$W))
  # continuing from a model
  d <- rbm_train(x, 5, epochs = 1, init = a, seed = 1, progress = FALSE)
  expect_false(identical(d$W, a$W))
})

test_that("rbm_train() rejects bad input with a message naming the argument", {
  x <- mnist$x[1:200, ]
  expect_error(rbm_train(x * 2, 5), "`data` must be binary")
  xna <- x; xna[1, 1] <- NA
  expect_error(rbm_train(xna, 5), "`data` must not contain NA")
  expect_error(rbm_train(x[0, ], 5), "`data` is empty")
  expect_error(rbm_train(x, 0), "`n_hidden` must be a whole number")
  expect_error(rbm_train(x, 2.5), "`n_hidden` must be a whole number")
  expect_error(rbm_train(x, 5, k = 0), "`k` must be a whole number")
  expect_error(rbm_train(x, 5, learning_rate = -1), "`learning_rate` must be a finite number")
  expect_error(rbm_train(x, 5, learning_rate = NaN), "`learning_rate` must be a finite number")
  expect_error(rbm_train(x, 5, batch_size = 201), "`batch_size` must be a whole number between 1 and 200")
  expect_error(rbm_train(x, 5, momentum = 1), "`momentum` must be a finite number in \\[0, 1\\)")
  expect_error(rbm_train(x, 5, method = "xyz"), "`method`")
  expect_error(rbm_train(x, 5, init = rbm(matrix(0, 784, 4))), "`init` has 784 x 4 units")
  expect_error(rbm_train(x, 5, progress = NA), "`progress` must be TRUE or FALSE")
  expect_error(rbm_train(data.frame(a = letters[1:3]), 2), "only numeric or logical columns")
})

# The training recipe: learning-rate schedule, persistent chain count, bad arguments.
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

test_that("rbm_train() rejects bad recipe arguments, naming them", {
  x <- mnist$x[1:200, ]
  expect_error(rbm_train(x, 5, method = "pcd", n_chains = 0), "`n_chains` must be a whole number")
  expect_error(rbm_train(x, 5, method = "cd", n_chains = 7), "`n_chains` \\(7\\) must equal `batch_size`")
  expect_error(rbm_train(x, 5, lr_schedule = "cosine"), "`lr_schedule`")
  expect_error(rbm_train(x, 5, validation = x, eval_every = 0), "`eval_every` must be a whole number")
  expect_error(rbm_train(x, 5, validation = x[, 1:10]), "`validation`")
})

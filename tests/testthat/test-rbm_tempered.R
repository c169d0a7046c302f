# rbm_train(method = "tempered"): the negative phase from persistent simulated-
# tempering chains (src/rbm_tempered.c), log Z tracked from their c_hat_k, and
# the RMSspectral optimizer; checked against enumeration of 2^10 visible states.

tempered_model <- function() {
  set.seed(11)
  nv <- 10; nh <- 8
  list(W = matrix(rnorm(nv * nh, sd = 0.6), nv, nh), a = rnorm(nv, sd = 0.5),
       b = rnorm(nh, sd = 0.5), a0 = rnorm(nv, sd = 0.3))
}

# All 2^10 visible states (rows), log f_beta(v) for each beta (columns), and the
# exact beta = 1 expectations of v h', v and h.
tempered_exact <- function(p, betas) {
  nv <- length(p$a)
  V <- as.matrix(expand.grid(rep(list(0:1), nv)))
  Z <- sweep(V %*% p$W, 2, p$b, `+`)
  sp <- function(x) pmax(x, 0) + log1p(exp(-abs(x)))
  lf <- sapply(betas, function(bt) (1 - bt) * drop(V %*% p$a0) + bt * drop(V %*% p$a) +
                 rowSums(sp(bt * Z)))
  lse <- function(x) max(x) + log(sum(exp(x - max(x))))
  w <- exp(lf[, length(betas)] - lse(lf[, length(betas)]))
  H <- stats::plogis(Z)
  list(log_z = apply(lf, 2, lse), W = crossprod(V * w, H), a = colSums(V * w),
       b = colSums(H * w))
}

tempered_state <- function(p, M, K) {
  X <- matrix(as.double(runif(length(p$a) * M) < stats::plogis(p$a0)), length(p$a))
  list(X = X, k = sample.int(K, M, replace = TRUE) - 1L, streams = logz:::rng_streams(M))
}

tempered_control <- function(K, zeta, log_r, sweeps = 2L, threads = 1L)
  list(final = TRUE, threads = threads, sweeps = sweeps, thin = 0L, offset = 0L,
       step = 1 / (K - 1), moments = FALSE, lrz = log_r - zeta)

test_that("the tempered chains' Rao-Blackwellized negative phase matches exact expectations", {
  p <- tempered_model()
  K <- 12L
  betas <- seq(0, 1, length.out = K)
  ex <- tempered_exact(p, betas)
  log_r <- 2 * betas
  zeta <- ex$log_z - ex$log_z[1]
  set.seed(3)
  st <- tempered_state(p, 200L, K)
  acc <- list(W = 0, a = 0, b = 0)
  n <- 0
  for (i in 1:45) {
    res <- logz:::rbm_tempered_chunk(p, betas, st, tempered_control(K, zeta, log_r))
    st <- res$chains[c("X", "k", "streams")]
    if (i > 5) {
      acc <- list(W = acc$W + res$W_neg, a = acc$a + res$a_neg, b = acc$b + res$b_neg)
      n <- n + 1
    }
  }
  expect_lt(max(abs(acc$W / n - ex$W)), 0.02)
  expect_lt(max(abs(acc$a / n - ex$a)), 0.02)
  expect_lt(max(abs(acc$b / n - ex$b)), 0.02)
  # the same statistics are far from those of another model (the check can fail)
  q <- p
  q$W <- q$W * 0.8
  expect_gt(max(abs(acc$W / n - tempered_exact(q, betas)$W)), 0.05)
})

test_that("the Rao-Blackwellized c_hat_k are unbiased for q(beta_k) (Eq. 8, by enumeration)", {
  p <- tempered_model()
  K <- 8L
  betas <- seq(0, 1, length.out = K)
  ex <- tempered_exact(p, betas)
  log_r <- rep(0, K)
  zeta <- ex$log_z - ex$log_z[1] + c(0, 0.4, -0.3, 0.5, 0.2, -0.4, 0.6, -0.5)  # a ladder off by up to 0.6
  qk <- exp(log_r + ex$log_z - ex$log_z[1] - zeta)
  qk <- qk / sum(qk)
  set.seed(4)
  st <- tempered_state(p, 200L, K)
  s <- 0
  for (i in 1:25) {
    res <- logz:::rbm_tempered_chunk(p, betas, st, tempered_control(K, zeta, log_r, sweeps = 4L))
    st <- res$chains[c("X", "k", "streams")]
    if (i > 5) s <- s + rowSums(res$chains$acc[, "sum_q", ])
  }
  chat <- s / sum(s)
  expect_lt(max(abs(chat - qk)), 0.01)
  expect_gt(max(abs(qk - 1 / K)), 0.05)   # q(beta) is far from uniform here
  # and the weights of the gradient are q(K | v) of each chain: their mean is c_hat_K
  expect_true(all(res$wq >= 0 & res$wq <= 1))
})

test_that("the tracked log Z follows exact log Z during a short tempered training run", {
  x <- dna$x[dna$split == "train", 1:10][1:600, ]
  set.seed(5)
  m <- rbm_train(x, 8, method = "tempered", k = 5, n_chains = 200, epochs = 3,
                 learning_rate = 0.05, batch_size = 100, track_log_z = TRUE,
                 validation = dna$x[dna$split == "validation", 1:10][1:300, ],
                 track = list(K = 20, keep_every = 3), progress = FALSE)
  expect_identical(nrow(m$log_z_track), 18L)
  ex <- vapply(m$kept, function(k) exact_log_z(rbm(k$params$W, k$params$a, k$params$b)), 0)
  tr <- vapply(m$kept, `[[`, 0, "log_z")
  se <- vapply(m$kept, `[[`, 0, "se")
  expect_true(all(abs(tr - ex) < 4 * se + 0.05))
  expect_gt(diff(range(ex)), 0.1)   # log Z moved during the run
  # the tracked log-likelihoods are those of the exact log Z, shifted by the error
  k <- m$kept[[length(m$kept)]]
  mk <- rbm(k$params$W, k$params$a, k$params$b)
  row <- m$log_z_track[m$log_z_track$update == k$update, ]
  expect_equal(row$train_ll, mean(log_likelihood(mk, x, ex[length(ex)])) + ex[length(ex)] - tr[length(tr)],
               tolerance = 1e-8)
  expect_true(all(c("log_z", "log_z_se", "train_ll", "valid_ll", "visit_ratio") %in%
                    names(m$history)))
  expect_identical(m$method, "tempered-5")
})

test_that("an RMSspectral step matches a hand-computed example", {
  # lambda = 0.75 from zero state: v = g^2 / 4, d = |g| / 2; W's preconditioned
  # gradient 2 sqrt(2) [1 1; 1 -1] has singular values 4, 4 (||s||_1 = 8) and
  # U V' = [1 1; 1 -1] / sqrt(2), so W moves by 0.1 * 8 / sqrt(2) / sqrt(2) [1 1; 1 -1]
  g <- list(W = matrix(c(4, 4, 4, -4), 2), a = c(1, -2), b = c(0.5, 0.5))
  p <- list(W = matrix(0, 2, 2), a = c(0, 0), b = c(0, 0))
  zero <- list(W = matrix(0, 2, 2), a = c(0, 0), b = c(0, 0))
  res <- logz:::rmsspectral_step(p, g, zero, step = 0.1, lambda = 0.75, epsilon = 0)
  expect_equal(res$params$W, 0.4 * matrix(c(1, 1, 1, -1), 2), tolerance = 1e-12)
  # a: v = (0.25, 1), d = (0.5, 1), x = (sqrt(2), -2), ||x||_1 = 2 + sqrt(2)
  expect_equal(res$params$a, 0.1 * (2 + sqrt(2)) * c(sqrt(2), -1), tolerance = 1e-12)
  # b: v = 1 / 16, d = 1 / 4, x = (1, 1), ||x||_1 = 2
  expect_equal(res$params$b, 0.1 * 2 * c(1, 1) / sqrt(0.25), tolerance = 1e-12)
  expect_equal(res$state$a, c(0.25, 1))
  # the # operator against svd() on a random matrix: ||s||_1 U V'
  set.seed(1)
  X <- matrix(rnorm(12), 3)
  s <- svd(X)
  expect_equal(logz:::sharp_spectral(X), sum(s$d) * s$u %*% t(s$v), tolerance = 1e-12)
})

test_that("tempered training is reproducible under set.seed and identical for 1 and 2 threads", {
  x <- dna$x[1:300, 1:12]
  run <- function(threads) {
    set.seed(9)
    rbm_train(x, 6, method = "tempered", k = 3, n_chains = 20, epochs = 2, batch_size = 50,
              optimizer = "rmsspectral", learning_rate = 1e-3, track_log_z = TRUE,
              track = list(K = 10, init_iter = 2, init_sweeps = 5), threads = threads,
              progress = FALSE)
  }
  a <- run(1)
  b <- run(1)
  c2 <- run(2)
  expect_identical(a$W, b$W)
  expect_identical(a$W, c2$W)
  expect_identical(a$log_z_track, c2$log_z_track)
  expect_identical(a$chains, c2$chains)
  s1 <- rbm_train(x, 6, method = "tempered", k = 3, n_chains = 20, epochs = 1, batch_size = 50,
                  track = list(K = 10, init_iter = 1), seed = 3, progress = FALSE)
  s2 <- rbm_train(x, 6, method = "tempered", k = 3, n_chains = 20, epochs = 1, batch_size = 50,
                  track = list(K = 10, init_iter = 1), seed = 3, progress = FALSE)
  expect_identical(s1$W, s2$W)
  expect_null(s1$log_z_track)
})

test_that("RMSspectral trains CD and PCD models reproducibly", {
  x <- dna$x[1:300, 1:12]
  set.seed(2)
  a <- rbm_train(x, 6, method = "pcd", n_chains = 30, epochs = 2, optimizer = "rmsspectral",
                 learning_rate = 1e-3, progress = FALSE)
  set.seed(2)
  b <- rbm_train(x, 6, method = "pcd", n_chains = 30, epochs = 2, optimizer = "rmsspectral",
                 learning_rate = 1e-3, progress = FALSE)
  expect_identical(a$W, b$W)
  expect_identical(dim(a$chains), c(30L, 12L))
  expect_identical(a$method, "PCD-1 RMSspectral")
  set.seed(2)
  cd <- rbm_train(x, 6, method = "cd", epochs = 2, optimizer = "rmsspectral", learning_rate = 1e-3,
                  validation = dna$x[301:400, 1:12], progress = FALSE)
  expect_false(is.na(cd$history$valid_ll[2]))
  expect_false(identical(cd$W, a$W))
})

test_that("tempered training and RMSspectral reject bad arguments", {
  x <- dna$x[1:100, 1:8]
  expect_error(rbm_train(x, 4, method = "tempered", track = list(KK = 3), progress = FALSE),
               "`track` must be a named list")
  expect_error(rbm_train(x, 4, method = "tempered", track = list(alpha = 0), progress = FALSE),
               "track\\$alpha")
  expect_error(rbm_train(x, 4, method = "tempered", track = list(prior = "flat"), progress = FALSE),
               "track\\$prior")
  expect_error(rbm_train(x, 4, method = "tempered", track = list(K = 1), progress = FALSE),
               "track\\$K")
  expect_error(rbm_train(x, 4, optimizer = "rmsprop", epochs = 1, progress = FALSE), "optimizer")
  expect_error(rbm_train(x, 4, optimizer = "rmsspectral", rms_lambda = 1, epochs = 1, progress = FALSE),
               "rms_lambda")
  expect_error(rbm_train(x, 4, method = "tempered", threads = 0, progress = FALSE), "threads")
  expect_error(rbm_train(x, 4, method = "pcd", optimizer = "rmsspectral", track_log_z = TRUE,
                         progress = FALSE), "needs method = \"tempered\"")
  expect_error(rbm_train(x, 4, method = "tempred", progress = FALSE), "method")
  p <- tempered_model()
  st <- tempered_state(p, 4L, 3L)
  expect_error(logz:::rbm_tempered_chunk(p, c(0, 0.5, 1), st,
                                         modifyList(tempered_control(3L, numeric(3), numeric(3)),
                                                    list(thin = 1L))),
               "internal error")
})

# Shared fixtures for the tests.

# Brute-force log Z of a tiny RBM over all 2^(nv + nh) joint states.
brute_log_z_rbm <- function(m) {
  V <- as.matrix(expand.grid(rep(list(0:1), m$n_visible)))
  H <- as.matrix(expand.grid(rep(list(0:1), m$n_hidden)))
  E <- outer(drop(V %*% m$a), drop(H %*% m$b), `+`) + V %*% m$W %*% t(H)
  mx <- max(E)
  mx + log(sum(exp(E - mx)))
}

random_rbm <- function(nv, nh, sd = 1) {
  rbm(matrix(rnorm(nv * nh, sd = sd), nv, nh), rnorm(nv), rnorm(nh))
}

# A 784 x 20 RBM trained briefly on MNIST by PCD, and its exact log Z (cached
# for the whole test run).
mnist_rbm20 <- local({
  cache <- NULL
  function() {
    if (is.null(cache)) {
      # constant rate: the model the AIS/RTS/base tests were calibrated on (the
      # linear-decay default of rbm_train() trains a different one)
      model <- rbm_train(mnist$x[1:8000, ], n_hidden = 20, method = "pcd", epochs = 5,
                         lr_schedule = "constant", seed = 20, progress = FALSE)
      cache <<- list(model = model, log_z = exact_log_z(model, threads = 2))
    }
    cache
  }
})

# An RBM with the failure mode of the PCD model of
# bench/training/train_rbm20.R: hidden unit 1 switches on a sharp mode (all
# visible units on) holding e^gap times the mass of the broad mode where most
# units are off; annealing from a base near the broad mode rarely crosses to
# it. Exact log Z by enumeration.
two_mode_rbm <- function(c, gap, seed, nv = 50) {
  set.seed(seed)
  W <- cbind(rep(c, nv), matrix(rnorm(nv * 3, sd = 0.5), nv, 3))
  a <- rep(-1, nv)
  b1 <- -(nv * log1p(exp(a[1] + c)) - nv * log1p(exp(a[1])) - gap)
  rbm(W, a, b = c(b1, 0, 0, 0))
}

# A model saved by a bench script (bench/models/NAME.rds: model, log_z, ...),
# with `bare`, the same RBM rebuilt from its weights alone by rbm(W, a, b).
# Skips the test where bench/ is not at hand (an installed package's tests).
bench_rbm <- function(name) {
  f <- test_path("..", "..", "bench", "models", paste0(name, ".rds"))
  skip_if_not(file.exists(f), sprintf("bench/models/%s.rds not at hand (source tree only)", name))
  x <- readRDS(f)
  x$bare <- rbm(x$model$W, x$model$a, x$model$b)
  x
}

# The error message of `expr` under an elapsed-time limit (seconds), or
# "finished" (test-integration-interrupts*.R, test-mip_engine.R).
stops_on_time_limit <- function(expr, elapsed = 1) {
  setTimeLimit(elapsed = elapsed, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf), add = TRUE)
  tryCatch({
    force(expr)
    "finished"
  }, error = function(e) conditionMessage(e))
}

# A GP classifier on n points in 2-d whose labels follow x1 with noise, drawn
# under set.seed(seed) (test-arm.R, test-arm_fresh.R).
arm_gpc_model <- function(n, seed, lengthscale = 1.5, amplitude = 2) {
  set.seed(seed)
  d <- data.frame(x1 = rnorm(n), x2 = rnorm(n))
  d$y <- ifelse(d$x1 + 0.7 * rnorm(n) > 0, 1, -1)
  gpc(y ~ x1 + x2, d, lengthscale = lengthscale, amplitude = amplitude)
}

# Independent brute-force reference: all 2^n states in R.
brute_force <- function(m) {
  v <- m$values
  X <- as.matrix(expand.grid(rep(list(v), m$n)))
  e <- m$edges
  lf <- drop(X %*% m$field)
  for (k in seq_len(nrow(e))) lf <- lf + e$weight[k] * X[, e$from[k]] * X[, e$to[k]]
  lz <- log(sum(exp(lf - max(lf)))) + max(lf)
  p <- exp(lf - lz)
  hi <- X == v[2]
  list(log_z = lz, p = p, X = X, node = unname(colSums(p * hi)),
       p11 = vapply(seq_len(nrow(e)), function(k) sum(p * (hi[, e$from[k]] & hi[, e$to[k]])),
                    numeric(1)),
       mean_product = vapply(seq_len(nrow(e)), function(k) sum(p * X[, e$from[k]] * X[, e$to[k]]),
                             numeric(1)))
}

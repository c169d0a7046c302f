# ais() on an R function: AIS along the geometric path from a proposal base.

gauss_target <- function(mu, S) {
  Si <- solve(S)
  list(f = function(X) {
         X <- matrix(X, ncol = length(mu))
         D <- sweep(X, 2, mu)
         -0.5 * rowSums((D %*% Si) * D)
       },
       log_z = 0.5 * length(mu) * log(2 * pi) + 0.5 * as.numeric(determinant(S)$modulus))
}

test_that("1-D Gaussian: the estimate matches the closed-form normaliser", {
  f <- function(x) -(x - 1.5)^2 / (2 * 0.3^2)      # Z = sqrt(2 pi) 0.3
  set.seed(11)
  fit <- ais(f, proposal_normal(0, 3), schedule_geometric(100), n_chains = 200)
  truth <- log(sqrt(2 * pi) * 0.3)
  expect_s3_class(fit, c("logz_ais_function", "logz_ais", "logz_estimate"))
  expect_lt(fit$se, 0.1)
  expect_lt(abs(fit$log_z - truth), 4 * fit$se)
  expect_equal(fit$log_z0, 0)
  expect_equal(fit$counts[["chains"]], 200)
  expect_gt(fit$counts[["density_evaluations"]], 200 * 100)
  expect_true(all(c("accept", "step_scale") %in% names(fit$diagnostics)))
  acc <- mean(fit$diagnostics$accept, na.rm = TRUE)
  expect_gt(acc, 0.2)
  expect_lt(acc, 0.5)
})

test_that("5-D correlated Gaussian (vectorized): matches the closed form", {
  d <- 5
  tg <- gauss_target(seq(-1, 1, length.out = d), 0.5^2 * (diag(d) * 0.7 + 0.3))
  set.seed(12)
  fit <- ais(tg$f, proposal_normal(rep(0, d), 2), schedule_geometric(200), n_chains = 200,
             sweeps_per_step = 3L, vectorized = TRUE)
  expect_lt(fit$se, 0.15)
  expect_lt(abs(fit$log_z - tg$log_z), 4 * fit$se)
  expect_equal(dim(fit$x), c(200L, d))
})

test_that("bimodal mixture: matches its known normaliser", {
  f <- function(x) log(5) + log(0.3 * dnorm(x, -2, 0.5) + 0.7 * dnorm(x, 3, 0.3))
  set.seed(13)
  fit <- ais(f, proposal_normal(0, 4), schedule_geometric(200), n_chains = 300)
  expect_lt(abs(fit$log_z - log(5)), 4 * fit$se + 0.02)
})

test_that("adapt = 'online' and 'none' also give the closed form; log_partition dispatches", {
  f <- function(x) -sum(x^2) / 2                   # Z = 2 pi in 2-D
  for (a in c("online", "none")) {
    set.seed(14)
    fit <- ais(f, proposal_normal(c(0, 0), 2), schedule_geometric(100), n_chains = 100,
               adapt = a, step_size = 0.8)
    expect_lt(abs(fit$log_z - log(2 * pi)), 4 * fit$se)
  }
  expect_true(all(fit$diagnostics$step_scale == 1))
  set.seed(15)
  lp <- log_partition(f, method = "ais", base = proposal_normal(c(0, 0), 2),
                      schedule = schedule_geometric(50), n_chains = 50)
  expect_s3_class(lp, "logz_ais_function")
  expect_lt(abs(lp$log_z - log(2 * pi)), 4 * lp$se)
})

test_that("set.seed reproduces a run; vectorized and scalar forms agree", {
  f <- function(x) -sum(x^2) / 2
  fv <- function(X) -rowSums(X^2) / 2
  b <- proposal_normal(c(0, 0), 2)
  set.seed(21); a1 <- ais(f, b, schedule_geometric(30), n_chains = 20)
  set.seed(21); a2 <- ais(f, b, schedule_geometric(30), n_chains = 20)
  set.seed(21); a3 <- ais(fv, b, schedule_geometric(30), n_chains = 20, vectorized = TRUE)
  expect_identical(a1$log_weights, a2$log_weights)
  expect_equal(a1$log_weights, a3$log_weights)
  # a log density that draws from R's RNG does not change the run (per-chain streams)
  fr <- function(x) { stats::runif(1); -sum(x^2) / 2 }
  set.seed(21); a4 <- ais(fr, b, schedule_geometric(30), n_chains = 20)
  expect_equal(a1$log_weights, a4$log_weights)
  .Random.seed <<- a1$seed
  a5 <- ais(f, b, schedule_geometric(30), n_chains = 20)
  expect_identical(a1$log_weights, a5$log_weights)
})

test_that("a target with smaller support than the base (-Inf outside) is handled", {
  f <- function(x) if (x < 0) -Inf else -x          # Exp(1) unnormalised: Z = 1
  set.seed(22)
  fit <- ais(f, proposal_normal(0, 2), schedule_geometric(100), n_chains = 200)
  expect_lt(abs(fit$log_z - 0), 4 * fit$se + 0.02)
})

test_that("bad input gives clear errors naming the argument", {
  b <- proposal_normal(0, 1)
  s <- schedule_linear(5)
  expect_error(ais(function(x) NA_real_, b, s, n_chains = 5), "`model`.*NA")
  expect_error(ais(function(x) Inf, b, s, n_chains = 5), "`model`.*Inf")
  expect_error(ais(function(x) c(1, 2), b, s, n_chains = 5), "`model` must return one number")
  expect_error(ais(function(x) "a", b, s, n_chains = 5), "`model` must return one number")
  expect_error(ais(function(X) 1, b, s, n_chains = 5, vectorized = TRUE), "must return 10 log densities")
  expect_error(ais(function(x) -Inf, b, s, n_chains = 5), "-Inf at every chain")
  expect_error(ais(function(x) 0, s, n_chains = 5), "`base` must be a logz_proposal")
  expect_error(ais(function(x) 0), "`base` must be a logz_proposal")
  expect_error(ais(function(x) 0, b, s, n_chains = 1), "`n_chains`")
  expect_error(ais(function(x) 0, b, s, step_size = -1), "`step_size`")
  expect_error(ais(function(x) 0, b, s, step_size = c(1, 2)), "`step_size`")
  expect_error(ais(function(x) 0, b, s, vectorized = NA), "`vectorized`")
  expect_error(ais(function(x) 0, b, s, target_accept = 1), "`target_accept`")
  expect_error(ais(function(x) 0, b, c(0.5, 1)), "schedule|betas")
  expect_error(ais(function(x) stop("boom in the user's density"), b, s, n_chains = 5),
               "boom in the user's density")
  expect_error(ais(function(x) TRUE, b, s, n_chains = 5), "`model` must return one number")
  expect_error(ais("f", b), "does not know how to handle")
  expect_error(log_partition(function(x) 0, method = "mip", base = b), "does not apply")
})

test_that("a long run stops at a time limit and the session stays usable", {
  skip_on_cran()
  f <- function(X) -rowSums(X^2) / 2
  setTimeLimit(elapsed = 1, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf), add = TRUE)
  msg <- tryCatch({
    ais(f, proposal_normal(c(0, 0), 1), schedule_linear(1e6), n_chains = 50, vectorized = TRUE)
    "finished"
  }, error = function(e) conditionMessage(e))
  setTimeLimit(elapsed = Inf)
  expect_match(msg, "time limit")
  set.seed(1)
  expect_s3_class(ais(f, proposal_normal(0, 1), schedule_linear(5), n_chains = 5,
                      vectorized = TRUE), "logz_ais")
})

test_that("HMC and MALA from a wide proposal: the closed form, reproducibly", {
  tg <- gauss_target(c(1, -1, 0.5), 0.4^2 * (diag(3) * 0.5 + 0.5))
  g <- function(X) {
    X <- matrix(X, ncol = 3)
    -sweep(X, 2, c(1, -1, 0.5)) %*% solve(0.4^2 * (diag(3) * 0.5 + 0.5))
  }
  for (k in c("mala", "hmc")) {
    set.seed(32)
    fit <- ais(tg$f, proposal_normal(rep(0, 3), 2), n_chains = 200, gradient = g, kernel = k,
               vectorized = TRUE, progress = FALSE)
    expect_equal(fit$kernel, k)
    expect_lt(abs(fit$log_z - tg$log_z), 4 * fit$se + 0.02)
    set.seed(32)
    again <- ais(tg$f, proposal_normal(rep(0, 3), 2), n_chains = 200, gradient = g, kernel = k,
                 vectorized = TRUE, progress = FALSE)
    expect_identical(again$log_z, fit$log_z)
    expect_identical(again$x, fit$x)
  }
  # a target and gradient of one point at a time give the same first steps as
  # vectorized ones (long runs part at rounding: HMC is chaotic)
  f1 <- function(x) tg$f(matrix(x, 1))
  g1 <- function(x) as.vector(g(x))
  runs <- lapply(list(list(f1, g1, FALSE), list(tg$f, g, TRUE)), function(a) {
    set.seed(33)
    ais(a[[1]], proposal_normal(rep(0, 3), 2), schedule = schedule_linear(3), n_chains = 10,
        gradient = a[[2]], vectorized = a[[3]], adapt = "none", step_size = 0.3,
        progress = FALSE)
  })
  expect_equal(runs[[1]]$log_z, runs[[2]]$log_z, tolerance = 1e-10)
  expect_equal(runs[[1]]$x, runs[[2]]$x, tolerance = 1e-10)
})

test_that("the Laplace-base flag fires on a banana and stays off on a correlated Gaussian", {
  S <- matrix(0.9, 10, 10)
  diag(S) <- 1
  P <- solve(S)
  set.seed(3)
  fit <- ais(function(X) -0.5 * rowSums((X %*% P) * X), gradient = function(X) -X %*% P,
             vectorized = TRUE, start = rep(0.1, 10), schedule = schedule_linear(30),
             n_chains = 50, progress = FALSE)
  expect_true(fit$reliable)
  expect_lt(abs(fit$log_z - (5 * log(2 * pi) + 0.5 * determinant(S)$modulus[[1]])),
            4 * fit$se)
  b <- 0.03
  f <- function(X) -X[, 1]^2 / 200 - (X[, 2] - b * X[, 1]^2 + 100 * b)^2 / 2
  g <- function(X) {
    r <- X[, 2] - b * X[, 1]^2 + 100 * b
    cbind(-X[, 1] / 100 + 2 * b * X[, 1] * r, -r)
  }
  set.seed(3)
  expect_warning(fit2 <- ais(f, gradient = g, vectorized = TRUE, start = c(0.1, 0.1),
                             progress = FALSE),
                 "times wider than its Laplace base", class = "logz_unreliable")
  expect_false(fit2$reliable)
})

test_that("arguments that do not apply to the base or kernel are errors", {
  f <- function(x) -sum(x^2) / 2
  b <- proposal_normal(c(0, 0), 2)
  expect_error(ais(f, base = b, start = c(0, 0, 0), progress = FALSE),
               "`start` \\(length 3\\) does not apply to a proposal `base` \\(2-D\\)")
  expect_error(ais(f, base = b, start = c(0, 0), progress = FALSE),
               "`start` \\(length 2\\) does not apply to a proposal `base`")
  expect_error(ais(f, base = b, n_leapfrog = 5, progress = FALSE),
               "`n_leapfrog` applies only to `kernel = \"hmc\"`.*\"rwm\"")
  expect_error(rts(f, base = b, n_leapfrog = 5, progress = FALSE),
               "`n_leapfrog` applies only to `kernel = \"hmc\"`")
  expect_error(smc(f, base = b, n_leapfrog = 5, progress = FALSE),
               "`n_leapfrog` applies only to `kernel = \"hmc\"`")
  expect_error(smc(f, base = b, refit_base = FALSE, progress = FALSE),
               "`refit_base` applies only from a Laplace base")
  # a proposal edited to lower > upper after construction is refused at use
  u <- proposal_uniform(c(-3, -3), c(3, 3))
  u$par[1, 2] <- 4
  for (est in list(ais, rts, smc))
    expect_error(est(f, base = u, progress = FALSE), "uniform dimension 2 must have lower < upper")
})

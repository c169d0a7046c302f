# Stan models as targets (R/stan.R): one small model, compiled once per run of
# this file and kept in a temporary directory.

stan_code <- "data { int<lower=1> n; vector[n] y; }
parameters { real mu; real<lower=0> sigma; }
transformed parameters { real log_sigma = log(sigma); }
model {
  target += normal_lpdf(mu | 0, 2);
  target += lognormal_lpdf(sigma | 0, 1);
  target += normal_lpdf(y | mu, sigma);
}
generated quantities { real y_rep = normal_rng(mu, sigma); }"

stan_y <- c(0.37, 1.82, -0.21, 2.45, 1.33, 0.61, 1.49, 2.74, 1.58, 0.39)

# log p(y) of the model above: mu integrated out in closed form
# (y | sigma ~ N(0, sigma^2 I + 4 J)), sigma by quadrature.
stan_log_z <- function(y = stan_y) {
  n <- length(y)
  log_lik <- function(s) {
    q <- (sum(y^2) - 4 * sum(y)^2 / (s^2 + 4 * n)) / s^2
    -n / 2 * log(2 * pi) - (n - 1) * log(s) - 0.5 * log(s^2 + 4 * n) - q / 2
  }
  ls <- seq(-5, 5, by = 0.01)
  m <- max(vapply(exp(ls), log_lik, 0) + stats::dlnorm(exp(ls), 0, 1, log = TRUE) + ls)
  f <- function(l) exp(vapply(exp(l), log_lik, 0) + stats::dlnorm(exp(l), 0, 1, log = TRUE) + l - m)
  m + log(stats::integrate(f, -8, 8, rel.tol = 1e-10)$value)
}

stan_cache <- new.env()
# The compiled model and a fit (4 x 500 draws), made once; skips when rstan
# is missing or cannot compile here (no C++ toolchain or Boost headers).
stan_fixture <- function() {
  skip_on_cran()
  skip_if_not_installed("rstan")
  if (is.null(stan_cache$fit)) {
    path <- file.path(tempdir(), "logz-test-stan-model.rds")
    sm <- if (file.exists(path)) readRDS(path) else tryCatch({
      m <- suppressMessages(rstan::stan_model(model_code = stan_code, model_name = "normal2"))
      saveRDS(m, path)
      m
    }, error = function(e) conditionMessage(e))
    if (is.character(sm)) skip(paste("the Stan model does not compile here:", sm))
    stan_cache$sm <- sm
    stan_cache$fit <- suppressWarnings(rstan::sampling(
      sm, data = list(n = length(stan_y), y = stan_y), chains = 2, iter = 600, refresh = 0,
      seed = 1))
  }
  stan_cache
}

test_that("stan_target(): the log density with Jacobian and its gradient, at the draws", {
  fx <- stan_fixture()
  tg <- stan_target(fx$fit)
  expect_s3_class(tg, "logz_stan_target")
  expect_equal(tg$dim, 2L)
  expect_equal(tg$draws, 600L)
  # lp__ of the best draw is the log density at its unconstrained point
  lp <- rstan::extract(fx$fit)$lp__
  expect_equal(tg$log_density(matrix(tg$start, 1)), max(lp), tolerance = 1e-8)
  # by hand: log N(mu | 0, 2) + log LN(sigma | 0, 1) + log-likelihood + log sigma (Jacobian)
  U <- rbind(c(1, log(1.2)), c(-0.5, 0.3))
  by_hand <- apply(U, 1, function(u) dnorm(u[1], 0, 2, log = TRUE) +
    dlnorm(exp(u[2]), 0, 1, log = TRUE) + sum(dnorm(stan_y, u[1], exp(u[2]), log = TRUE)) + u[2])
  expect_equal(tg$log_density(U), by_hand, tolerance = 1e-10)
  G <- tg$gradient(U)
  expect_equal(dim(G), c(2L, 2L))
  h <- 1e-6
  fd <- t(apply(U, 1, function(u) c(
    (tg$log_density(rbind(u + c(h, 0))) - tg$log_density(rbind(u - c(h, 0)))) / (2 * h),
    (tg$log_density(rbind(u + c(0, h))) - tg$log_density(rbind(u - c(0, h)))) / (2 * h))))
  expect_equal(G, fd, tolerance = 1e-6)
  # the gradient kept from the density call is the one of the points asked for
  tg$log_density(U)
  expect_equal(tg$gradient(U[2:1, ]), G[2:1, ])
  # a point where Stan throws (mu = NaN) is -Inf among finite ones, gradient NA
  V <- rbind(U[1, ], c(NaN, 0), U[2, ])
  expect_equal(suppressWarnings(tg$log_density(V)), c(by_hand[1], -Inf, by_hand[2]), tolerance = 1e-10)
  GV <- suppressWarnings(tg$gradient(V))
  expect_equal(GV[-2, ], G, tolerance = 1e-10)
  expect_true(all(is.na(GV[2, ])))
  expect_output(print(tg), "Stan model 'normal2': 2 unconstrained parameters")
})

test_that("ais(fit) and log_partition(fit) match the closed-form evidence", {
  fx <- stan_fixture()
  truth <- stan_log_z()
  set.seed(3)
  a <- ais(fx$fit, progress = FALSE)
  expect_s3_class(a, "logz_ais_function")
  expect_identical(a$kernel, "hmc")
  expect_identical(a$base$type, "laplace")
  expect_match(a$base$how, "Gaussian fitted to the 600 posterior draws")
  expect_lt(a$se, 0.05)
  expect_lt(abs(a$log_z - truth), 4 * a$se + 1e-3)
  expect_output(print(a), "the Stan model 'normal2'")
  # "auto" is smc(), reproducible under set.seed()
  short <- function(f) {
    set.seed(6)
    f(fx$fit, particles = 50, replicates = 2, progress = FALSE)$log_z
  }
  expect_identical(short(log_partition), short(smc))
  set.seed(7)
  s <- smc(fx$fit, particles = 100, progress = FALSE)
  expect_s3_class(s, "logz_smc")
  expect_match(s$base$how, "fitted to the 600 posterior draws")
  set.seed(9)
  t5 <- smc(fx$fit, df = 5, particles = 100, progress = FALSE)
  expect_match(t5$base$how, "Student-t \\(df 5\\) fitted to the 600 posterior draws")
  expect_lt(abs(t5$log_z - truth), 4 * t5$se + 1e-3)
  expect_lt(abs(s$log_z - truth), 4 * s$se + 1e-3)
  expect_output(print(s), "the Stan model 'normal2'")
  # the Laplace base from the mode search, on request
  set.seed(8)
  l <- ais(fx$fit, base = "laplace", n_chains = 50, progress = FALSE)
  expect_match(l$base$how, "Laplace fit at the mode")
  expect_lt(abs(l$log_z - truth), 4 * l$se + 1e-3)
  set.seed(4)
  r <- log_partition(fx$fit, method = "rts", K = 10, n_chains = 10, sweeps = 200,
                     kernel = "mala", progress = FALSE)
  expect_s3_class(r, "logz_rts")
  expect_lt(abs(r$log_z - truth), 0.3)
  set.seed(5)
  w <- ais(fx$fit, kernel = "rwm", n_chains = 50, progress = FALSE)
  expect_lt(abs(w$log_z - truth), 4 * w$se + 1e-3)
})

test_that("Stan inputs that cannot give the evidence are clear errors", {
  fx <- stan_fixture()
  expect_error(stan_target(list(a = 1)), "`fit` must be a stanfit")
  no_draws <- function(data) {
    utils::capture.output(f <- suppressMessages(suppressWarnings(
      rstan::sampling(fx$sm, data = data, chains = 0))))
    f
  }
  empty <- no_draws(list(n = length(stan_y), y = stan_y))
  expect_error(ais(empty), "holds no posterior draws")
  # the empty fit evaluates the model for the fit's draws
  expect_s3_class(stan_target(fx$fit, stanfit_model = empty), "logz_stan_target")
  other <- no_draws(list(n = 3L, y = c(5, 6, 7)))
  expect_error(stan_target(fx$fit, stanfit_model = other), "do not match the model evaluated")
  expect_error(ais(fx$fit, gradient = function(x) x), "`gradient` must not be given")
  expect_error(ais(fx$fit, vectorized = FALSE), "`vectorized` must not be given")
  expect_error(ais(fx$fit, start = c(0, 0, 0)), "length 2")
  expect_error(ais(fx$fit, n_chians = 10, progress = FALSE), "n_chains")
  expect_error(smc(fx$fit, gradient = function(x) x), "`gradient` must not be given")
  expect_error(smc(empty), "holds no posterior draws")
  expect_error(ais(fx$fit, df = 0), "`df`")
  expect_error(ais(fx$fit, df = "a"), "`df`")
  expect_error(ais(fx$fit, base = "laplace", df = 3), "`df` applies only to `base = \"draws\"`")
  expect_error(smc(fx$fit, base = "normal"), "`base`")
})

test_that("the base fitted to the draws is their mean and covariance, and needs enough draws", {
  fx <- stan_fixture()
  tg <- logz:::stan_target_make(fx$fit, NULL, TRUE, all_draws = TRUE)
  ex <- rstan::extract(fx$fit)
  U <- cbind(ex$mu, log(ex$sigma))
  expect_equal(unname(tg$draws_u), unname(U), tolerance = 1e-10)
  b <- logz:::stan_draws_base(tg, df = Inf)
  expect_equal(b$mode, colMeans(U), tolerance = 1e-10)
  expect_equal(b$chol_cov %*% t(b$chol_cov), stats::cov(U), tolerance = 1e-10,
               ignore_attr = TRUE)
  expect_silent(logz:::validate_laplace(b))
  few <- tg
  few$draws_u <- U[1:5, ]
  expect_error(logz:::stan_draws_base(few, 5), "holds 5 draws of 2 unconstrained parameters")
  flat <- tg
  flat$draws_u <- cbind(U[, 1], 1)
  expect_error(logz:::stan_draws_base(flat, 5), "covariance .* is singular")
})

test_that("Stan code with sampling statements is recognised (they drop constants)", {
  expect_false(logz:::stan_code_uses_tilde(stan_code))
  expect_true(logz:::stan_code_uses_tilde("model { y ~ normal(mu, 1); }"))
  expect_false(logz:::stan_code_uses_tilde(c("model { // y ~ normal(mu, 1)",
                                             "/* x ~ normal(0, 1); */ target += -x^2; }")))
  expect_true(logz:::stan_code_uses_tilde("model {\n  # old comment\n  mu ~ std_normal();\n}"))
})

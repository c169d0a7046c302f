# Shared by the evidence benchmark (bench/evidence/run_*.R, summary.R): the
# models with known log Z, the methods, one seed of one method, and the saved
# runs. Sourced from the package root.
suppressPackageStartupMessages(library(logz))
options(logz.warn_unreliable = FALSE)

bench_header <- function(what) {
  cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
  commit <- tryCatch(system2("git", c("rev-parse", "--short", "HEAD"), stdout = TRUE,
                             stderr = FALSE), error = function(e) "unknown", warning = function(w) "unknown")
  file <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  cat(sprintf("command: Rscript %s %s; commit %s\n", paste(file, collapse = " "),
              paste(commandArgs(TRUE), collapse = " "), paste(commit, collapse = "")))
  cat(sprintf("%s; %s; logz %s\n\n", what, format(Sys.time()), packageVersion("logz")))
}

# ---- models: f and g are vectorized (rows are points); log_z is the truth ----

# Bayesian linear regression, n = 50, beta ~ N(0, 2^2 I), sigma = 1 known:
# y ~ N(0, I + 4 X X').
model_regression <- function(d, n = 50L) {
  set.seed(1000 + d)
  X <- matrix(rnorm(n * d), n, d)
  y <- drop(X %*% rnorm(d) + rnorm(n))
  list(name = sprintf("regression d = %d", d), d = d,
       log_z = mvtnorm::dmvnorm(y, rep(0, n), diag(n) + 4 * tcrossprod(X), log = TRUE),
       f = function(B) colSums(matrix(dnorm(y, X %*% t(B), 1, log = TRUE), n)) +
         rowSums(dnorm(B, 0, 2, log = TRUE)),
       g = function(B) t(crossprod(X, y - X %*% t(B))) - B / 4, start = rep(0.1, d))
}

# bridgesampling's hierarchical normal example (Gronau et al. 2017, the H1
# model of the package's Stan vignette): y_i ~ N(theta_i, 1), theta_i ~ N(mu,
# tau2), mu ~ N(0, 1), tau2 ~ InvGamma(1, 1), n = 20, the vignette's data.
# Parameters (mu, log tau2, theta_1..n) with the Jacobian of log tau2. The
# truth: theta and mu integrated out in closed form (y ~ N(0, (tau2 + 1) I +
# J)), tau2 by quadrature.
hier_data <- function() {
  set.seed(12345)
  theta <- rnorm(20, 0, sqrt(0.5))
  rnorm(20, theta, 1)
}
model_hierarchical <- function() {
  y <- hier_data()
  n <- length(y)
  lml_tau <- function(t2) {
    s <- t2 + 1
    q <- (sum(y^2) - sum(y)^2 / (s + n)) / s
    -n / 2 * log(2 * pi) - (n - 1) / 2 * log(s) - 0.5 * log(s + n) - q / 2
  }
  ldig <- function(x, a = 1, b = 1) a * log(b) - lgamma(a) - (a + 1) * log(x) - b / x
  lz_int <- function(l) vapply(l, function(v) lml_tau(exp(v)) + ldig(exp(v)) + v, 0)
  m <- max(lz_int(seq(-10, 6, by = 0.01)))
  truth <- m + log(stats::integrate(function(l) exp(lz_int(l) - m), -25, 10,
                                    rel.tol = 1e-12)$value)
  f <- function(P) {
    mu <- P[, 1]; lt <- P[, 2]; th <- P[, -(1:2), drop = FALSE]; t2 <- exp(lt)
    dnorm(mu, 0, 1, log = TRUE) + ldig(t2) + lt +
      rowSums(dnorm(th, mu, sqrt(t2), log = TRUE)) +
      rowSums(dnorm(sweep(th, 2, y), 0, 1, log = TRUE))
  }
  g <- function(P) {
    mu <- P[, 1]; lt <- P[, 2]; th <- P[, -(1:2), drop = FALSE]; t2 <- exp(lt)
    r <- th - mu
    cbind(-mu + rowSums(r) / t2,
          # d/dlt of [-(2) lt - 1/t2 + lt] - n/2 lt - sum r^2 / (2 t2)
          -1 + 1 / t2 - n / 2 + rowSums(r^2) / (2 * t2),
          -r / t2 - sweep(th, 2, y))
  }
  list(name = "hierarchical normal (d = 22)", d = n + 2L, log_z = truth, f = f, g = g,
       start = c(0, log(0.5), rep(0, n)), y = y)
}

# The mixture of bench/ais/targets.R (log Z = log 5), started at 0.1.
source("bench/ais/targets.R")
model_mixture <- function(d = 10L) {
  tg <- mixture(d = d)
  tg$start <- rep(0.1, d)
  tg
}

# Bayesian logistic regression on Sonar (mlbench; 208 x 60, standardised
# columns and an intercept): intercept ~ N(0, 5^2), slopes ~ N(0, 1). The
# reference log Z is in bench/evidence/sonar_reference.rds (run_sonar_ref.R).
model_sonar <- function() {
  e <- new.env()
  utils::data("Sonar", package = "mlbench", envir = e)
  X <- cbind(1, scale(as.matrix(e$Sonar[, 1:60])))
  y <- as.numeric(e$Sonar$Class == "M")
  sds <- c(5, rep(1, 60))
  ref <- "bench/evidence/sonar_reference.rds"
  list(name = "logistic regression, Sonar (d = 61)", d = 61L,
       log_z = if (file.exists(ref)) readRDS(ref)$log_z else NA_real_,
       f = function(B) {
         E <- X %*% t(B)
         colSums(y * E - pmax(E, 0) - log1p(exp(-abs(E)))) +
           colSums(dnorm(t(B), 0, sds, log = TRUE))
       },
       g = function(B) {
         E <- X %*% t(B)
         t(crossprod(X, y - plogis(E))) - sweep(B, 2, sds^2, "/")
       }, start = rep(0, 61))
}

# ---- models on a bounded support, each parameter on its own scale (given with
# lower/upper to logz, lb/ub to bridgesampling) ----

# Poisson counts with a Gamma(3, 1) prior on the rate lambda > 0: conjugate.
model_poisson_gamma <- function() {
  set.seed(4201)
  y <- rpois(30, 2.5)
  a <- 3; b <- 1; n <- length(y); S <- sum(y)
  f <- function(L) {
    l <- L[, 1]
    out <- rep(-Inf, length(l))
    ok <- l > 0
    out[ok] <- S * log(l[ok]) - n * l[ok] - sum(lgamma(y + 1)) + dgamma(l[ok], a, b, log = TRUE)
    out
  }
  g <- function(L) {
    l <- L[, 1]
    matrix(ifelse(l > 0, (S + a - 1) / l - n - b, 0), ncol = 1)
  }
  list(name = "Poisson-Gamma rate (lower = 0)", d = 1L, f = f, g = g, start = 1, lower = 0,
       upper = Inf, log_z = a * log(b) - lgamma(a) + lgamma(a + S) - (a + S) * log(b + n) -
         sum(lgamma(y + 1)))
}

# A binomial probability p in (0, 1) with a Beta(2, 2) prior: conjugate.
model_beta_binomial <- function() {
  k <- 7; n <- 40; a <- 2; b <- 2
  f <- function(P) {
    p <- P[, 1]
    out <- rep(-Inf, length(p))
    ok <- p > 0 & p < 1
    out[ok] <- lchoose(n, k) + (k + a - 1) * log(p[ok]) + (n - k + b - 1) * log1p(-p[ok]) - lbeta(a, b)
    out
  }
  g <- function(P) {
    p <- P[, 1]
    matrix(ifelse(p > 0 & p < 1, (k + a - 1) / p - (n - k + b - 1) / (1 - p), 0), ncol = 1)
  }
  list(name = "beta-binomial probability (0 < p < 1)", d = 1L, f = f, g = g, start = 0.5,
       lower = 0, upper = 1, log_z = lchoose(n, k) + lbeta(k + a, n - k + b) - lbeta(a, b))
}

# A normal mean and scale: y_i ~ N(mu, sigma^2), mu ~ N(0, 1), sigma ~
# half-normal(1) on its own scale (sigma > 0). Truth: mu integrated in closed
# form, sigma by quadrature.
model_normal_scale <- function() {
  set.seed(4202)
  y <- rnorm(15, 0.3, 0.7)
  n <- length(y)
  lml_sigma <- function(s) vapply(s, function(si) {
    V <- si^2 * diag(n) + 1
    mvtnorm::dmvnorm(y, rep(0, n), V, log = TRUE) + log(2) + dnorm(si, log = TRUE)
  }, 0)
  m <- max(lml_sigma(seq(0.05, 3, by = 0.01)))
  truth <- m + log(stats::integrate(function(s) exp(lml_sigma(s) - m), 0, 20, rel.tol = 1e-12)$value)
  f <- function(P) {
    mu <- P[, 1]; s <- P[, 2]
    out <- rep(-Inf, length(s))
    ok <- s > 0
    r <- outer(mu[ok], y, function(a, b) b - a)
    out[ok] <- -n * log(s[ok]) - n / 2 * log(2 * pi) - 0.5 * rowSums(r^2) / s[ok]^2 +
      dnorm(mu[ok], log = TRUE) + log(2) + dnorm(s[ok], log = TRUE)
    out
  }
  g <- function(P) {
    mu <- P[, 1]; s <- P[, 2]
    G <- matrix(0, nrow(P), 2)
    ok <- s > 0
    r <- outer(mu[ok], y, function(a, b) b - a)
    G[ok, 1] <- rowSums(r) / s[ok]^2 - mu[ok]
    G[ok, 2] <- -n / s[ok] + rowSums(r^2) / s[ok]^3 - s[ok]
    G
  }
  list(name = "normal mean and scale (sigma > 0)", d = 2L, f = f, g = g, start = c(0, 1),
       lower = c(-Inf, 0), upper = c(Inf, Inf), log_z = truth)
}

# The d = 100 logistic regression of bench/smc/dimension_models.R (n = 400),
# with the importance-sampling reference of bench/smc/dimension_ref.R.
model_logistic100 <- function() {
  source("bench/smc/dimension_models.R", local = TRUE)
  tg <- logistic_model(100L)
  tg$name <- "logistic regression d = 100 (n = 400)"
  tg$log_z <- readRDS("bench/smc/dimension_ref.rds")[["100"]][["log_z"]]
  tg
}

evidence_model <- function(model) switch(model,
  regression10 = model_regression(10L), regression50 = model_regression(50L),
  hierarchical = model_hierarchical(), mixture = model_mixture(), sonar = model_sonar(),
  poisson_gamma = model_poisson_gamma(), beta_binomial = model_beta_binomial(),
  normal_scale = model_normal_scale(), logistic100 = model_logistic100(),
  stop("unknown model ", model))

# ---- our own HMC: logz's C kernel at beta = 1 in the Laplace-whitened space ----

# `chains` chains of HMC (n_leapfrog leapfrog steps; the step adapted towards
# acceptance 0.65 during `warmup` sweeps, then fixed) on the model, whitened
# by its Gaussian Laplace fit (a dense mass matrix). Returns the draws (on
# the model's scale) and the density and gradient evaluations spent (Laplace
# fit included).
hmc_draws <- function(tg, draws = 2000L, chains = 4L, warmup = 500L, n_leapfrog = 10L) {
  lb <- laplace_base(tg$f, tg$start, tg$g, vectorized = TRUE, df = Inf)
  w <- logz:::laplace_whiten(lb, tg$f, tg$g, TRUE)
  d <- tg$d
  base <- proposal_normal(rep(0, d), 1)
  fn <- logz:::cont_evaluator(w$model, w$gradient, TRUE, d)
  Z <- matrix(rnorm(chains * d), chains, d)
  state <- list(X = Z, lf = w$model(Z), lb = rowSums(dnorm(Z, log = TRUE)), gf = NULL, gb = NULL,
                streams = logz:::rng_streams(chains))
  evals <- lb$evaluations + c(chains, 0)
  log_step <- log(d^-0.25)
  per_chain <- ceiling(draws / chains)
  out <- matrix(0, per_chain * chains, d)
  for (it in seq_len(warmup + per_chain)) {
    control <- list(kernel = "hmc", n_leapfrog = n_leapfrog, sweeps = 1L, beta = rep(1, chains),
                    step = rep(exp(log_step), chains), scale = rep(1, d))
    state <- logz:::cont_sweep(fn, base, state, control)
    evals <- evals + c(state$evaluations, state$gradient_evaluations)
    if (it <= warmup) log_step <- log_step + (mean(state$accept) - 0.65) / sqrt(it)
    else out[(it - warmup - 1L) * chains + seq_len(chains), ] <- state$X
  }
  list(x = logz:::laplace_to_x(lb, out)[seq_len(draws), , drop = FALSE],
       evaluations = c(density = evals[[1]], gradient = evals[[2]]))
}

# bridgesampling::bridge_sampler() (normal proposal) on `x`, counting its calls
# of the log posterior.
bridge_on_draws <- function(tg, x) {
  n_eval <- 0
  lp <- function(pars, data) {
    n_eval <<- n_eval + 1
    tg$f(matrix(pars, 1))
  }
  colnames(x) <- paste0("p", seq_len(ncol(x)))
  lo <- stats::setNames(if (is.null(tg$lower)) rep(-Inf, ncol(x)) else rep_len(tg$lower, ncol(x)),
                       colnames(x))
  hi <- stats::setNames(if (is.null(tg$upper)) rep(Inf, ncol(x)) else rep_len(tg$upper, ncol(x)),
                       colnames(x))
  b <- bridgesampling::bridge_sampler(samples = x, log_posterior = lp, data = NULL, lb = lo,
                                      ub = hi, method = "normal", silent = TRUE)
  list(log_z = b$logml, se = bridgesampling::error_measures(b)$cv, evaluations = n_eval)
}

# ---- the methods: each returns log_z, se, flagged, density and gradient evaluations ----

logz_method <- function(fun, kernel, ...) function(tg) {
  bounds <- if (!is.null(tg$lower)) list(lower = tg$lower, upper = tg$upper)
  fit <- suppressMessages(do.call(fun, c(list(tg$f, gradient = tg$g, vectorized = TRUE,
                                              start = tg$start, kernel = kernel, progress = FALSE),
                                         bounds, list(...))))
  c(log_z = fit$log_z, se = fit$se, flagged = !fit$reliable,
    density = fit$counts[["density_evaluations"]],
    gradient = fit$counts[["gradient_evaluations"]])
}
bridge_method <- function(tg, draws = 2000L, warmup = 500L) {
  h <- hmc_draws(tg, draws = draws, warmup = warmup)
  b <- bridge_on_draws(tg, h$x)
  c(log_z = b$log_z, se = b$se, flagged = NA, density = h$evaluations[["density"]] + b$evaluations,
    gradient = h$evaluations[["gradient"]])
}

# bridgesampling at a given total cost (density + gradient evaluations, draws
# included): `cost` the target (the default call's mean on the same model),
# `own` bridge_method()'s mean total at its own 2,000 draws and 500 warmup
# sweeps (4 chains, 10 leapfrog steps: 20 evaluations a chain-sweep, and one
# more a draw for bridge_sampler()). Above its own cost, the draws grow and the
# warmup stays; below, draws and warmup shrink together. Returns the method,
# with the draws and warmup it uses as attributes.
bridge_method_at <- function(cost, own, draws = 2000L, warmup = 500L, chains = 4L,
                             n_leapfrog = 10L) {
  per_sweep <- 2 * n_leapfrog * chains
  per_draw <- 2 * n_leapfrog + 1
  fixed <- own - per_sweep * warmup - per_draw * draws
  if (cost >= own) {
    draws <- draws + (cost - own) / per_draw
  } else {
    s <- (cost - fixed) / (own - fixed)
    draws <- draws * s
    warmup <- max(50L, round(warmup * s))
  }
  draws <- as.integer(chains * round(draws / chains))
  m <- function(tg) bridge_method(tg, draws = draws, warmup = as.integer(warmup))
  structure(m, draws = draws, warmup = as.integer(warmup))
}

# One line per method: adding a method is adding a line. "(default)" marks
# what log_partition(f, gradient = g, start = ) runs (smc() with HMC); the
# "Laplace base only" lines are smc() without its base refit and mode search.
bench_methods <- list(
  "AIS rwm" = logz_method(ais, "rwm"),
  "AIS mala" = logz_method(ais, "mala"),
  "AIS hmc" = logz_method(ais, "hmc"),
  "RTS rwm" = logz_method(rts, "rwm"),
  "RTS mala" = logz_method(rts, "mala"),
  "RTS hmc" = logz_method(rts, "hmc"),
  "SMC mala (Laplace base only)" = logz_method(smc, "mala", refit_base = FALSE, mode_starts = 0L),
  "SMC hmc (Laplace base only)" = logz_method(smc, "hmc", refit_base = FALSE, mode_starts = 0L),
  "SMC hmc (default)" = logz_method(smc, "hmc"),
  "bridgesampling (HMC draws)" = bridge_method
)

# Run `methods` on model `tg` for `seeds` (seed by seed, every method), appending
# one row per run to the rds file `out` (so a run can be split and resumed).
run_cells <- function(tg, seeds, out, methods = bench_methods) {
  runs <- if (file.exists(out)) readRDS(out) else NULL
  for (s in seeds) {
    for (meth in names(methods)) {
      if (!is.null(runs) && any(runs$method == meth & runs$seed == s & runs$model == tg$name))
        next
      set.seed(s)
      t0 <- proc.time()
      r <- tryCatch(methods[[meth]](tg), error = function(e) {
        message(sprintf("%s seed %d: %s", meth, s, conditionMessage(e)))
        c(log_z = NA, se = NA, flagged = NA, density = NA, gradient = NA)
      })
      cpu <- sum((proc.time() - t0)[c("user.self", "sys.self")])
      runs <- rbind(runs, data.frame(model = tg$name, method = meth, seed = s, truth = tg$log_z,
                                     log_z = r[["log_z"]], se = r[["se"]],
                                     flagged = r[["flagged"]], density = r[["density"]],
                                     gradient = r[["gradient"]], cpu = cpu))
      saveRDS(runs, out)
    }
  }
  for (meth in names(methods)) {
    x <- runs[runs$method == meth & runs$model == tg$name, ]
    cat(sprintf("%-36s %-28s n %2d  RMSE %8.4f  mean |z|<=3 %4.2f  evals %9.0f + %9.0f  CPU %6.2f s\n",
                tg$name, meth, nrow(x), sqrt(mean((x$log_z - x$truth)^2)),
                mean(abs(x$log_z - x$truth) / x$se <= 3), mean(x$density), mean(x$gradient),
                mean(x$cpu)))
  }
  invisible(runs)
}

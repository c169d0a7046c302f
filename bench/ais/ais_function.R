# AIS on an R log density (ais.function) against RTS on the same target
# (rts.function, Carlson et al. 2016) at (about) equal density evaluations,
# on targets with known normalisers: a 1-D Gaussian, a correlated 5-D Gaussian
# and a 1-D bimodal mixture (two well-separated modes, Z = 5).
# Both start from the same proposal base and move by random-walk Metropolis
# with adapted scales; both call the vectorized log density once per sweep.
# Budget B ~ 48,000 evaluations per run:
#   AIS: M = 100 chains x K = 400 steps + the pilot (20 chains x 400 steps);
#   RTS: M = 50 chains, 20 temperatures, 5 x 50 initial sweeps + 700 sweeps.
# Reported per target and method over R repeats: RMSE of log Z against the
# truth (nats), mean |bias|, mean reported se, coverage of +-2 se, mean
# seconds, evaluations per run; and the ratios AIS / RTS.
# Run: nice -n 10 Rscript bench/ais/ais_function.R > bench/ais/ais_function.out
suppressPackageStartupMessages(library(logz))
cat(paste0("BLAS: ", extSoftVersion()[["BLAS"]], "; LAPACK: ", La_library()), "\n")
cat("cores:", parallel::detectCores(), "\n\n")
R <- as.integer(Sys.getenv("AISF_BENCH_REPEATS", "30"))

gauss <- function(mu, S) {
  Si <- solve(S)
  list(f = function(X) { D <- sweep(X, 2, mu); -0.5 * rowSums((D %*% Si) * D) },
       log_z = 0.5 * length(mu) * log(2 * pi) + 0.5 * as.numeric(determinant(S)$modulus))
}
d5 <- 5
g5 <- gauss(seq(-1, 1, length.out = d5), 0.5^2 * (diag(d5) * 0.7 + 0.3))
targets <- list(
  "gauss-1d" = list(f = function(X) -(X[, 1] - 1.5)^2 / (2 * 0.3^2),
                    log_z = log(sqrt(2 * pi) * 0.3), base = proposal_normal(0, 3)),
  "gauss-5d" = list(f = g5$f, log_z = g5$log_z, base = proposal_normal(rep(0, d5), 2)),
  "bimodal-1d" = list(f = function(X) log(5) + log(0.3 * dnorm(X[, 1], -2, 0.5) +
                                                     0.7 * dnorm(X[, 1], 3, 0.3)),
                      log_z = log(5), base = proposal_normal(0, 4)))

run_ais <- function(tg, seed) {
  set.seed(seed)
  t0 <- proc.time()[[3]]
  fit <- ais(tg$f, tg$base, schedule_geometric(400), n_chains = 100, vectorized = TRUE)
  c(log_z = fit$log_z, se = fit$se, time = proc.time()[[3]] - t0,
    evals = fit$counts[["density_evaluations"]])
}
run_rts <- function(tg, seed) {
  set.seed(seed)
  t0 <- proc.time()[[3]]
  fit <- rts(tg$f, tg$base, K = 20L, n_chains = 50L, sweeps = 700L, init_iter = 5L,
             init_sweeps = 50L, tol = 1e-12, vectorized = TRUE, progress = FALSE)
  c(log_z = fit$log_z, se = fit$se, time = proc.time()[[3]] - t0,
    evals = 50 * (5 * 50 + 700) + 50)
}

rows <- list()
for (nm in names(targets)) {
  tg <- targets[[nm]]
  for (meth in c("AIS", "RTS")) {
    fun <- if (meth == "AIS") run_ais else run_rts
    res <- t(vapply(seq_len(R), function(r) fun(tg, 1000 + r), numeric(4)))
    err <- res[, "log_z"] - tg$log_z
    rows[[length(rows) + 1L]] <- data.frame(
      target = nm, method = meth, rmse = sqrt(mean(err^2)), abs_bias = abs(mean(err)),
      mean_se = mean(res[, "se"]), cover2se = mean(abs(err) <= 2 * res[, "se"]),
      seconds = mean(res[, "time"]), evals = mean(res[, "evals"]))
  }
}
tab <- do.call(rbind, rows)
cat(sprintf("%d repeats per cell; truth from the closed forms\n\n", R))
print(format(tab, digits = 3), row.names = FALSE)
cat("\nRatios AIS / RTS (RMSE < 1: AIS more accurate; seconds < 1: AIS faster)\n")
for (nm in names(targets)) {
  a <- tab[tab$target == nm & tab$method == "AIS", ]
  b <- tab[tab$target == nm & tab$method == "RTS", ]
  cat(sprintf("  %-11s RMSE %.2f   seconds %.2f   evaluations %.2f\n", nm, a$rmse / b$rmse,
              a$seconds / b$seconds, a$evals / b$evals))
}

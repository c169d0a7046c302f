# log_partition()'s "auto" road for a bayes_model() without gradients: the
# log joint from the Laplace base (random-walk moves) against the power
# posteriors from the prior (smc() on the model, the former default), on a
# Bayesian logistic regression (n = 400 simulated, intercept + 4
# covariates, N(0, 1) priors). Reference log Z by importance sampling from a
# Student-t (5 df) at the Laplace fit, 4e5 draws (its se printed). Per
# seed, both roads interleaved: error, se, z, density evaluations, CPU.
# Run from the package root: Rscript bench/smc/bayes_route.R [seeds]
suppressPackageStartupMessages(library(logz))
options(logz.warn_unreliable = FALSE)
args <- commandArgs(TRUE)
seeds <- if (length(args)) seq_len(as.integer(args[1])) else 1:4
commit <- tryCatch(system2("git", c("rev-parse", "--short", "HEAD"), stdout = TRUE), error = function(e) "?")
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("command: Rscript bench/smc/bayes_route.R %s; commit %s; %s; load %s\n\n",
            paste(args, collapse = " "), commit, format(Sys.time()),
            paste(readLines("/proc/loadavg"), collapse = "")))
set.seed(2024)
n <- 400; d <- 5
X <- cbind(1, matrix(rnorm(n * (d - 1)), n))
beta <- c(-0.5, 1, -0.8, 0.5, 0)
y <- rbinom(n, 1, plogis(X %*% beta))
lik <- function(B) { B <- matrix(B, ncol = d); E <- X %*% t(B); colSums(y * E - log1p(exp(E))) }
pri <- function(B) { B <- matrix(B, ncol = d); rowSums(dnorm(B, log = TRUE)) }
m <- bayes_model(pri, lik, function(k) matrix(rnorm(k * d), k), vectorized = TRUE)
# reference
lb <- laplace_base(function(B) pri(B) + lik(B), start = rep(0, d), vectorized = TRUE, df = Inf)
S <- tcrossprod(lb$chol_cov)
set.seed(99)
N <- 4e5
Z <- matrix(rt(N * d, 5), N)
B <- sweep(Z %*% t(lb$chol_cov), 2, lb$mode, "+")
lq <- rowSums(dt(Z, 5, log = TRUE)) - lb$log_det
lw <- pri(B) + lik(B) - lq
mx <- max(lw); w <- exp(lw - mx)
ref <- mx + log(mean(w)); ref_se <- sd(w) / mean(w) / sqrt(N)
cat(sprintf("reference log Z %.5f (IS se %.5f)\n\n", ref, ref_se))
cat(sprintf("%5s %-22s %9s %8s %7s %9s %7s %s\n", "seed", "road", "error", "se", "z", "evals", "cpu_s", "reliable"))
res <- list()
for (s in seeds) for (road in c("power posteriors", "log joint (auto)")) {
  set.seed(s)
  t0 <- proc.time()
  fit <- suppressMessages(if (road == "power posteriors") smc(m, progress = FALSE) else
    log_partition(m, progress = FALSE))
  cpu <- sum((proc.time() - t0)[c(1, 2)])
  ev <- sum(fit$counts[c("density_evaluations", "gradient_evaluations")])
  res[[length(res) + 1]] <- data.frame(seed = s, road = road, err = fit$log_z - ref, se = fit$se,
                                       evals = ev, cpu = cpu, reliable = fit$reliable)
  cat(sprintf("%5d %-22s %9.4f %8.4f %7.2f %9.0f %7.1f %s\n", s, road, fit$log_z - ref, fit$se,
              (fit$log_z - ref) / fit$se, ev, cpu, fit$reliable))
}
r <- do.call(rbind, res)
cat("\nsummary per road: RMSE, mean evaluations, CPU ratio to the power posteriors (per seed, median and range)\n")
pp <- r[r$road == "power posteriors", ]
for (road in unique(r$road)) {
  x <- r[r$road == road, ]
  ratio <- x$cpu / pp$cpu
  cat(sprintf("%-22s RMSE %.4f  evals %.0f  CPU ratio %.2f [%.2f, %.2f]  reliable %d/%d\n", road,
              sqrt(mean(x$err^2)), mean(x$evals), median(ratio), min(ratio), max(ratio),
              sum(x$reliable), nrow(x)))
}

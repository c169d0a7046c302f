# Adaptive tempering SMC (smc()) against the default AIS on R log densities
# (ais(f, gradient, start): Laplace base, HMC, 100 linear steps, 100 chains),
# on targets with a closed-form log Z: Bayesian linear regression (n = 50,
# d = 10, b ~ N(0, 2^2 I), sigma = 1) as a function (both from the Laplace
# base) and as a bayes_model() (SMC along the power posteriors from the
# prior; and log_partition()'s default on it: smc() on the log joint from
# the Laplace base, 8 x 250), and a correlated 10-D Gaussian (AIS default from the Laplace base,
# SMC from a wide proposal); SMC with 4 replicates of 500 particles (the
# default 8 x 250 is measured by smc_coverage.R). Over seeds: bias, RMSE, coverage of the reported se
# (|z| <= 3), density + gradient evaluations and CPU seconds per run, and
# ratios against the AIS default on the same target.
# Run from the package root: Rscript bench/smc/smc.R [seeds]
suppressPackageStartupMessages(library(logz))
args <- commandArgs(TRUE)
n_seeds <- if (length(args)) as.integer(args[1]) else 20L
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("seeds per cell: %d; %s; load average %s\n\n", n_seeds, format(Sys.time()),
            paste(utils::head(strsplit(readLines("/proc/loadavg"), " ")[[1]], 3), collapse = " ")))
options(logz.warn_unreliable = FALSE)

source("bench/smc/smc_models.R")

cell <- function(label, make, run) {
  rows <- lapply(seq_len(n_seeds), function(s) {
    tg <- make(s)
    set.seed(s)
    t0 <- proc.time()[["user.self"]]
    fit <- run(tg)
    cpu <- proc.time()[["user.self"]] - t0
    c(err = fit$log_z - tg$log_z, se = fit$se, cpu = cpu,
      evals = fit$counts[["density_evaluations"]] + fit$counts[["gradient_evaluations"]],
      ti = if (!is.null(fit$ti_corrected)) fit$ti_corrected[["log_z"]] - tg$log_z else NA,
      ss = if (!is.null(fit$stepping_stone)) fit$stepping_stone[["log_z"]] - tg$log_z else NA,
      flagged = !fit$reliable)
  })
  r <- as.data.frame(do.call(rbind, rows))
  data.frame(cell = label, bias = mean(r$err), rmse = sqrt(mean(r$err^2)),
             mean_se = mean(r$se), cover3 = mean(abs(r$err / r$se) <= 3),
             flagged = mean(r$flagged), evals = mean(r$evals), cpu = mean(r$cpu),
             rmse_ti = sqrt(mean(r$ti^2)), rmse_ss = sqrt(mean(r$ss^2)))
}

cells <- list(
  list("regression: AIS default (Laplace, HMC)", regression, function(tg)
    ais(tg$f, gradient = tg$g, start = rep(0, tg$d), vectorized = TRUE, progress = FALSE)),
  list("regression: SMC 4x500 (Laplace, HMC)", regression, function(tg)
    smc(tg$f, gradient = tg$g, start = rep(0, tg$d), vectorized = TRUE, particles = 500,
        replicates = 4, progress = FALSE)),
  list("regression: SMC bayes_model (prior path)", regression, function(tg)
    smc(tg$model, particles = 500, replicates = 4, progress = FALSE)),
  list("regression: log_partition(bayes_model) default (joint, Laplace)", regression, function(tg)
    log_partition(tg$model, progress = FALSE)),
  list("gaussian: AIS default (Laplace, HMC)", gaussian, function(tg)
    ais(tg$f, gradient = tg$g, start = rep(1, tg$d), vectorized = TRUE, progress = FALSE)),
  list("gaussian: SMC wide proposal", gaussian, function(tg)
    smc(tg$f, proposal_normal(rep(0, tg$d), 5), gradient = tg$g, vectorized = TRUE,
        particles = 500, replicates = 4, progress = FALSE)))
tab <- NULL
for (cl in cells) {
  tab <- rbind(tab, cell(cl[[1]], cl[[2]], cl[[3]]))
  print(tab[nrow(tab), ], row.names = FALSE)   # as each cell ends
  flush.console()
}
cat("\n")
base <- ifelse(grepl("^regression", tab$cell), 1L, which(tab$cell == "gaussian: AIS default (Laplace, HMC)"))
tab$rmse_ratio <- tab$rmse / tab$rmse[base]
tab$evals_ratio <- tab$evals / tab$evals[base]
tab$cpu_ratio <- tab$cpu / tab$cpu[base]
# work-normalised error: RMSE^2 x evaluations, against the AIS default
tab$mse_x_evals_ratio <- (tab$rmse^2 * tab$evals) / (tab$rmse[base]^2 * tab$evals[base])
old <- options(width = 200, digits = 4)
print(tab, row.names = FALSE)

cat("\ntarget_se = 0.01 on the regression (as a function, Laplace base), 5 seeds: error and se\n")
tt <- t(vapply(1:5, function(s) {
  tg <- regression(100 + s)
  set.seed(s)
  t0 <- proc.time()[["user.self"]]
  fit <- smc(tg$f, gradient = tg$g, start = rep(0, tg$d), vectorized = TRUE, target_se = 0.01,
             particles = 500, progress = FALSE)
  c(seed = s, error = fit$log_z - tg$log_z, se = fit$se, replicates = fit$counts[["replicates"]],
    evals = fit$counts[["density_evaluations"]] + fit$counts[["gradient_evaluations"]],
    cpu = proc.time()[["user.self"]] - t0)
}, numeric(6)))
print(as.data.frame(tt), row.names = FALSE)
cat(sprintf("max |error| %.4f; runs within 0.03 nats: %d of %d\n", max(abs(tt[, "error"])),
            sum(abs(tt[, "error"]) < 0.03), nrow(tt)))
options(old)

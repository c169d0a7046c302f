# Coverage of smc()'s se with its default replicates (8 of 250 particles) on
# the bayes_model regression of bench/smc/smc.R (power posteriors from the
# prior, n = 50, d = 10), 20 seeds: the share of runs with |z| <= 3, bias,
# RMSE and evaluations (compare the "SMC bayes_model" row of smc.out, run
# with 4 replicates of 500 particles).
# Run from the package root: Rscript bench/smc/smc_coverage.R
suppressPackageStartupMessages(library(logz))
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("%s; load average %s\n\n", format(Sys.time()),
            paste(utils::head(strsplit(readLines("/proc/loadavg"), " ")[[1]], 3), collapse = " ")))
options(logz.warn_unreliable = FALSE)
source("bench/smc/smc_models.R")
r <- t(vapply(1:20, function(s) {
  tg <- regression(s)
  set.seed(s)
  fit <- smc(tg$model, progress = FALSE)
  c(err = fit$log_z - tg$log_z, se = fit$se,
    evals = fit$counts[["density_evaluations"]] + fit$counts[["gradient_evaluations"]],
    replicates = fit$counts[["replicates"]], particles = fit$counts[["particles"]])
}, numeric(5)))
cat(sprintf("replicates %d x %d particles: bias %+.4f, RMSE %.4f, mean se %.4f, |z| <= 3 in %d of 20, evaluations %.0f\n",
            as.integer(r[1, "replicates"]), as.integer(r[1, "particles"]), mean(r[, "err"]),
            sqrt(mean(r[, "err"]^2)), mean(r[, "se"]), sum(abs(r[, "err"] / r[, "se"]) <= 3),
            mean(r[, "evals"])))
print(round(r[, c("err", "se")], 4))

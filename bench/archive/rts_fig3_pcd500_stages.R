# RTS stage by stage on the 784 x 500 PCD RBM (issue 18 follow-up): pilot 250 + burn-in 50 +
# 13 initial iterations x 50 + final 50 sweeps (1,000 in all, K = 100, 100 chains, tol 1e-9 so
# every iteration runs), 16 seeds. Prints each run's stage estimates of log Z (the RTS estimate
# of each initial iteration, then the final run's), their mean error and spread per stage
# against the reference, the between-run and within-run spread once the stages have settled,
# and the error of averaging the settled stages.
# Run: OPENBLAS_NUM_THREADS=1 Rscript bench/archive/rts_fig3_pcd500_stages.R > bench/archive/rts_fig3_pcd500_stages.out
suppressPackageStartupMessages(library(logz))
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
model <- readRDS("bench/models/rbm500_pcd.rds")$model
ref <- readRDS("bench/rts/rts_fig3_pcd500_ref.rds")$mid
I <- 13L
E <- t(vapply(1:16, function(seed) {
  set.seed(seed)
  fit <- suppressWarnings(rts(model, K = 100, n_chains = 100, sweeps = 50L, init_iter = I,
                              init_sweeps = 50L, tol = 1e-9, pilot_sweeps = 250L, burn_in = 50L,
                              estimators = "rts", progress = FALSE))
  c(fit$init$log_z[, ncol(fit$init$log_z)], fit$log_z)
}, numeric(I + 1L)))
colnames(E) <- c(paste0("E", 1:I), "final")
cat(sprintf("reference log Z %.3f (bench/rts/rts_fig3_pcd500_ref.out)\n\nstage estimates per run:\n", ref))
print(round(E, 1))
cat("\nmean error per stage:", sprintf("%+.2f", colMeans(E) - ref), "\n")
cat("sd over runs per stage:", sprintf("%.2f", apply(E, 2, stats::sd)), "\n")
settled <- 8:(I + 1L)
lvl <- rowMeans(E[, settled])
cat(sprintf(paste0("\nstages %d-%d (settled: mean error %+.2f): sd over runs of each run's mean %.2f, ",
                   "mean sd within a run %.2f\n"), min(settled), max(settled), mean(lvl) - ref,
            stats::sd(lvl), mean(apply(E[, settled], 1, stats::sd))))
for (m in c(4L, 6L, 8L, 10L, 12L)) {
  a <- rowMeans(E[, m:(I + 1L), drop = FALSE])
  cat(sprintf("average of stages %2d-%d: bias %+.2f, sd %.2f, RMSE %.2f\n", m, I + 1L,
              mean(a) - ref, stats::sd(a), sqrt(mean((a - ref)^2))))
}

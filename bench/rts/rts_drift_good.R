# rts() defaults (pilot, up to 10 initial iterations of 50 sweeps, tol 0.1) on the 784 x 20 PCD RBM
# (bench/models/rbm20_pcd.rds, exact log Z): Eq. 16 coverage and the ladder-drift flag over 30 seeds.
# Usage: R_LIBS=... OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/rts/rts_drift_good.R > bench/rts/rts_drift_good.out
suppressPackageStartupMessages(library(logz))
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
o <- readRDS("bench/models/rbm20_pcd.rds"); m <- o$model; ex <- o$log_z
t0 <- proc.time()
r <- t(sapply(1:30, function(s) { set.seed(s)
    f <- suppressWarnings(rts(m, estimators = "rts", progress = FALSE, K = 50, n_chains = 50, sweeps = 800))
    dz <- attr(f$diagnostics, "ladder_drift")$z
    c(err = f$log_z - ex, z = (f$log_z - ex) / f$se, maxdz = max(abs(dz)), drift = any(grepl("ladder drift", f$flags)), flagged = !f$reliable, nit = f$counts[["init_iterations"]]) }))
cat(sprintf("cover %.2f mean|z| %.2f mean err %.3f sd err %.3f drift %d flagged %d nit %.1f\nmaxdz %s\n", mean(abs(r[,"z"]) < 1.96), mean(abs(r[,"z"])), mean(r[,"err"]), sd(r[,"err"]), sum(r[,"drift"]), sum(r[,"flagged"]), mean(r[,"nit"]), paste(round(r[,"maxdz"],1), collapse=" ")))
print(proc.time() - t0)

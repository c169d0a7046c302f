# ARM vs RM on a larger problem (300 MNIST 3 vs 5 points, the hyperparameters of
# bench/arm/arm_gpc.R), 20 repeats: RM R=200 against ARM R=100 (i_max 10), about equal
# particle-moves, with the Theorem 1 bound from the RM runs.
# Run: R_LIBS=... Rscript bench/arm/arm_gpc_n300.R > bench/arm/arm_gpc_n300.out (about 8 min)
library(logz)
cat(paste0("BLAS: ", extSoftVersion()[["BLAS"]], "; LAPACK: ", La_library()), "\n")
reps <- 20L
source("bench/arm/gpc_problems.R")
m <- mnist35_gpc(300)
cat(sprintf("MNIST 3v5 n=300, EP log Z %.3f\n", ep_log_z(m)))
res <- list()
for (nm in c("RM R=200", "ARM R=100 imax=10")) {
  t0 <- proc.time()[["elapsed"]]
  fits <- lapply(1:reps, function(r) { set.seed(9000 + r)
    if (nm == "RM R=200") arm(m, 200, variant = "rm", progress = FALSE) else arm(m, 100, i_max = 10, progress = FALSE) })
  tm <- (proc.time()[["elapsed"]] - t0) / reps
  lz <- vapply(fits, `[[`, 0, "log_z"); work <- mean(vapply(fits, function(f) f$counts[["particle_moves"]], 0))
  d <- do.call(rbind, lapply(fits, function(f) cbind(f$diagnostics, R = f$particles)))
  ex <- d$particles > d$R
  res[[nm]] <- list(sd = sd(lz), work = work, time = tm, d = d)
  cat(sprintf("  %-18s mean %.3f sd %.3f work %.0f time %.2f s; expanded %.1f iters/run, gamma0 med %.2f -> %.2f, reach thr %.0f%%; min gamma0 %.3f\n",
    nm, mean(lz), sd(lz), work, tm, sum(ex)/reps, median(d$gamma0[ex]), median(d$gamma[ex]), 100*mean(d$gamma[ex] >= .7), min(d$gamma0[d$n > 1])))
}
a <- res[[2]]; r <- res[[1]]; fq <- sqrt(qf(c(0.975, 0.025), reps - 1, reps - 1))
rw <- r$sd * sqrt(r$work / a$work) / a$sd; rt <- r$sd * sqrt(r$time / a$time) / a$sd
cat(sprintf("  RM sd / ARM sd at equal work %.2f (95%% CI %.2f-%.2f), equal time %.2f (%.2f-%.2f)\n", rw, rw/fq[1], rw/fq[2], rt, rt/fq[1], rt/fq[2]))
th <- theorem1_ceiling(r$d)
cat(sprintf("  Theorem 1 bound: %.2f (particles), %.2f (n^2 cost)\n", th$particles, th$n2))

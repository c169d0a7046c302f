# Focused ARM vs RM comparison at about equal particle-moves (30 repeats) on the
# two problems of bench/arm/arm_gpc.R: RM R=300 against ARM R=200 (i_max 10, and 50 as
# in the paper) and ARM-anticipate, with F-based 95% intervals for the sd ratio and
# the generate loop's gamma before (gamma0) and after expansion; last line per
# problem: the paper's Theorem 1 bound (best allocation of particles, independent
# samples) from the RM runs' v_n = 1 / gamma0 - 1.
# Run: R_LIBS=... Rscript bench/arm/arm_gpc_focus.R [repeats] > bench/arm/arm_gpc_focus.out
library(logz)
cat(paste0("BLAS: ", extSoftVersion()[["BLAS"]], "; LAPACK: ", La_library()), "\n")
args <- commandArgs(TRUE)
reps <- if (length(args)) as.integer(args[1]) else 30L
source("bench/arm/gpc_problems.R")
m1 <- mnist35_gpc(100)
m2 <- ionosphere_gpc(120)
settings <- list(
  "RM R=300"            = function(m) arm(m, 300, variant = "rm", progress = FALSE),
  "ARM R=200 imax=10"   = function(m) arm(m, 200, i_max = 10, progress = FALSE),
  "ARM R=150 imax=50"   = function(m) arm(m, 150, i_max = 50, progress = FALSE),
  "ARM-antic R=200 i10" = function(m) arm(m, 200, variant = "anticipate", i_max = 10, progress = FALSE))
for (pr in list(list("MNIST 3v5 n=100", m1), list("Ionosphere n=120", m2))) {
  m <- pr[[2]]
  cat(sprintf("== %s  (%d repeats)\n", pr[[1]], reps))
  res <- list()
  for (nm in names(settings)) {
    t0 <- proc.time()[["elapsed"]]
    fits <- lapply(seq_len(reps), function(r) { set.seed(5000 + r); settings[[nm]](m) })
    tm <- (proc.time()[["elapsed"]] - t0) / reps
    lz <- vapply(fits, `[[`, 0, "log_z")
    work <- mean(vapply(fits, function(f) f$counts[["particle_moves"]], 0))
    d <- do.call(rbind, lapply(fits, `[[`, "diagnostics"))
    R <- fits[[1]]$particles
    ex <- d$particles > R
    res[[nm]] <- list(sd = sd(lz), mean = mean(lz), work = work, time = tm, d = d, R = R)
    cat(sprintf("  %-20s mean %8.3f sd %.3f  work %7.0f  time %.2f s  mean R_n/R %.2f  expanded iters/run %.1f  gamma0|exp med %.2f -> gamma med %.2f, >= thr %.0f%%\n",
      nm, mean(lz), sd(lz), work, tm, mean(d$particles) / R, sum(ex) / reps,
      if (any(ex)) median(d$gamma0[ex]) else NA, if (any(ex)) median(d$gamma[ex]) else NA,
      if (any(ex)) 100 * mean(d$gamma[ex] >= 0.7) else NA))
  }
  rm <- res[["RM R=300"]]
  fq <- sqrt(qf(c(0.975, 0.025), reps - 1, reps - 1))
  for (nm in names(settings)[-1]) {
    a <- res[[nm]]
    rw <- rm$sd * sqrt(rm$work / a$work) / a$sd
    rt <- rm$sd * sqrt(rm$time / a$time) / a$sd
    cat(sprintf("  RM sd / %s sd at equal work %.2f (95%% CI %.2f-%.2f), at equal time %.2f (CI %.2f-%.2f)\n",
                nm, rw, rw / fq[1], rw / fq[2], rt, rt / fq[1], rt / fq[2]))
  }
  # Theorem 1 oracle: best possible sd reduction over fixed R at equal budget, iid samples
  th <- theorem1_ceiling(rm$d)
  cat(sprintf("  Theorem 1 oracle sd ratio (RM v_n averaged over runs): equal particles %.2f, equal n^2 cost %.2f; top 5 iterations hold %.0f%% of sum v_n\n\n",
    th$particles, th$n2, 100 * sum(sort(th$v, TRUE)[1:5]) / sum(th$v)))
}

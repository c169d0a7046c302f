# Where do ARM's extra particles go, and what do they buy? RM and ARM (R = 200,
# i_max = 10) under the same seeds on the two problems of bench/arm/arm_gpc.R: the
# variance over runs of each iteration's log Z increment, summed over the
# iterations ARM expands in at least half of the runs, against the particle
# multiplier there. Independent added particles would cut it by about that factor.
# Run: R_LIBS=... Rscript bench/archive/arm_gpc_blocks.R > bench/archive/arm_gpc_blocks.out
library(logz)
cat(paste0("BLAS: ", extSoftVersion()[["BLAS"]], "; LAPACK: ", La_library()), "\n")
reps <- 30L
source("bench/arm/gpc_problems.R")
m1 <- mnist35_gpc(100)
m2 <- ionosphere_gpc(120)
incr <- function(fits) sapply(fits, function(f) diff(c(0, f$diagnostics$log_z)))  # N x reps
for (pr in list(list("MNIST 3v5 n=100", m1), list("Ionosphere n=120", m2))) {
  m <- pr[[2]]
  rmf <- lapply(1:reps, function(r) { set.seed(7000 + r); arm(m, 200, variant = "rm", progress = FALSE) })
  arf <- lapply(1:reps, function(r) { set.seed(7000 + r); arm(m, 200, i_max = 10, progress = FALSE) })
  ir <- incr(rmf); ia <- incr(arf)
  pexp <- rowMeans(sapply(arf, function(f) f$diagnostics$particles > 200))
  hot <- which(pexp >= 0.5)
  vr <- apply(ir, 1, var); va <- apply(ia, 1, var)
  cat(sprintf("== %s: %d iterations where ARM expands in >= half of the runs (mean R_n/R there %.1f)\n",
      pr[[1]], length(hot), mean(sapply(arf, function(f) mean(f$diagnostics$particles[hot])))/200))
  cat(sprintf("  sum over them of var(increment): RM %.4f, ARM %.4f (ratio %.2f; 11 blocks of iid particles would give ~11)\n",
      sum(vr[hot]), sum(va[hot]), sum(vr[hot]) / sum(va[hot])))
  cat(sprintf("  var of total log Z: RM %.4f (sum of per-iteration vars %.4f), ARM %.4f (%.4f); work RM %.0f ARM %.0f\n",
      var(colSums(ir)), sum(vr), var(colSums(ia)), sum(va),
      rmf[[1]]$counts[["particle_moves"]], mean(sapply(arf, function(f) f$counts[["particle_moves"]]))))
  g <- do.call(rbind, lapply(arf, function(f) f$diagnostics))
  ex <- g$particles > 200
  cat(sprintf("  ARM expanded iterations: gamma0 quartiles %s; final gamma quartiles %s; hit i_max %.0f%%\n",
      paste(round(quantile(g$gamma0[ex], c(.25,.5,.75)), 2), collapse = "/"),
      paste(round(quantile(g$gamma[ex], c(.25,.5,.75)), 2), collapse = "/"), 100 * mean(g$particles[ex] == 2200)))
}

# A collapsed VAROPT pilot (issue 18): bench/varopt/schedules.R's seed-1 pilot of the
# "PCD(20) v1, uniform base" cell, rebuilt with the same seed. Its importance
# weights end on about one chain of 100, so the on-the-fly weighted variance of D
# is that of one chain and g(beta) drops towards 0 where that happens; VAROPT then
# takes steps far above 0.009 there (and the 0.009 cap binds), unlike with the
# pilots of bench/archive/schedules_g.R, whose weights stay spread.
# Run: nice -n 10 Rscript bench/archive/schedules_pilot_collapse.R > bench/archive/schedules_pilot_collapse.out
suppressPackageStartupMessages(library(logz))
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n\n")
K <- 10000L
m <- readRDS("bench/models/rbm20_pcd_v1.rds")$model
for (s in 1:2) {
  set.seed(1000L * s + 4L)   # bench/varopt/schedules.R's pilot seed for this cell
  p <- suppressWarnings(schedule_varopt(m, K, pilot_K = 1000, pilot_chains = 100, base = "uniform"))
  gd <- attr(p, "g")
  d <- diff(as.double(p))
  cat(sprintf(paste0("seed %d: pilot ESS %.2f of 100; fixed point converged: %s\n",
                     "  smoothed g at beta = 0, .5, .8, .9, .95, 1: %s (raw min %.3g at beta = %.3f)\n",
                     "  range max/min %.3g; VAROPT's largest step at K = %d: %.4f at beta = %.3f\n"),
              s, attr(p, "pilot")$ess, attr(attr(p, "convergence"), "converged"),
              paste(signif(gd$g[c(1, 501, 801, 901, 951, 1001)], 3), collapse = ", "),
              min(gd$g_raw), gd$beta[which.min(gd$g_raw)],
              max(gd$g) / min(gd$g), K, max(d), as.double(p)[which.max(d)]))
}

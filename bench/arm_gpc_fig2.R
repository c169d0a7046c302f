# The paper's Figure 2 protocol (Fraccaro et al. 2016): sd of log Z over repeated
# runs against work, RM and ARM, with EP's log Z as the reference line. Runs are
# made by bench/arm_gpc_fig2_run.R (one RDS per run in $FIG2_DIR), e.g.
#   FIG2_DIR=/tmp/fig2 R_LIBS=... OPENBLAS_NUM_THREADS=1 nice -n 10 \
#     Rscript bench/arm_gpc_fig2_run.R mnist767 rm100 1 2 3 ...
# and summarised here (without FIG2_DIR: the committed runs, bench/arm_gpc_fig2_runs.csv):
#   R_LIBS=... Rscript bench/arm_gpc_fig2.R > bench/arm_gpc_fig2.out
# Settings: rm<R> = RM; pool<R> = ARM, rule "pool_ess", i_max 50; block<R> = ARM,
# rule "per_block" (the text's), i_max 50. gamma_threshold 0.7, ess_threshold 0.9,
# one Gibbs sweep (random order) per move, data in a seeded random order, threads 1.
# Work = particle-moves (particle-sweeps); cost per iteration = work / (N - 1) / R.
# Equal-work ratio = sd(RM) sqrt(work_RM) / (sd(ARM) sqrt(work_ARM)) (sd ~ work^-1/2),
# with a bootstrap 95% interval (4000 resamples of each set of runs).
library(logz)
cat(logz:::blas_info(), "\n")
source("bench/gpc_problems.R")
dir <- Sys.getenv("FIG2_DIR")
if (nzchar(dir)) {
  runs <- lapply(list.files(dir, "\\.rds$", full.names = TRUE), readRDS)
  tab <- do.call(rbind, lapply(runs, function(r) data.frame(problem = r$problem, setting = r$setting,
    seed = r$seed, R = r$R, log_z = r$log_z, work = r$work, time = r$time, cpu = r$cpu,
    max_pool = max(r$diag$particles), expanded = sum(r$diag$particles > r$R),
    iter_gamma0_low = sum(r$diag$gamma0[r$diag$n > 1] < 0.7))))
  write.csv(tab, "bench/arm_gpc_fig2_runs.csv", row.names = FALSE)
} else {
  tab <- read.csv("bench/arm_gpc_fig2_runs.csv")
}
N <- c(mnist767 = 767, usps767 = 767)
ep <- c(mnist767 = ep_log_z(mnist35_gpc(767)))
for (p in unique(tab$problem)) {
  cat(sprintf("\n%s: EP log Z %s\n", p, if (p %in% names(ep)) sprintf("%.3f", ep[[p]]) else "not computed"))
  tp <- tab[tab$problem == p, ]
  res <- list()
  for (s in unique(tp$setting)) {
    r <- tp[tp$setting == s, ]
    res[[s]] <- r
    cat(sprintf("  %-9s R %3d  runs %2d  mean %8.2f  sd %5.2f  log mean Z %8.2f  work %7.0f  cost/iter %.2f R  cpu %5.1f s  expanded iters/run %5.1f  max pool median %5.0f  iters gamma0<0.7 /run %5.1f\n",
      s, r$R[1], nrow(r), mean(r$log_z), if (nrow(r) > 1) sd(r$log_z) else NA,
      logz:::log_sum_exp(r$log_z) - log(nrow(r)), mean(r$work), mean(r$work) / (N[[p]] - 1) / r$R[1],
      mean(r$cpu), mean(r$expanded), median(r$max_pool), mean(r$iter_gamma0_low)))
  }
  for (s in names(res)) cat(sprintf("  %-9s log Z: %s\n", s, paste(sprintf("%.2f", sort(res[[s]]$log_z)), collapse = " ")))
  arms <- grep("^(pool|block)", names(res), value = TRUE)
  rms <- grep("^rm", names(res), value = TRUE)
  for (b in arms) for (a in rms) {
    ra <- res[[a]]; rb <- res[[b]]
    if (nrow(ra) < 3 || nrow(rb) < 3) next
    k <- sqrt(mean(ra$work) / mean(rb$work))
    kt <- sqrt(mean(ra$cpu) / mean(rb$cpu))
    set.seed(1)
    bs <- replicate(4000, k * sd(sample(ra$log_z, replace = TRUE)) / sd(sample(rb$log_z, replace = TRUE)))
    cat(sprintf("  sd(%s) / sd(%s): at equal work %.2f (bootstrap 95%% %.2f-%.2f; %d and %d runs); at equal CPU time %.2f; unscaled %.2f\n",
      a, b, k * sd(ra$log_z) / sd(rb$log_z), quantile(bs, 0.025, na.rm = TRUE),
      quantile(bs, 0.975, na.rm = TRUE), nrow(ra), nrow(rb), kt * sd(ra$log_z) / sd(rb$log_z),
      sd(ra$log_z) / sd(rb$log_z)))
  }
}

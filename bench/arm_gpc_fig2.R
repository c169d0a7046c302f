# The paper's Figure 2 protocol (Fraccaro et al. 2016): sd of log Z over repeated
# runs against work, RM and ARM, with EP's log Z as the reference line. Runs are
# made by bench/arm_gpc_fig2_run.R, which appends one row per run to
# bench/arm_gpc_fig2_runs.csv, e.g.
#   R_LIBS=... OPENBLAS_NUM_THREADS=1 nohup nice -n 10 \
#     Rscript bench/arm_gpc_fig2_run.R mnist767 rm100 1 2 3 ... &
# and summarised here (also copies the csv to vignettes/ for vignette("arm")'s plot):
#   R_LIBS=... Rscript bench/arm_gpc_fig2.R > bench/arm_gpc_fig2.out
# Problems (bench/gpc_problems.R): mnist767 = mnist35_gpc(767), MNIST 3 vs 5 binary
# pixels pooled 2 x 2; usps767 = usps35_gpc(767), USPS-like grey 16 x 16 in [-1, 1].
# Settings: rm<R> = RM; pool<R> = ARM, rule "pool_ess", i_max 50; block<R> = ARM,
# rule "per_block" (the text's), i_max 50. gamma_threshold 0.7, ess_threshold 0.9,
# one Gibbs sweep (random order) per move, data in a seeded random order, threads 1.
# Work = particle-moves (particle-sweeps) per run; cost per iteration = work / (N - 1) / R.
# Equal-work ratio = sd(RM) sqrt(work_RM) / (sd(ARM) sqrt(work_ARM)) (sd ~ work^-1/2);
# "interpolated": RM's sd at ARM's work from the power law through two RM settings
# (sd ~ work^-a, a measured). MAD ratio: the same with median absolute deviations
# (robust to RM's rare collapsed runs). Bootstrap 95% intervals: 4000 resamples of each set of runs.
library(logz)
cat(logz:::blas_info(), "\n")
source("bench/gpc_problems.R")
tab <- read.csv("bench/arm_gpc_fig2_runs.csv")
invisible(file.copy("bench/arm_gpc_fig2_runs.csv", "vignettes/arm_gpc_fig2_runs.csv", overwrite = TRUE))
N <- c(mnist767 = 767, usps767 = 767)
ep <- c(mnist767 = ep_log_z(mnist35_gpc(767)), usps767 = ep_log_z(usps35_gpc(767)))
B <- 4000
bsd <- function(x) sd(sample(x, replace = TRUE))
q95 <- function(b) sprintf("%.2f-%.2f", quantile(b, 0.025, na.rm = TRUE), quantile(b, 0.975, na.rm = TRUE))
for (p in unique(tab$problem)) {
  cat(sprintf("\n%s: EP log Z %.3f\n", p, ep[[p]]))
  tp <- tab[tab$problem == p, ]
  res <- split(tp, tp$setting)
  res <- res[order(sub("[0-9]+$", "", names(res)) != "rm", sapply(res, function(r) r$R[1]))]
  cat("  setting   R    runs  mean log Z   sd (boot 95%)      log mean Z  work/run  cost/iter  CPU-s/run  sd*sqrt(work)  sd*sqrt(CPU-s)  expanded/run  max pool (median)\n")
  for (s in names(res)) {
    r <- res[[s]]
    set.seed(1)
    ci <- if (nrow(r) > 2) q95(replicate(B, bsd(r$log_z))) else "-"
    sdv <- if (nrow(r) > 1) sd(r$log_z) else NA
    cat(sprintf("  %-9s %3d  %4d  %9.2f  %6.2f (%-11s)  %9.2f  %8.0f  %5.2f R  %8.1f  %12.0f  %13.1f  %11.1f  %8.0f\n",
      s, r$R[1], nrow(r), mean(r$log_z), sdv, ci, logz:::log_sum_exp(r$log_z) - log(nrow(r)),
      mean(r$work), mean(r$work) / (N[[p]] - 1) / r$R[1], mean(r$cpu), sdv * sqrt(mean(r$work)),
      sdv * sqrt(mean(r$cpu)), mean(r$expanded), median(r$max_pool)))
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
    bs <- replicate(B, bsd(ra$log_z) / bsd(rb$log_z))
    cat(sprintf("  sd(%s) / sd(%s) at equal work %.2f (bootstrap 95%% %s); at equal CPU time %.2f (%s); unscaled %.2f; %d and %d runs, work ratio %.2f; MAD ratio at equal work %.2f\n",
      a, b, k * sd(ra$log_z) / sd(rb$log_z), q95(k * bs), kt * sd(ra$log_z) / sd(rb$log_z), q95(kt * bs),
      sd(ra$log_z) / sd(rb$log_z), nrow(ra), nrow(rb), mean(rb$work) / mean(ra$work),
      k * mad(ra$log_z) / mad(rb$log_z)))
  }
  # RM's measured scaling between two R, and RM's sd interpolated to ARM's work
  rms <- rms[sapply(res[rms], nrow) >= 3]
  if (length(rms) >= 2) {
    lo <- res[[rms[1]]]; hi <- res[[rms[length(rms)]]]
    wl <- mean(lo$work); wh <- mean(hi$work)
    ex <- -log(sd(hi$log_z) / sd(lo$log_z)) / log(wh / wl)
    cat(sprintf("  RM sd ~ work^-%.2f between %s and %s\n", ex, rms[1], rms[length(rms)]))
    for (b in arms) {
      rb <- res[[b]]
      if (nrow(rb) < 3) next
      f <- log(mean(rb$work) / wl) / log(wh / wl)   # position of ARM's work on RM's log-work line
      set.seed(1)
      bs <- replicate(B, exp((1 - f) * log(bsd(lo$log_z)) + f * log(bsd(hi$log_z))) / bsd(rb$log_z))
      cat(sprintf("    RM sd interpolated to %s's work %.0f: %.2f; / sd(%s) = %.2f (bootstrap 95%% %s)\n",
        b, mean(rb$work), exp((1 - f) * log(sd(lo$log_z)) + f * log(sd(hi$log_z))), b,
        exp((1 - f) * log(sd(lo$log_z)) + f * log(sd(hi$log_z))) / sd(rb$log_z), q95(bs)))
    }
  }
}

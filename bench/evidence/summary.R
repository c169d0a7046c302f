# The evidence benchmark's table, from the runs saved by bench/evidence/run.R
# and run_stan.R (bench/evidence/runs_*.rds): per model and method, the RMSE of
# log Z against the truth with a 95% bootstrap interval (2000 resamples of
# the seeds), bias, mean se, the fraction of runs with |z| <= 3 (z = error /
# se) and flagged unreliable, mean cost (density and gradient evaluations,
# draws included; CPU seconds of the run), and the ratios of RMSE, total
# evaluations and CPU to bridgesampling's row on the same model. The last
# block checks the issue's targets for logz's default call (the row marked
# "(default)": on R functions smc() with HMC from the Laplace base, what
# log_partition(f, gradient = g, start = ) runs); "RMSE at equal evals" scales its RMSE ratio by the square
# root of its cost ratio (the RMSE of runs as costly as bridge sampling's,
# if RMSE falls as 1/sqrt(cost)); "measured at equal cost" sets it against the
# row "bridgesampling at the default's cost" (run_equal_cost.R: bridgesampling
# given as many HMC draws as make its mean evaluations the default's, same
# seeds); the same for the rows of the previous default (the SMC estimate,
# before the bridge estimate; bench/evidence/retire_default.R) where they are
# saved. Run from the package root: Rscript bench/evidence/summary.R
source("bench/evidence/common.R")
bench_header("evidence benchmark: summary of the saved runs")
files <- Sys.glob("bench/evidence/runs_*.rds")
runs <- do.call(rbind, lapply(files, readRDS))
sonar <- "bench/evidence/sonar_reference.rds"
if (file.exists(sonar)) {
  ref <- readRDS(sonar)
  runs$truth[grepl("Sonar", runs$model)] <- ref$log_z
  cat(sprintf("Sonar reference log Z %.4f (se %.4f; run_sonar_ref.R)\n\n", ref$log_z, ref$se))
}
boot_ci <- function(e, B = 2000L) {
  set.seed(99)
  stats::quantile(replicate(B, sqrt(mean(sample(e, replace = TRUE)^2))), c(0.025, 0.975))
}
rows <- list()
for (m in unique(runs$model)) {
  r <- runs[runs$model == m & !is.na(runs$log_z), ]
  for (meth in unique(r$method)) {
    x <- r[r$method == meth, ]
    e <- x$log_z - x$truth
    ci <- boot_ci(e)
    rows[[length(rows) + 1L]] <- data.frame(
      model = m, method = meth, n = nrow(x), rmse = sqrt(mean(e^2)), lo = ci[[1]], hi = ci[[2]],
      bias = mean(e), mean_se = mean(x$se), cover = mean(abs(e) / x$se <= 3),
      flagged = mean(x$flagged), dens = mean(x$density), grad = mean(x$gradient),
      cpu = mean(x$cpu))
  }
}
tab <- do.call(rbind, rows)
tab$evals <- tab$dens + tab$grad
for (m in unique(tab$model)) {
  i <- tab$model == m
  b <- which(i & grepl("^bridgesampling \\(", tab$method))
  if (length(b) != 1L) next
  tab$rmse_x[i] <- tab$rmse[i] / tab$rmse[b]
  tab$evals_x[i] <- tab$evals[i] / tab$evals[b]
  tab$cpu_x[i] <- tab$cpu[i] / tab$cpu[b]
}
for (m in unique(tab$model)) {
  cat(sprintf("%s (true log Z %.4f)\n", m, runs$truth[runs$model == m][1]))
  cat(sprintf("  %-36s %3s %9s %19s %8s %7s %6s %5s %9s %9s %7s | %7s %7s %7s\n", "method", "n",
              "RMSE", "95% interval", "bias", "mean se", "|z|<=3", "flag", "dens", "grad",
              "CPU s", "RMSE x", "evals x", "CPU x"))
  for (j in which(tab$model == m)) with(tab[j, ], cat(sprintf(
    "  %-36s %3d %9.4f [%7.4f, %8.4f] %+8.4f %7.4f %6.2f %5s %9.0f %9.0f %7.2f | %7.3f %7.3f %7.3f\n",
    method, n, rmse, lo, hi, bias, mean_se, cover, if (is.na(flagged)) "-" else sprintf("%.2f", flagged),
    dens, grad, cpu, rmse_x, evals_x, cpu_x)))
  cat("\n")
}
cat("Targets for logz's default call (the \"(default)\" row): RMSE <= bridgesampling's at <= its total\n",
    "evaluations (strictly: both in the measured runs; scaled: RMSE at equal evals <= 1, taking\n",
    "RMSE as 1/sqrt(cost)), and |z| <= 3 in >= 95% of runs\n", sep = "")
for (m in unique(tab$model)) {
  d <- tab[tab$model == m & grepl("(default)", tab$method, fixed = TRUE), ]
  if (nrow(d) != 1L) next
  cat(sprintf("  %-36s %-8s RMSE x %6.2f, evals x %5.2f, CPU x %5.2f: %s; RMSE at equal evals x %5.2f: %s; coverage %.2f: %s\n", m,
              sub(" (default)", "", d$method, fixed = TRUE),
              d$rmse_x, d$evals_x, d$cpu_x,
              if (isTRUE(d$rmse_x <= 1 && d$evals_x <= 1)) "met" else "NOT met",
              d$rmse_x * sqrt(d$evals_x),
              if (isTRUE(d$rmse_x * sqrt(d$evals_x) <= 1)) "met" else "NOT met", d$cover,
              if (d$cover >= 0.95) "met" else "NOT met"))
}
cat("\nMeasured at equal cost: the default's RMSE against bridgesampling's with as many HMC draws as\n",
    "make its mean evaluations the default's (run_equal_cost.R; same seeds)\n", sep = "")
cat(sprintf("  %-36s %9s %9s %7s %9s %10s %9s  %s\n", "model", "default", "default", "default",
            "bridge", "bridge at", "evals", "default's RMSE <= bridge's at equal cost"))
cat(sprintf("  %-36s %9s %9s %7s %9s %10s %9s\n", "", "RMSE", "evals", "|z|<=3", "RMSE",
            "equal cost", ""))
pairs <- list(c("(default)", "bridgesampling at the default's cost", ""),
              c("SMC hmc (previous default: the SMC estimate)",
                "bridgesampling at the previous default's cost", " (previous default)"))
for (pr in pairs) for (m in unique(tab$model)) {
  d <- tab[tab$model == m & (if (pr[1] == "(default)") grepl(pr[1], tab$method, fixed = TRUE)
                             else tab$method == pr[1]), ]
  b <- tab[tab$model == m & grepl("^bridgesampling \\(", tab$method), ]
  e <- tab[tab$model == m & tab$method == pr[2], ]
  if (nrow(d) != 1L || nrow(b) != 1L || nrow(e) != 1L) next
  cat(sprintf("  %-36s %9.4f %9.0f %7.2f %9.4f %10.4f %9.0f  %s (ratio %.2f; n %d and %d)\n",
              paste0(m, pr[3]), d$rmse, d$evals, d$cover, b$rmse, e$rmse, e$evals,
              if (d$rmse <= e$rmse) "met" else "NOT met",
              d$rmse / e$rmse, d$n, e$n))
}
# the table of vignettes/evidence.Rmd
utils::write.csv(tab, "inst/extdata/evidence_bench.csv", row.names = FALSE)

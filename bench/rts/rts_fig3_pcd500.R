# Carlson et al. (2016), Figure 3 / Sec. 4.2 ("RTS at 10^3 sweeps is about as accurate as AIS at
# 10^4, both far better than AIS at 10^3"), rerun on the 784 x 500 PCD model of issue 18
# (bench/models/rbm500_pcd.rds, bench/training/train_rbm500.R). 100 chains for every method; base = the
# model's base_rate (the training digits' base rates, as the paper's p_1).
#   rts1e3       rts(), K = 100, pilot-started: pilot_sweeps 250 + burn_in 50 + 4 initial
#                iterations x 50 + 500 final sweeps = 10^3 sweeps per chain in all (the pilot is
#                rts()'s default start-up since this rerun; it is passed explicitly here).
#   rts1e3_paper rts(), K = 100, the paper's start-up: 10 x 50 initial + 500 (10^3 sweeps)
#   rts2000/4000 the rts1e3 start-up scaled to 2,000 / 4,000 sweeps per chain in all (pilot T/4,
#                burn-in 50, 4 x 50 initial, final T - T/4 - 250): bench/rts/rts_fig3_pcd500_alloc.R
#   rts_default  rts(model, estimators = "rts") at its defaults (1,800 sweeps); _m400 with 400 chains
#   rtsT_iI      pilot T/4 + burn-in 50 + I initial iterations x 50 + the rest final: the same
#                budget with a better ladder (bench/rts/rts_fig3_pcd500_alloc.R)
#   ais1e3/1e4   ais(), linear schedule with 10^3 / 10^4 steps, 1 sweep per step (ais()'s
#                default schedule is schedule_sm08(); the paper's Figure 3 AIS is linear)
# Runs: bench/rts/rts_fig3_pcd500_run.R (one csv line per run in bench/rts/rts_fig3_pcd500_runs.csv);
# reference: bench/rts/rts_fig3_pcd500_ref.R (forward/reverse AIS sandwich, bench/rts/rts_fig3_pcd500_ref.rds).
# Summary: Rscript bench/rts/rts_fig3_pcd500.R > bench/rts/rts_fig3_pcd500.out
suppressPackageStartupMessages(library(logz))
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
obj <- readRDS("bench/models/rbm500_pcd.rds")
ref <- readRDS("bench/rts/rts_fig3_pcd500_ref.rds")
lz_ref <- ref$mid
h <- ref$err
cat(sprintf("model: 784 x 500, %s\n", obj$recipe))
cat(sprintf(paste0("reference: %.3f +/- %.3f, the middle of %.3f to %.3f: from the 2.5%% bootstrap point of the\n",
                   "  forward-AIS lower bound (estimate %.3f) to the 97.5%% point of the reverse-AIS upper bound\n",
                   "  (estimate %.3f), %s steps (bench/rts/rts_fig3_pcd500_ref.out)\n\n"),
            lz_ref, h, ref$lower_lo, ref$upper_hi, ref$lower, ref$upper, ref$key))
runs <- utils::read.csv("bench/rts/rts_fig3_pcd500_runs.csv")
print(runs[, c("task", "seed", "sweeps", "log_z", "se", "reliable", "cpu_s")], row.names = FALSE,
      digits = 6)
set.seed(7)
B <- 4000L
q <- function(x) stats::quantile(x, c(0.025, 0.975), names = FALSE)
rmse <- function(e) sqrt(mean(e^2))
tasks <- c("rts1e3", "ais1e3", "ais1e4", "rts1e3_paper", "rts_default", "rts_default_m400",
           "rts2000", "rts4000", "rts1000_i8", "rts1000_i10", "rts2000_i10", "rts4000_i10")
boots <- list()
cat(paste0("\nmethod           sweeps runs flagged CPU s/run  bias (mean - ref) [95%]     sd over runs",
           "   RMSE vs ref [95%]      |err| < 1.96 se\n"))
for (tk in tasks) {
  d <- runs[runs$task == tk, ]
  if (!nrow(d)) next
  e <- d$log_z - lz_ref
  bi <- matrix(sample(e, B * length(e), replace = TRUE), B)
  boots[[tk]] <- sqrt(rowMeans(bi^2))
  cat(sprintf("%-16s %6.0f %4d %7d %9.1f  %+8.3f [%+7.3f, %+7.3f]  %8.3f   %7.3f [%.3f, %.3f]   %2d of %d\n",
              tk, mean(d$sweeps), nrow(d), sum(!d$reliable), mean(d$cpu_s), mean(e),
              q(rowMeans(bi))[1], q(rowMeans(bi))[2], stats::sd(d$log_z), rmse(e),
              q(boots[[tk]])[1], q(boots[[tk]])[2], sum(abs(e) < 1.96 * d$se), nrow(d)))
}
cat("\nflags by kind (runs carrying each):\n")
kinds <- c("ladder drift", "visit deficit", "outlier chain", "ESS/M", "Pareto k-hat", "mode")
for (tk in tasks) {
  d <- runs[runs$task == tk, ]
  if (!nrow(d)) next
  n <- vapply(kinds, function(k) sum(grepl(k, d$flags, fixed = TRUE)), 0)
  cat(sprintf("  %-16s %s\n", tk, paste(sprintf("%s %d", kinds[n > 0], n[n > 0]), collapse = ", ")))
}
e <- runs$log_z[runs$task == "rts1e3"] - lz_ref
dr <- grepl("ladder drift", runs$flags[runs$task == "rts1e3"])
cat(sprintf(paste0("  rts1e3: mean error of the %d runs with ladder drift %+.2f, of the %d without %s\n"),
            sum(dr), mean(e[dr]), sum(!dr), paste(sprintf("%+.2f", e[!dr]), collapse = " ")))
cat("\nRMSE ratios (bootstrap over each cell's runs independently, 95%):\n")
ratio <- function(a, b) if (!is.null(boots[[a]]) && !is.null(boots[[b]])) {
  r <- boots[[a]] / boots[[b]]
  cat(sprintf("  RMSE %-16s / RMSE %-7s %7.2f [%.2f, %.2f]\n", a, b,
              rmse(runs$log_z[runs$task == a] - lz_ref) / rmse(runs$log_z[runs$task == b] - lz_ref),
              q(r)[1], q(r)[2]))
}
ratio("rts1e3", "ais1e4"); ratio("rts1e3", "ais1e3"); ratio("ais1e3", "ais1e4")
ratio("rts1e3_paper", "ais1e4")
for (tk in tasks[grepl("^rts([0-9]{4}|_default)", tasks)]) ratio(tk, "ais1e4")
cat(paste0("\nRobustness to the reference's error: bias and RMSE with the reference at the ends of its range\n",
           "(first and last rows), at the two bounds' point estimates and at its middle (sorted)\n"))
cat("  reference        rts1e3 bias/RMSE   ais1e3 bias/RMSE   ais1e4 bias/RMSE   RMSE rts1e3 / ais1e4\n")
for (rv in sort(c(ref$lower_lo, ref$lower, lz_ref, ref$upper, ref$upper_hi))) {
  st <- sapply(c("rts1e3", "ais1e3", "ais1e4"), function(tk) {
    e <- runs$log_z[runs$task == tk] - rv
    c(mean(e), rmse(e))
  })
  cat(sprintf("  %9.3f        %+6.2f / %5.2f      %+6.2f / %5.2f      %+6.2f / %5.2f      %5.2f\n", rv,
              st[1, 1], st[2, 1], st[1, 2], st[2, 2], st[1, 3], st[2, 3], st[2, 1] / st[2, 3]))
}
dm <- function(a, b) {
  x <- runs$log_z[runs$task == a]; y <- runs$log_z[runs$task == b]
  bt <- replicate(B, mean(sample(x, replace = TRUE)) - mean(sample(y, replace = TRUE)))
  cat(sprintf("  mean %-7s - mean %-7s %+7.3f [95%% %+.3f, %+.3f] (reference-free)\n", a, b,
              mean(x) - mean(y), q(bt)[1], q(bt)[2]))
}
cat("\n"); dm("rts1e3", "ais1e4"); dm("ais1e3", "ais1e4"); dm("rts4000", "ais1e4"); dm("rts4000_i10", "ais1e4")
cpu <- tapply(runs$cpu_s, runs$task, mean)
cat("CPU per run relative to AIS 10^4:",
    paste(sprintf("%s %.2f", setdiff(intersect(tasks, names(cpu)), "ais1e4"),
                  cpu[setdiff(intersect(tasks, names(cpu)), "ais1e4")] / cpu[["ais1e4"]]),
          collapse = ", "), "\n")
cat(sprintf(paste0("\nThe reference's own error (+/- %.3f: range %.2f to %.2f) enters every bias and RMSE above;\n",
                   "the rows at the ends show how far.\n"), h, ref$lower_lo, ref$upper_hi))
cat(paste0("\nPaper (Carlson et al. 2016, Figure 3, 784 x 500 MNIST RBM, 16 repeats, 100 chains): RTS at\n",
           "10^3 sweeps about as accurate as AIS at 10^4, both far better than AIS at 10^3.\n"))

# Summary of bench/archive/rts_fig3_pcd500_diag.R (sourced by it when called without arguments).
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
d <- utils::read.csv("bench/archive/rts_fig3_pcd500_diag.csv")
ref <- readRDS("bench/rts/rts_fig3_pcd500_ref.rds")
runs <- utils::read.csv("bench/rts/rts_fig3_pcd500_runs.csv")
cat(sprintf("reference log Z %.3f +/- %.3f (bench/rts/rts_fig3_pcd500_ref.out)\n", ref$mid, ref$err))
a <- d[d$tag == "rts1e3", ]
a$err <- a$log_z_a - ref$mid
cat(paste0("\n(1) rts1e3 replayed (pilot 250 + burn-in 50 + 4 x 50 initial + 500 final sweeps, K = 100,\n",
           "100 chains; the same seeds as bench/rts/rts_fig3_pcd500_runs.csv, same log Z): A = the run,\n",
           "B = its final run replayed from the same states and ladder with fresh random streams;\n",
           "E1..E4 = the initial iterations' RTS estimates at beta = 1 (E4 = the final run's ladder)\n\n"))
tab <- data.frame(seed = a$seed, A = a$log_z_a, B = a$log_z_b, se16 = a$se16, err_A = a$err,
                  pilot = a$ladder_pilot, E1 = a$ladder_it1, E2 = a$ladder_it2, E3 = a$ladder_it3,
                  E4 = a$ladder_final, A_minus_E4 = a$log_z_a - a$ladder_final,
                  neff_K = a$neff_K, top_share_K = a$top_share_K)
print(tab, digits = 5, row.names = FALSE)
m <- (a$log_z_a + a$log_z_b) / 2
fit <- stats::lm(m ~ a$ladder_final)
cat(sprintf(paste0("\nspread over the 16 runs: sd(A) %.3f, sd(B) %.3f; mean Eq. 16 se %.3f\n",
  "final-run-only noise (same start, fresh streams): sd(A - B) / sqrt(2) = %.3f (rms %.3f):\n",
  "  Eq. 16 covers the final run's own noise (it is even %.1fx larger); time batches (10 x 50 sweeps)\n",
  "  give sd / sqrt(10) = %.3f on average, drift first -> second half %+.3f (sd %.3f over runs)\n",
  "so the missing spread comes from the start (states and ladder carried into the final run):\n",
  "  the final run's ladder E4 is %+.2f nats off the reference on average (sd %.2f over runs; the\n",
  "  pilot's %+.2f, sd %.2f); the estimate (mean of A and B) against E4: correlation %.2f, slope %.2f\n",
  "  var over runs %.3f = Eq. 16 %.3f + slope^2 var(E4) %.3f + rest %.3f\n"),
  sd(a$log_z_a), sd(a$log_z_b), mean(a$se16), sd(a$log_z_a - a$log_z_b) / sqrt(2),
  sqrt(mean((a$log_z_a - a$log_z_b)^2) / 2), mean(a$se16) / (sd(a$log_z_a - a$log_z_b) / sqrt(2)),
  mean(a$sd_batch / sqrt(10)), mean(a$half2 - a$half1), sd(a$half2 - a$half1),
  mean(a$ladder_final) - ref$mid, sd(a$ladder_final), mean(a$ladder_pilot) - ref$mid,
  sd(a$ladder_pilot), stats::cor(a$ladder_final, m), coef(fit)[2], stats::var(a$log_z_a),
  mean(a$se16^2), coef(fit)[2]^2 * stats::var(a$ladder_final),
  stats::var(a$log_z_a) - mean(a$se16^2) - coef(fit)[2]^2 * stats::var(a$ladder_final)))
sh <- d[d$tag == "shift", ]
if (nrow(sh)) {
  sens <- (sh$log_z_up - sh$log_z_down) / (2 * sh$shift)
  cat(sprintf(paste0("\n(2) ladder tilt (seeds %d-%d): final runs from A's states with A's random streams, the ladder\n",
    "tilted by +/- %.1f nats at beta = 1 (log Z_hat_k + / - %.1f beta_k). At equilibrium Eq. 12 does not\n",
    "depend on the ladder. Change of the estimate per nat of tilt: %s\n",
    "  mean %.2f (se %.2f): the final run keeps %.0f%% of its ladder's error; with E4 %.2f nats off,\n",
    "  that is %+.2f nats of the %+.2f bias\n"),
    min(sh$seed), max(sh$seed), sh$shift[1], sh$shift[1], paste(sprintf("%.2f", sens), collapse = " "),
    mean(sens), stats::sd(sens) / sqrt(length(sens)), 100 * mean(sens),
    mean(a$ladder_final) - ref$mid, mean(sens) * (mean(a$ladder_final) - ref$mid), mean(a$err)))
}
sp <- d[d$tag == "span", ]
if (nrow(sp) && "frac_span" %in% names(sp))
  cat(sprintf(paste0("\n(3) mixing over temperatures in the final run (seeds %s): share of chains that sat both in\n",
    "the lowest and the highest quarter of the ladder %s; mean range of rungs visited per chain %s of 99.\n",
    "Chains at k = K: effective number (sum c)^2 / sum c^2 %.1f-%.1f of 100, largest single-chain share\n",
    "%.0f-%.0f%% (the outlier-chain flag needs > 50%%). So k mixes across the ladder and no single chain\n",
    "dominates; the stage estimates (E1..E4, A) climb by about 1 nat per stage instead: the x-states\n",
    "relax more slowly than the stages, and each stage keeps part of its ladder's (low) error.\n"),
    paste(sp$seed, collapse = ", "), paste(sprintf("%.2f", sp$frac_span), collapse = ", "),
    paste(sprintf("%.0f", sp$mean_krange), collapse = ", "), min(a$neff_K), max(a$neff_K),
    100 * min(a$top_share_K), 100 * max(a$top_share_K)))
r <- runs[runs$task == "rts1e3", ]
if (nrow(r)) {
  dr <- grepl("ladder drift", r$flags)
  cat(sprintf(paste0("\n(4) the ladder-drift flag of rts() (final estimate against each of the last three initial\n",
    "iterations' estimates, |z| > 3 on the combined Eq. 16 se) on the 16 rts1e3 runs of\n",
    "bench/rts/rts_fig3_pcd500_runs.csv: %d of %d flagged; errors of the unflagged runs: %s\n"),
    sum(dr), nrow(r), if (any(!dr)) paste(sprintf("%+.2f", r$log_z[!dr] - ref$mid), collapse = " ") else "none"))
  cat(sprintf("    coverage of the Eq. 16 se on these runs: %d of %d within 1.96 se of the reference\n",
              sum(abs(r$log_z - ref$mid) < 1.96 * r$se), nrow(r)))
}
cat(paste0("\nGood case (bench/rts/rts_drift_good.R/.out): rts() defaults, K = 50, 50 chains,\n",
           "800 sweeps on the 784 x 20 PCD RBM (exact log Z), 30 seeds: coverage 27/30, mean |z| 0.85,\n",
           "drift flag 0/30; tests/testthat/test-rts-drift.R checks coverage and the flag.\n"))

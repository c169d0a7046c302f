# Figure 2's equal-work comparison judged by RMSE against a reference log Z as well as by spread, on
# both 767-point problems (usps767, then mnist767): RM with R = 133 (rm133) against ARM with R = 100
# (pool100, rule "pool_ess"), the same code and work within 1.5% (bench/arm/arm_gpc_fig2.R), runs
# from bench/arm/arm_gpc_fig2_runs.csv.
# Reference, per problem: two long runs of different methods, ARM with R = 500 (pool500, log of the
# mean Z of its runs) and AIS-HMC started from EP (hmcep100, 104,000 gradient evaluations); their
# mean, with half their difference as its uncertainty; the RMSE is also shown against EP's log Z,
# against each of the two alone and against RM with R = 500 (rm500, log of the mean Z of its runs).
# Ratios RM / ARM (> 1: ARM better) with 95% percentile bootstrap intervals (each cell resampled
# independently, 4000 draws). Sections: all runs; the first 40 seeds a cell (rm133 seeds
# <= 140, pool100 seeds <= 40); the runs added after them. The tail check removes from each cell its
# k runs farthest from the reference (k = 0, 1, 2, 4, 8), inside every bootstrap draw as well, and
# plots the ratios against k (bench/arm/arm_gpc_fig2_tail_<problem>.png): does the verdict rest on a
# few collapsed runs?
# Run: R_LIBS=<lib> Rscript bench/arm/arm_gpc_fig2_rmse.R > bench/arm/arm_gpc_fig2_rmse.out
suppressPackageStartupMessages(library(logz))
commit <- suppressWarnings(tryCatch(system("git rev-parse --short HEAD", intern = TRUE, ignore.stderr = TRUE),
                                    error = function(e) "?"))
cat(sprintf("# command: R_LIBS=<lib> Rscript bench/arm/arm_gpc_fig2_rmse.R > bench/arm/arm_gpc_fig2_rmse.out\n# %s UTC; commit %s (+ working tree); logz %s\n",
            format(Sys.time(), tz = "UTC"), commit[1], packageVersion("logz")))
cat(sprintf("R BLAS: %s\nR LAPACK: %s\n\n", extSoftVersion()[["BLAS"]], La_library()))
runs <- utils::read.csv("bench/arm/arm_gpc_fig2_runs.csv")
# vignette("arm") reads the runs installed with the package
invisible(file.copy("bench/arm/arm_gpc_fig2_runs.csv", "inst/extdata/arm_gpc_fig2_runs.csv", overwrite = TRUE))
source("bench/arm/gpc_problems.R")
problems <- list(usps767 = function() usps35_gpc(767), mnist767 = function() mnist35_gpc(767))
lme <- function(x) logz:::log_sum_exp(x) - log(length(x))
q95 <- function(x) stats::quantile(x, c(0.025, 0.975), names = FALSE, na.rm = TRUE)
ks <- c(0, 1, 2, 4, 8)
summary_rows <- NULL

analyse <- function(p) {
  d <- runs[runs$problem == p, ]
  p500 <- d$log_z[d$setting == "pool500"]
  hmc <- d$log_z[d$setting == "hmcep100"]
  rm500 <- d$log_z[d$setting == "rm500"]
  ep <- ep_log_z(problems[[p]]())
  ref <- mean(c(lme(p500), lme(hmc)))
  cat(sprintf("######## %s\n", p))
  cat(sprintf(paste0("reference log Z %.3f +/- %.3f: pool500 %.3f (log mean Z of %d runs; mean %.3f, sd %.3f) and ",
                     "hmcep100 %.3f (%d run%s); EP %.3f; rm500 %.3f (log mean Z of %d runs) is %.1f nats %s it\n\n"),
              ref, abs(lme(p500) - lme(hmc)) / 2, lme(p500), length(p500), mean(p500), sd(p500),
              lme(hmc), length(hmc), if (length(hmc) == 1) "" else "s", ep, lme(rm500), length(rm500),
              abs(ref - lme(rm500)), if (lme(rm500) < ref) "below" else "above"))
  rmse <- function(x, r = ref) sqrt(mean((x - r)^2))
  stats_of <- list(RMSE = function(x) rmse(x), sd = sd, MAD = mad)
  # x without its k values farthest from the reference
  trim <- function(x, k) if (k == 0) x else x[-order(abs(x - ref), decreasing = TRUE)[seq_len(k)]]
  # ratio f(a) / f(b) after trimming k from each cell, and its bootstrap interval
  boot_ratio <- function(a, b, f, k = 0, draws = 4000) {
    set.seed(1)
    bt <- replicate(draws, f(trim(sample(a, replace = TRUE), k)) / f(trim(sample(b, replace = TRUE), k)))
    c(ratio = f(trim(a, k)) / f(trim(b, k)), setNames(q95(bt), c("lo", "hi")))
  }
  report <- function(A, B, label) {
    a <- A$log_z; b <- B$log_z
    cat(sprintf("== %s %s: rm133 %d runs (seeds %d-%d), pool100 %d runs (seeds %d-%d)\n", p, label,
                length(a), min(A$seed), max(A$seed), length(b), min(B$seed), max(B$seed)))
    cat(sprintf("  CPU-s a run (median): rm133 %.1f  pool100 %.1f;  work a run (mean): rm133 %.0f  pool100 %.0f\n",
                stats::median(A$cpu), stats::median(B$cpu), mean(A$work), mean(B$work)))
    cat(sprintf("  rm133   mean %.3f  median %.3f  min %.2f  |  pool100 mean %.3f  median %.3f  min %.2f\n",
                mean(a), stats::median(a), min(a), mean(b), stats::median(b), min(b)))
    cat(sprintf("  log mean Z (the paper's left panel): rm133 %.3f  pool100 %.3f  (reference %.3f)\n",
                lme(a), lme(b), ref))
    out <- list()
    for (k in names(stats_of)) {
      f <- stats_of[[k]]
      r <- boot_ratio(a, b, f)
      out[[k]] <- r
      cat(sprintf("  %-4s rm133 %7.3f  pool100 %7.3f  ratio %5.2f [%.2f, %.2f]\n", k, f(a), f(b),
                  r[["ratio"]], r[["lo"]], r[["hi"]]))
    }
    for (r in list(c("EP", ep), c("pool500 alone", lme(p500)), c("hmcep100 alone", lme(hmc)),
                   c("rm500", lme(rm500)))) {
      rr <- as.numeric(r[2])
      cat(sprintf("  RMSE against %-15s rm133 %6.3f  pool100 %6.3f  ratio %5.2f\n", r[1], rmse(a, rr),
                  rmse(b, rr), rmse(a, rr) / rmse(b, rr)))
    }
    cat("\n")
    invisible(out)
  }
  A <- d[d$setting == "rm133", ]
  B <- d[d$setting == "pool100", ]
  first_a <- A$seed <= 140; first_b <- B$seed <= 40
  all_r <- report(A, B, "all runs")
  report(A[first_a, ], B[first_b, ], "the first 40 seeds a cell")
  if (any(!first_a) && any(!first_b))
    report(A[!first_a, ], B[!first_b, ], "the runs added after the first 40 seeds")

  groups <- list(all = list(A$log_z, B$log_z), first40 = list(A$log_z[first_a], B$log_z[first_b]),
                 added = list(A$log_z[!first_a], B$log_z[!first_b]))
  tail_tab <- do.call(rbind, lapply(names(groups), function(g) do.call(rbind, lapply(ks, function(k)
    do.call(rbind, lapply(names(stats_of), function(s) {
      r <- boot_ratio(groups[[g]][[1]], groups[[g]][[2]], stats_of[[s]], k, draws = 2000)
      data.frame(runs = g, k = k, stat = s, ratio = r[["ratio"]], lo = r[["lo"]], hi = r[["hi"]])
    }))))))
  cat(sprintf("== %s tail check: ratio RM / ARM with each cell's k runs farthest from the reference removed\n", p))
  cat("   (trimmed inside each of 2000 bootstrap draws too; 95% percentile intervals)\n")
  for (g in names(groups)) {
    cat(sprintf("  %s runs (rm133 %d, pool100 %d):\n", g, length(groups[[g]][[1]]), length(groups[[g]][[2]])))
    for (s in names(stats_of)) {
      t <- tail_tab[tail_tab$runs == g & tail_tab$stat == s, ]
      cat(sprintf("    %-4s %s\n", s, paste(sprintf("k=%d %.2f [%.2f, %.2f]", t$k, t$ratio, t$lo, t$hi),
                                            collapse = "  ")))
    }
  }
  far <- function(x, k) sort(x[order(abs(x - ref), decreasing = TRUE)[seq_len(k)]])
  cat(sprintf("  all runs, the %d removed at k = %d: rm133 %s; pool100 %s\n", max(ks), max(ks),
              paste(sprintf("%.1f", far(A$log_z, max(ks))), collapse = " "),
              paste(sprintf("%.1f", far(B$log_z, max(ks))), collapse = " ")))
  cat("\n")

  png_file <- sprintf("bench/arm/arm_gpc_fig2_tail_%s.png", p)
  png(png_file, width = 900, height = 450, res = 110)
  op <- par(mfrow = c(1, 3), mar = c(4, 4, 2, 0.5), oma = c(1.5, 0, 1.5, 0), mgp = c(2.4, 0.8, 0))
  cols <- c(all = "black", first40 = "steelblue", added = "darkorange")
  off <- c(all = 0, first40 = -0.15, added = 0.15)
  for (s in names(stats_of)) {
    t <- tail_tab[tail_tab$stat == s, ]
    v <- c(t$ratio, t$lo, t$hi, 0.8)
    lim <- range(v[is.finite(v) & v > 0])
    t$lo <- pmax(t$lo, lim[1]); t$hi <- pmin(t$hi, lim[2])
    plot(range(seq_along(ks)) + c(-0.3, 0.3), lim, type = "n", log = "y", xaxt = "n",
         xlab = "k (runs removed a cell)", ylab = sprintf("%s ratio RM133 / ARM100", s), main = s)
    axis(1, seq_along(ks), ks)
    abline(h = 1, lty = 2)
    abline(h = 2, lty = 3, col = "grey50")
    for (g in names(groups)) {
      u <- t[t$runs == g, ]
      x <- match(u$k, ks) + off[[g]]
      segments(x, u$lo, x, u$hi, col = cols[[g]])
      points(x, u$ratio, pch = 16, col = cols[[g]], type = "b")
    }
  }
  mtext(sprintf("%s at equal work: RM / ARM with each cell's k runs farthest from the reference removed (95%% bootstrap intervals)", p),
        outer = TRUE, cex = 0.8)
  par(fig = c(0, 1, 0, 1), oma = c(0, 0, 0, 0), mar = c(0, 0, 0, 0), new = TRUE)
  plot.new()
  legend("bottom", horiz = TRUE, bty = "n", cex = 0.8, col = cols, pch = 16, lty = 1,
         legend = sprintf("%s (rm133 %d / pool100 %d runs)", c("all runs", "first 40 seeds", "added after"),
                          sapply(groups, function(x) length(x[[1]])), sapply(groups, function(x) length(x[[2]]))))
  par(op)
  invisible(dev.off())
  cat(sprintf("wrote %s (dashed: ratio 1; dotted: the paper's 'about 2' for the sd)\n\n", png_file))

  n_a <- nrow(A); n_b <- nrow(B)
  if (min(n_a, n_b) < 80) {
    cat(sprintf("Not run on %s: the paper's 80 runs a cell (rm133 %d, pool100 %d here; each run %.0f-%.0f CPU-s,\n",
                p, n_a, n_b, stats::quantile(c(A$cpu, B$cpu), 0.1), stats::quantile(c(A$cpu, B$cpu), 0.9)))
    cat("the 10th-90th percentile, at one thread on a shared 2-core machine).\n\n")
  } else {
    cat(sprintf("Runs a cell on %s: rm133 %d, pool100 %d (the paper's 80).\n\n", p, n_a, n_b))
  }
  k8 <- tail_tab[tail_tab$runs == "all" & tail_tab$k == 8 & tail_tab$stat == "RMSE", ]
  summary_rows <<- rbind(summary_rows, data.frame(
    problem = p, runs = sprintf("%d/%d", n_a, n_b), reference = round(ref, 2), ref_pm = round(abs(lme(p500) - lme(hmc)) / 2, 2),
    RMSE = sprintf("%.2f [%.2f, %.2f]", all_r$RMSE[["ratio"]], all_r$RMSE[["lo"]], all_r$RMSE[["hi"]]),
    sd = sprintf("%.2f [%.2f, %.2f]", all_r$sd[["ratio"]], all_r$sd[["lo"]], all_r$sd[["hi"]]),
    MAD = sprintf("%.2f [%.2f, %.2f]", all_r$MAD[["ratio"]], all_r$MAD[["lo"]], all_r$MAD[["hi"]]),
    RMSE_k8 = sprintf("%.2f [%.2f, %.2f]", k8$ratio, k8$lo, k8$hi)))
}
for (p in names(problems)) analyse(p)

cat("######## summary: ratios RM133 / ARM100 at equal work, all runs (95% bootstrap intervals)\n")
print(summary_rows, row.names = FALSE, right = FALSE)
cat(paste0("\nPaper (Figure 2, USPS 3 vs 5, 767 points; 80 runs a cell; no MNIST panel): ARM's estimates spread\n",
           "less than RM's at equal time (about half), and both approach the AIS-HMC-from-EP reference as work grows.\n"))

# The setting of the coverage test in tests/testthat/test-rts_groups.R ("the
# default se of rts() covers ..."): rts() on 3 x 5 Ising grids
# (ising_grid(3, 5, coupling = 1.2, field = 0.1), whose couplings and fields
# are drawn after set.seed(model seed); exact log Z by enumeration of 2^15
# states), K = 4, 100 chains,
# a 2-sweep pilot, no burn-in, one initial iteration of 5 sweeps and a final
# run of 10 sweeps, seeds 1-100 (set.seed(s) before each run). Short runs on a
# strongly coupled model leave each run's ladder and start in its estimate;
# Eq. 16 sees neither, the spread between independent groups does. Each seed
# runs twice: all chains in one group (groups = 1, the Eq. 16 se) and the
# default groups (4 groups of 25 chains). Prints, per path, the mean error,
# RMSE, mean se, the share of runs with |z| <= 2 and |z| <= 3 (z = error / se),
# the share flagged, CPU seconds, and whether the test's thresholds pass, for
# model seeds 1-6 (every model scanned is printed; the test uses the first).
# For the default path it also prints the coverage of the same runs with the
# Eq. 16 part of their se alone, which separates the se's share of the gain
# from the estimate's (one group of 100 chains is more biased here than the
# mean of four groups of 25).
#   Rscript bench/rts/rts_se_coverage.R > bench/rts/rts_se_coverage.out
suppressPackageStartupMessages(library(logz))
cat(sprintf("logz %s; R %s; BLAS: %s; LAPACK: %s\n", utils::packageVersion("logz"), getRversion(),
            extSoftVersion()[["BLAS"]], La_library()))
cat(sprintf("date %s; commit %s\n", format(Sys.time(), tz = "UTC", usetz = TRUE),
            tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) NA)))
cover <- function(g, ex, groups, seeds = 1:100) {
  t0 <- proc.time()
  r <- vapply(seeds, function(s) {
    set.seed(s)
    f <- suppressWarnings(rts(g, K = 4, n_chains = 100, sweeps = 10, init_iter = 1,
                              init_sweeps = 5, pilot_sweeps = 2, burn_in = 0, groups = groups,
                              estimators = "rts", progress = FALSE),
                          classes = "logz_unreliable")
    c(f$log_z - ex, f$se, length(f$flags) > 0,
      if (is.null(f$se_parts)) f$se else f$se_parts[["eq16"]])
  }, numeric(4))
  cpu <- sum((proc.time() - t0)[c("user.self", "sys.self")])
  z <- r[1, ] / r[2, ]
  z16 <- r[1, ] / r[4, ]
  list(err = r[1, ], se = r[2, ], z = z, flagged = mean(r[3, ]), cpu = cpu,
       cov2 = mean(abs(z) <= 2), cov3 = mean(abs(z) <= 3),
       cov2_16 = mean(abs(z16) <= 2), cov3_16 = mean(abs(z16) <= 3))
}
cat("K = 4, 100 chains, sweeps 10, init 1 x 5, pilot 2, burn-in 0; run seeds 1-100\n")
cat("test thresholds: |z| <= 3 in >= 0.90 of runs and |z| <= 2 in >= 0.70\n\n")
for (ms in as.integer(strsplit(Sys.getenv("BENCH_MODEL_SEEDS", "1,2,3,4,5,6"), ",")[[1]])) {
  set.seed(ms)
  g <- ising_grid(3, 5, coupling = 1.2, field = 0.1)
  ex <- as.numeric(exact_log_z(g))
  cat(sprintf("model seed %d: exact log Z %.6f\n", ms, ex))
  for (G in list(1L, NULL)) {
    res <- cover(g, ex, G)
    cat(sprintf(paste0("  groups = %-7s mean error %+.4f, RMSE %.4f, mean se %.4f, |z| <= 2: %.2f, ",
                       "|z| <= 3: %.2f, flagged %.2f, %.1f CPU s; test %s\n"),
                if (is.null(G)) "default" else "1", mean(res$err), sqrt(mean(res$err^2)),
                mean(res$se), res$cov2, res$cov3, res$flagged, res$cpu,
                if (res$cov3 >= 0.9 && res$cov2 >= 0.7) "passes" else "FAILS"))
    if (is.null(G))
      cat(sprintf("    the same default runs with their Eq. 16 part alone as se: |z| <= 2: %.2f, |z| <= 3: %.2f\n",
                  res$cov2_16, res$cov3_16))
  }
}

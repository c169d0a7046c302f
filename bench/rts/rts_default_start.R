# rts() start-up: the paper's (pilot_sweeps = 0) against the annealing pilot that is
# the default since this session (pilot_sweeps = NULL: round(sweeps / 4) = 250 sweeps at
# the default 1,000), plain calls otherwise (default base, K, chains, sweeps).
# References: exact log Z 202.336 (784 x 20 PCD, enumeration); 430.48 +- 0.41 for the
# 784 x 500 PCD model (forward/reverse AIS sandwich, bench/rts/rts_fig3_pcd500_ref.out).
# Run: OPENBLAS_NUM_THREADS=1 Rscript bench/rts/rts_default_start.R > bench/rts/rts_default_start.out
suppressPackageStartupMessages(library(logz))
cat("LAPACK:", La_library(), "\nBLAS:  ", extSoftVersion()[["BLAS"]], "\n")
cat(R.version.string, "|", format(Sys.time(), "%Y-%m-%d %H:%M"), "| load average:",
    readLines("/proc/loadavg"), "\n\n")
cases <- list(list(file = "rbm20_pcd.rds", ref = 202.336, seeds = 1:4),
              list(file = "rbm500_pcd.rds", ref = 430.48, seeds = 1:2))
for (cs in cases) {
  mod <- readRDS(file.path("bench/models", cs$file))
  if (!inherits(mod, "rbm")) mod <- mod$model
  for (s in cs$seeds) for (ps in list(0L, NULL)) {
    set.seed(s)
    t <- system.time(r <- suppressWarnings(rts(mod, pilot_sweeps = ps, progress = FALSE)))
    cat(sprintf("%-15s seed %d %-22s log Z %8.3f (ref %.3f, error %+7.3f) se %.3f reliable %-5s %5.1f CPU-s\n",
                cs$file, s, if (is.null(ps)) "pilot (default NULL)" else "paper start (0)",
                r$log_z, cs$ref, r$log_z - cs$ref, r$se, r$reliable,
                t[["user.self"]] + t[["sys.self"]]))
  }
}

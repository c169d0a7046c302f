# Cost of the auto base's pilot (logz_base(rbm(W, a, b))) with successive
# halving: each candidate gets 10 chains of schedule_sm08(1000), those within
# 5 nats + 3 se of the best 20 more. Before halving: 3 x 30 x 1000 = 90,000
# AIS sweeps (4 x 30 x 1000 = 120,000 with the mode candidate); a default
# ais() is 100 x 14,500 = 1,450,000 sweeps, a default rts() 100,000.
# Run: OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/ais/base_default_pilot.R > bench/ais/base_default_pilot.out 2>&1
suppressPackageStartupMessages(library(logz))
cat(sprintf("LAPACK: %s; BLAS: %s\n", La_library(), extSoftVersion()[["BLAS"]]))
cpu <- function() sum(proc.time()[c("user.self", "sys.self")])
for (f in c("rbm20_cd1_v1", "rbm20_pcd_v1", "rbm20_cd25")) {
  x <- readRDS(file.path("bench/models", paste0(f, ".rds"))); m <- rbm(x$model$W, x$model$a, x$model$b)
  set.seed(7); t0 <- cpu(); b <- suppressWarnings(logz_base(m)); t <- cpu() - t0
  cat(sprintf("%s: chosen %s; pilot chains %s -> %d AIS sweeps + 10000 Gibbs; %.1f s CPU\n", f, b$type,
      paste(sprintf("%s %d", b$pilot$type, b$pilot$chains), collapse = ", "), sum(b$pilot$chains) * 1000L, t))
}

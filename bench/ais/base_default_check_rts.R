# Default rts() on Kiwaki's CD-1 784 x 20 model (bench/models/rbm20_cd1_v1.rds),
# bare weights (auto base) and trained (data base), seeds 1-3: only the mode
# bound check applies to rts() (the occupancy check is ais()'s), margin 0.1
# nats + 3 se.
# Run: OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/ais/base_default_check_rts.R > bench/ais/base_default_check_rts.out 2>&1
suppressPackageStartupMessages(library(logz))
cat(sprintf("LAPACK: %s; BLAS: %s\n", La_library(), extSoftVersion()[["BLAS"]]))
x <- readRDS("bench/models/rbm20_cd1_v1.rds")
for (mm in list(bare = rbm(x$model$W, x$model$a, x$model$b), data = x$model)) for (s in 1:3) {
  set.seed(s); r <- suppressWarnings(rts(mm, progress = FALSE))
  cat(sprintf("rts %s seed %d: base %s err %+.3f se %.3f flags: %s\n", if (is.null(mm$base_rate)) "bare" else "data", s, r$base$type, r$log_z - x$log_z, r$se, paste(substr(r$flags, 1, 60), collapse = " | ")))
}

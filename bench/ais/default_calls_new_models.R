# Default ais() and rts() on the retrained 784 x 20 bench models of issue 18
# (bench/training/train_rbm20.R), each rebuilt from bare weights with rbm(W, a, b): is the
# default right, or does it say so (flags)? Errors are against the exact log Z
# saved with each model. Part 2: RTS started by the annealing pilot instead.
# Run: OPENBLAS_NUM_THREADS=1 Rscript bench/ais/default_calls_new_models.R [defaults|pilot]
suppressPackageStartupMessages(library(logz))
part <- commandArgs(trailingOnly = TRUE)
if (!length(part)) part <- c("defaults", "pilot")
cat("BLAS:", La_library(), "\n")
flag_text <- function(f) paste(substr(f, 1, 40), collapse = ";")
for (nm in c("pcd", "cd1", "cd25")) {
  o <- readRDS(sprintf("bench/models/rbm20_%s.rds", nm)); m <- o$model
  bare <- rbm(m$W, m$a, m$b)
  for (s in 1:3) {
    if ("defaults" %in% part) {
      set.seed(s); t0 <- proc.time()[[1]]
      f <- suppressWarnings(ais(bare, progress = FALSE))
      r <- suppressWarnings(rts(bare, progress = FALSE))
      cat(sprintf("%-5s seed %d  ais err %+.3f se %.3f base %-7s flags %-30s | rts err %+.3f se %.3f flags %s  (%.0f s)\n",
                  nm, s, f$log_z - o$log_z, f$se, f$base$type, flag_text(f$flags),
                  r$log_z - o$log_z, r$se, flag_text(r$flags), proc.time()[[1]] - t0))
    }
    if ("pilot" %in% part && nm != "cd1") {
      set.seed(s)
      r <- suppressWarnings(rts(bare, pilot_sweeps = 250, init_iter = 4, progress = FALSE))
      cat(sprintf("%-5s seed %d  rts(pilot 250, 4 init) err %+.3f se %.3f sweeps %s flags %s\n", nm, s,
                  r$log_z - o$log_z, r$se, r$counts[["gibbs_sweeps"]], flag_text(r$flags)))
    }
  }
}

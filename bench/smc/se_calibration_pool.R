# Pools the runs of bench/smc/se_calibration.R kept in the .rds files given
# (one per group of models run in parallel): z = error / se over all
# well-behaved targets, and over the harsh ones, with the flags' rates.
# Run from the package root:
#   Rscript bench/smc/se_calibration_pool.R file.rds [file.rds ...]
args <- commandArgs(TRUE)
runs <- list()
models <- list()
for (f in args) {
  x <- readRDS(f)
  runs[names(x$runs)] <- x$runs
  models[names(x$runs)] <- x$models[names(x$runs)]
}
for (harsh in c(FALSE, TRUE)) {
  ks <- names(runs)[vapply(models, `[[`, TRUE, "harsh") == harsh]
  if (!length(ks)) next
  z <- unlist(lapply(ks, function(k) vapply(runs[[k]], function(a) a$err / a$se, 0)))
  fl <- unlist(lapply(ks, function(k) vapply(runs[[k]], function(a) length(a$flags) > 0L, TRUE)))
  cat(sprintf("%s targets (%s): %d runs, sd(z) %.2f, |z| <= 2 in %d (%.1f%%), |z| <= 3 in %d; flagged %d; flagged among |z| <= 2: %d of %d; among |z| > 2: %d of %d\n",
              if (harsh) "harsh" else "well-behaved", paste(ks, collapse = ", "), length(z), sd(z),
              sum(abs(z) <= 2), 100 * mean(abs(z) <= 2), sum(abs(z) <= 3), sum(fl),
              sum(fl & abs(z) <= 2), sum(abs(z) <= 2), sum(fl & abs(z) > 2), sum(abs(z) > 2)))
}

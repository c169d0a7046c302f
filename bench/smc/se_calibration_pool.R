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

# The same runs under the former se of the bridge (the jackknife plus a third
# of the SMC se in quadrature, no degrees-of-freedom scaling) and the former
# choice under "auto" (the bridge when its se is at most the SMC se and the
# two agree within 2 combined se), and under the current ones, recomputed
# from the kept components.
recompute <- function(label, se_of, agree) {
cat(label)
zz <- c()
for (k in names(runs)) {
  r <- runs[[k]]
  tr <- models[[k]]$log_z
  g <- function(fun) vapply(r, fun, 0)
  es <- g(function(a) a$smc[["log_z"]] - tr)
  ses <- g(function(a) a$smc[["se"]])
  eb <- g(function(a) a$bridge[["log_z"]] - tr)
  sb <- se_of(g(function(a) a$bridge[["se_jackknife"]]), ses,
              g(function(a) if (is.null(a$pfit)) NA_real_ else a$pfit[["ess_ratio"]]))
  use <- is.finite(sb) & sb <= ses & abs(eb - es) <= agree * sqrt(sb^2 + ses^2)
  z <- ifelse(use, eb, es) / ifelse(use, sb, ses)
  cat(sprintf("  %-8s sd(z) %.2f, |z| <= 2 in %d/%d\n", k, sd(z), sum(abs(z) <= 2), length(z)))
  if (!models[[k]]$harsh) zz <- c(zz, z)
}
cat(sprintf("  well-behaved pooled: sd(z) %.2f, |z| <= 2 in %d/%d\n", sd(zz), sum(abs(zz) <= 2), length(zz)))
}
recompute("\nthe same runs under the former bridge se (jackknife + SMC se / 3, unscaled):\n",
          function(jk, ses, ess) sqrt(jk^2 + (ses / 3)^2), agree = 2)
recompute(paste0("\nthe same runs under the current bridge se (jackknife + 0.05 SMC se x ",
                 "min(1, sqrt(1 - ESS/M) / 0.1), scaled to R - 1 = 7 df; agreement within 3 combined se):\n"),
          function(jk, ses, ess)
            stats::qt(0.975, 7) / stats::qnorm(0.975) *
              sqrt(jk^2 + (0.05 * ses * ifelse(is.finite(ess), pmin(1, sqrt(pmax(0, 1 - ess)) / 0.1), 1))^2),
          agree = 3)

# EP's log Z and its second-order correction (Opper, Paquet & Winther 2013), the two
# reference lines of the ARM paper's Figure 2: on small MNIST 3-vs-5 and Ionosphere
# problems of bench/arm/gpc_problems.R against the exact orthant probability (mvtnorm,
# Genz-Bretz), and on the Figure 2 problems (n = 767) against the committed ARM runs'
# pooled estimate where they exist (bench/arm/arm_gpc_fig2_runs.csv is read only for that).
#   R_LIBS=<lib> Rscript bench/arm/ep_correction.R > bench/arm/ep_correction.out
suppressPackageStartupMessages(library(logz))
source(file.path("bench", "arm", "gpc_problems.R"))
cat(sprintf("logz %s; R %s; LAPACK: %s\n", utils::packageVersion("logz"), getRversion(),
            La_library()))
cat(sprintf("date %s; commit %s; load average %s\n", format(Sys.time(), tz = "UTC", usetz = TRUE),
            tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) NA),
            readLines("/proc/loadavg")))
orthant <- function(m) {
  p <- mvtnorm::pmvnorm(ifelse(m$y > 0, 0, -Inf), ifelse(m$y > 0, Inf, 0), sigma = m$sigma,
                        algorithm = mvtnorm::GenzBretz(maxpts = 5e6, abseps = 1e-10))
  c(log_z = log(as.numeric(p)), err = attr(p, "error") / as.numeric(p))
}
cat("\nsmall problems: exact log Z (Genz-Bretz, relative error), EP error, corrected error\n")
cat(sprintf("%-14s %4s %12s %9s %11s %11s %6s %7s\n", "problem", "n", "exact", "rel.err",
            "EP - exact", "EP2 - exact", "order", "CPU s"))
for (pr in c("ionosphere", "mnist35")) for (n in c(6, 10, 14, 18)) {
  m <- tryCatch(if (pr == "ionosphere") ionosphere_gpc(n) else mnist35_gpc(n),
                error = function(e) NULL)   # the first rows can hold one class only
  if (is.null(m) || length(unique(m$y)) < 2L) next
  ex <- orthant(m)
  t0 <- proc.time()[["elapsed"]]
  e <- ep_log_z(m, correction = "second_order", progress = FALSE)
  cat(sprintf("%-14s %4d %12.6f %9.1e %+11.6f %+11.6f %6d %7.2f\n", pr, n, ex[["log_z"]],
              ex[["err"]], attr(e, "ep") - ex[["log_z"]], e - ex[["log_z"]], attr(e, "order"),
              proc.time()[["elapsed"]] - t0))
}
cat("\nFigure 2 problems (n = 767): EP and EP with the second-order correction\n")
for (pr in c("mnist767", "usps767")) {
  m <- if (pr == "mnist767") mnist35_gpc(767) else usps35_gpc(767)
  t0 <- proc.time()[["elapsed"]]
  e <- ep_log_z(m, correction = "second_order", progress = FALSE)
  cat(sprintf("%-9s EP %.3f, corrected %.3f (R2 %+.3f, series to order %d of at most 60), %.0f s\n",
              pr, attr(e, "ep"), e, attr(e, "r2"), attr(e, "order"),
              proc.time()[["elapsed"]] - t0))
}

# Companion of bench/varopt/schedules_nonuniform.R: is AIS on its cells in the regime of
# Kiwaki's theory (perfect transitions)? Re-makes each seed's VAROPT pilot exactly
# as that script does (same seeds) and prints the variance functional J of the
# linear and the VAROPT schedule and the ESS/M they predict under perfect
# transitions with log-normal weights, exp(-J/K), beside the measured ESS/M of
# bench/varopt/schedules_nonuniform_runs.csv (pooled over the 5 seeds). Measured far
# below predicted = the chains do not follow the path (imperfect transitions),
# which the theory leaves out.
# Run: OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/varopt/schedules_nonuniform_J.R > bench/varopt/schedules_nonuniform_J.out
suppressPackageStartupMessages(library(logz))
options(width = 200)
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n\n")
t0 <- proc.time()
src <- readLines("bench/varopt/schedules_nonuniform.R")
# the cell definitions of bench/varopt/schedules_nonuniform.R (everything before the run loop)
eval(parse(text = src[seq_len(grep("^if \\(!report_only\\)", src)[1] - 1L)]))
runs <- read_runs()
rows <- list()
for (nm in names(cells)) {
  cl <- cells[[nm]]
  m <- cl$make()
  for (s in 1:5) {
    set.seed(1000L * s + match(nm, names(cells)))
    pilot <- schedule_varopt(m, max(cl$K), pilot_K = 1000, pilot_chains = 100, base = "uniform")
    for (K in cl$K) {
      obj <- attr(schedule_varopt(m, K, from = pilot), "objective")
      rows[[length(rows) + 1L]] <- data.frame(cell = nm, K = K, seed = s, J_lin = obj[["linear"]],
                                              J_var = obj[["schedule"]])
    }
  }
}
J <- do.call(rbind, rows)
out <- do.call(rbind, lapply(split(J, paste(J$cell, J$K)), function(x) {
  r <- runs[runs$cell == x$cell[1] & runs$K == x$K[1], ]
  ess <- function(sn) mean(r$ess[r$schedule == sn]) / r$M[1]
  data.frame(cell = x$cell[1], K = x$K[1], J_lin = mean(x$J_lin), J_var = mean(x$J_var),
             `pred ESS/M LIN` = exp(-mean(x$J_lin) / x$K[1]),
             `meas LIN` = ess("LINEAR"),
             `pred ESS/M VAR` = exp(-mean(x$J_var) / x$K[1]),
             `meas VAR` = ess("VAROPT"),
             `pred ratio` = exp((mean(x$J_lin) - mean(x$J_var)) / x$K[1]),
             `meas ratio` = ess("VAROPT") / ess("LINEAR"), check.names = FALSE)
}))
out <- out[order(match(out$cell, names(cells)), out$K), ]
print(format(out, digits = 3), row.names = FALSE)
cat(sprintf("\n(J averaged over the 5 seeds' pilots; measured ESS/M = mean over the 5 seeds of ESS/1000)\nCPU %.0f s\n",
            sum((proc.time() - t0)[1:2])))

# One batch of runs for bench/arm/arm_gpc_n767.R: Rscript bench/arm/arm_gpc_n767_run.R <setting> <seeds...>
# saves one RDS per run (log Z, work, time, diagnostics) in $N767_DIR (default /tmp/n767).
library(logz)
source("bench/arm/gpc_problems.R")
a <- commandArgs(TRUE)
dir <- Sys.getenv("N767_DIR", "/tmp/n767")
m <- mnist35_gpc(767)
settings <- list(
  rm100  = function() arm(m, 100, variant = "rm", progress = FALSE, threads = 1),
  rm200  = function() arm(m, 200, variant = "rm", progress = FALSE, threads = 1),
  rm300  = function() arm(m, 300, variant = "rm", progress = FALSE, threads = 1),
  rm400  = function() arm(m, 400, variant = "rm", progress = FALSE, threads = 1),
  rm600  = function() arm(m, 600, variant = "rm", progress = FALSE, threads = 1),
  arm10  = function() arm(m, 100, i_max = 10, progress = FALSE, threads = 1),
  arm50  = function() arm(m, 100, i_max = 50, progress = FALSE, threads = 1),
  antic10 = function() arm(m, 100, variant = "anticipate", i_max = 10, progress = FALSE, threads = 1))
for (s in as.integer(a[-1])) {
  set.seed(70000 + s)
  f <- settings[[a[1]]]()
  saveRDS(list(setting = a[1], seed = s, log_z = f$log_z, work = f$counts[["particle_moves"]],
               time = f$time, R = f$particles, diag = f$diagnostics),
          file.path(dir, sprintf("%s_%03d.rds", a[1], s)))
  cat(sprintf("%s seed %d: log Z %.3f work %.0f time %.1f\n", a[1], s, f$log_z,
              f$counts[["particle_moves"]], f$time))
}

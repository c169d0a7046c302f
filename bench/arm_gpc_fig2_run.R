# One batch of runs for bench/arm_gpc_fig2.R (the paper's Figure 2 protocol: sd of
# log Z over repeated runs against work, RM and ARM at several R):
#   FIG2_DIR=/tmp/fig2 R_LIBS=... OPENBLAS_NUM_THREADS=1 nice -n 10 \
#     Rscript bench/arm_gpc_fig2_run.R <problem> <setting> <seeds...>
# problem: mnist767 (bench/gpc_problems.R mnist35_gpc(767)) or usps767 (usps35_gpc()).
# setting: rm<R>, pool<R> (ARM, rule "pool_ess", i_max 50) or block<R> (ARM, rule
# "per_block", the paper's text, i_max 50), e.g. rm100, pool100, block100, rm500.
# Saves one RDS per run (log Z, particle-moves, seconds, diagnostics) in $FIG2_DIR.
library(logz)
source("bench/gpc_problems.R")
a <- commandArgs(TRUE)
dir <- Sys.getenv("FIG2_DIR", "/tmp/fig2")
m <- switch(a[1], mnist767 = mnist35_gpc(767), usps767 = usps35_gpc(767))
kind <- sub("[0-9]+$", "", a[2])
R <- as.integer(sub("^[a-z]+", "", a[2]))
run <- switch(kind,
  rm = function() arm(m, R, variant = "rm", progress = FALSE, threads = 1),
  pool = function() arm(m, R, rule = "pool_ess", i_max = 50, progress = FALSE, threads = 1),
  block = function() arm(m, R, rule = "per_block", i_max = 50, progress = FALSE, threads = 1))
for (s in as.integer(a[-(1:2)])) {
  set.seed(90000 + s)
  t0 <- proc.time()
  f <- run()
  cpu <- sum((proc.time() - t0)[c(1, 2)])
  saveRDS(list(problem = a[1], setting = a[2], seed = s, log_z = f$log_z,
               work = f$counts[["particle_moves"]], time = f$time, cpu = cpu, R = f$particles,
               diag = f$diagnostics[, c("n", "particles", "ess", "gamma0", "log_z")]),
          file.path(dir, sprintf("%s_%s_%03d.rds", a[1], a[2], s)))
  cat(sprintf("%s %s seed %d: log Z %.3f work %.0f time %.1f cpu %.1f\n", a[1], a[2], s, f$log_z,
              f$counts[["particle_moves"]], f$time, cpu))
}

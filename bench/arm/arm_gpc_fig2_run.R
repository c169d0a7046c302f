# One batch of runs for bench/arm/arm_gpc_fig2.R (the paper's Figure 2 protocol: sd of
# log Z over repeated runs against work, RM and ARM at several R):
#   R_LIBS=... OPENBLAS_NUM_THREADS=1 nohup nice -n 10 \
#     Rscript bench/arm/arm_gpc_fig2_run.R <problem> <setting> <seeds...> &
# problem: mnist767 (bench/arm/gpc_problems.R mnist35_gpc(767)) or usps767 (usps35_gpc(767)).
# setting: rm<R>, pool<R> (ARM, rule "pool_ess", i_max 50) or block<R> (ARM, rule
# "per_block", the paper's text, i_max 50), e.g. rm100, pool100, block100, rm500;
# hmcprior<R> / hmcep<R>: the paper's AIS baselines (Section 4.2), ais.gpc(kernel = "hmc",
# base = "prior" / "ep"), 16 chains, schedule_linear(4 R), 10 leapfrog steps, with the
# default pilot (10 chains): R = 100 gives 104,000 gradient evaluations of the 767-D
# latent target, each one O(N^2) like one particle-sweep, the work of pool100 / rm133.
# Each finished run appends one row to $FIG2_CSV (default bench/arm/arm_gpc_fig2_runs.csv),
# so a batch cut short still counts. Seed s runs set.seed(90000 + s). A seed already in
# the csv, or claimed by another batch (a directory under $FIG2_CLAIMS, default
# /tmp/fig2_claims), is skipped, so several batches can share one list of runs.
library(logz)
source("bench/arm/gpc_problems.R")
a <- commandArgs(TRUE)
csv <- Sys.getenv("FIG2_CSV", "bench/arm/arm_gpc_fig2_runs.csv")
claims <- Sys.getenv("FIG2_CLAIMS", "/tmp/fig2_claims")
dir.create(claims, showWarnings = FALSE)
have <- function(s) {
  d <- if (file.exists(csv)) read.csv(csv) else NULL
  any(d$problem == a[1] & d$setting == a[2] & d$seed == s) ||
    !dir.create(file.path(claims, sprintf("%s_%s_%d", a[1], a[2], s)), showWarnings = FALSE)
}
m <- switch(a[1], mnist767 = mnist35_gpc(767), usps767 = usps35_gpc(767))
kind <- sub("[0-9]+$", "", a[2])
R <- as.integer(sub("^[a-z]+", "", a[2]))
run <- switch(kind,
  rm = function() arm(m, R, variant = "rm", progress = FALSE, threads = 1),
  pool = function() arm(m, R, rule = "pool_ess", i_max = 50, progress = FALSE, threads = 1),
  block = function() arm(m, R, rule = "per_block", i_max = 50, progress = FALSE, threads = 1),
  hmcprior = , hmcep = function() ais(m, kernel = "hmc", base = sub("^hmc", "", kind),
                                     schedule = schedule_linear(4L * R), n_chains = 16L,
                                     n_leapfrog = 10L, progress = FALSE))
for (s in as.integer(a[-(1:2)])) {
  if (have(s)) next
  set.seed(90000 + s)
  t0 <- proc.time()
  f <- run()
  cpu <- sum((proc.time() - t0)[c(1, 2)])
  d <- f$diagnostics
  row <- if (startsWith(kind, "hmc"))
    data.frame(problem = a[1], setting = a[2], seed = s, R = R, log_z = f$log_z,
               work = f$counts[["gradient_evaluations"]], time = f$time, cpu = cpu,
               max_pool = NA, expanded = NA, iter_gamma0_low = NA) else
    data.frame(problem = a[1], setting = a[2], seed = s, R = f$particles, log_z = f$log_z,
               work = f$counts[["particle_moves"]], time = f$time, cpu = cpu,
               max_pool = max(d$particles), expanded = sum(d$particles > f$particles),
               iter_gamma0_low = sum(d$gamma0[d$n > 1] < 0.7))
  write.table(row, csv, append = TRUE, sep = ",", col.names = FALSE, row.names = FALSE)
  cat(sprintf("%s %s seed %d: log Z %.3f work %.0f time %.1f cpu %.1f\n", a[1], a[2], s, f$log_z,
              row$work, f$time, cpu))
}

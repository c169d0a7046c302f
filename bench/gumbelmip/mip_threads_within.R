# GumbelMIP: parallel tree search within one sample (issue 19; src/mip_par.c).
# The paper ran CPLEX on 48 threads for one sample at a time; here idle
# threads join a running branch and bound (shared open list under a lock, each
# thread bounding its popped node by min cut outside it). Models: the Figure
# 1a attractive cliques of bench/gumbelmip/mip.R (weights U[0, 1/sqrt(n)], fields
# U[-1, 1], min-cut LP bound).
# (1) one exact sample at a time, threads = 1 against threads = 2, the same
#     seed per sample: wall and CPU seconds, nodes, nodes bounded by the
#     joining thread, identical sample (states and v*) yes/no;
# (2) a batch of B samples with threads = 2: idle threads join the batch's
#     last searches (share = 1, mip_sample's default) against not (share = 0,
#     the previous behaviour: independent samples only).
# Figures as ratios (threads 1 / threads 2; share 0 / share 1). CPU seconds
# are the process's (both threads). Rows are appended to
# bench/gumbelmip/mip_threads_within_runs.csv as they finish.
# Environment: MIP_WITHIN_N (default "60,65,70"), MIP_WITHIN_SAMPLES (3),
# MIP_WITHIN_BATCH (8; 0 skips section 2), MIP_WITHIN_BATCH_N (60),
# MIP_WITHIN_TIME_LIMIT (seconds per sample, default 600), MIP_WITHIN_CSV.
# Run (idle 2-core machine):
#   OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/gumbelmip/mip_threads_within.R > bench/gumbelmip/mip_threads_within.out
# (~ 3 samples x 3 sizes x 2 runs: 5-15 CPU-min at n = 60-70 by bench/gumbelmip/mip_cliques.out)
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("GumbelMIP: parallel search within one sample (threads 1 vs 2)")
cat("cores:", parallel::detectCores(), "\n\n")

env_num <- function(name, default) as.numeric(strsplit(Sys.getenv(name, default), ",")[[1]])
sizes <- env_num("MIP_WITHIN_N", "60,65,70")
K <- env_num("MIP_WITHIN_SAMPLES", "3")
B <- env_num("MIP_WITHIN_BATCH", "8")
BN <- env_num("MIP_WITHIN_BATCH_N", "60")
tlim <- env_num("MIP_WITHIN_TIME_LIMIT", "600")
csv <- Sys.getenv("MIP_WITHIN_CSV", "bench/gumbelmip/mip_threads_within_runs.csv")

append_row <- function(row) {
  utils::write.table(row, csv, sep = ",", row.names = FALSE, col.names = !file.exists(csv),
                     append = file.exists(csv))
}
ctl <- function(threads, share) list(bound_lp = 1L, best_first = 1L, branching = 0L, perturb = 1L,
                                     node_limit = Inf, time_limit = tlim, cut = TRUE,
                                     threads = as.integer(threads), dive = TRUE, proposal = NULL,
                                     share = as.integer(share))

cat("== (1) one sample at a time: threads = 1 vs 2 ==\n")
cat(sprintf("%4s %6s %8s %8s %8s %8s %7s %7s %9s %9s %6s %5s\n", "n", "sample", "wall1", "wall2",
            "cpu1", "cpu2", "wall x", "cpu2/1", "nodes1", "nodes2", "shared", "same"))
tab <- NULL
for (n in sizes) {
  m <- fig1a_clique(n)
  for (k in seq_len(K)) {
    r <- list()
    for (th in 1:2) {
      set.seed(100 * n + k)
      r[[th]] <- timed(mip_sample(m, 1, threads = th, time_limit = tlim, progress = FALSE))
    }
    a <- r[[1]]$val
    b <- r[[2]]$val
    same <- identical(a$states, b$states) && identical(a$value, b$value)
    row <- data.frame(section = "one", n = n, sample = k, wall1 = r[[1]]$wall, wall2 = r[[2]]$wall,
                      cpu1 = r[[1]]$cpu, cpu2 = r[[2]]$cpu, nodes1 = a$nodes, nodes2 = b$nodes,
                      shared2 = b$diagnostics$shared_nodes, exact1 = a$exact, exact2 = b$exact,
                      same = same, load = readLines("/proc/loadavg"))
    append_row(row)
    tab <- rbind(tab, row)
    cat(sprintf("%4d %6d %8.2f %8.2f %8.2f %8.2f %7.2f %7.2f %9.0f %9.0f %5.0f%% %5s%s\n", n, k,
                row$wall1, row$wall2, row$cpu1, row$cpu2, row$wall1 / row$wall2,
                row$cpu2 / row$cpu1, row$nodes1, row$nodes2, 100 * row$shared2 / row$nodes2,
                if (same) "yes" else "NO", if (!a$exact || !b$exact) "  (not exact)" else ""))
  }
}
if (!is.null(tab)) {
  cat("\nper n: total wall seconds threads 1 / threads 2 (the speed-up), CPU threads 2 / 1\n")
  for (n in unique(tab$n)) {
    t <- tab[tab$n == n, ]
    cat(sprintf("  n = %d: speed-up %.2fx (%.1f s vs %.1f s), CPU ratio %.2f, identical %d of %d\n",
                n, sum(t$wall1) / sum(t$wall2), sum(t$wall1), sum(t$wall2),
                sum(t$cpu2) / sum(t$cpu1), sum(t$same), nrow(t)))
  }
}

if (B > 0) {
  cat(sprintf("\n== (2) a batch of %d samples at n = %d, threads = 2: idle threads join (share 1) or not (share 0) ==\n",
              B, BN))
  p <- logz:::mip_problem(fig1a_clique(BN))
  r <- list()
  for (sh in 0:1) {
    set.seed(77)
    r[[sh + 1]] <- timed(logz:::mip_run(p, B, ctl(2L, sh)))
  }
  same <- identical(r[[1]]$val$states, r[[2]]$val$states) && identical(r[[1]]$val$value, r[[2]]$val$value)
  row <- data.frame(section = "batch", n = BN, sample = B, wall1 = r[[1]]$wall, wall2 = r[[2]]$wall,
                    cpu1 = r[[1]]$cpu, cpu2 = r[[2]]$cpu, nodes1 = sum(r[[1]]$val$nodes),
                    nodes2 = sum(r[[2]]$val$nodes), shared2 = sum(r[[2]]$val$helped),
                    exact1 = all(r[[1]]$val$exact), exact2 = all(r[[2]]$val$exact), same = same,
                    load = readLines("/proc/loadavg"))
  append_row(row)
  cat(sprintf("share 0: %.2f s wall, %.2f s CPU; share 1: %.2f s wall, %.2f s CPU; ratio %.2fx; nodes %.0f vs %.0f (%.0f shared); identical: %s\n",
              row$wall1, row$cpu1, row$wall2, row$cpu2, row$wall1 / row$wall2, row$nodes1,
              row$nodes2, row$shared2, if (same) "yes" else "NO"))
}
cat("\nload average at the end:", readLines("/proc/loadavg"), "\n")

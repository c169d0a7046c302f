# GumbelMIP speed on attractive cliques (the Figure 1a models of bench/gumbelmip/mip.R:
# weights U[0, 1/sqrt(n)], fields U[-1, 1], min-cut LP bound):
# (1) min-cut flow reuse between branch-and-bound nodes (mip_cut.c) against
#     solving every node's max flow from zero: same samples (checked), seconds;
# (2) threads = 2 against 1 on a batch of 16 independent exact samples at
#     n = 60 (each thread its own search and cut graph, each sample its own
#     L'Ecuyer-CMRG stream: identical samples, checked);
# (3) one sample with threads = 2: when bench/gumbelmip/mip_threads.out was made, the
#     search inside one sample was sequential (1x); since issue 19's shared
#     search (src/mip_par.c) the second thread joins it -- measured properly
#     by bench/gumbelmip/mip_threads_within.R (several sizes and samples).
# Wall-clock seconds on a 2-core machine shared with other jobs (the load
# average is printed; a speed-up needs both cores to be free for us).
# Section (1) in the committed bench/gumbelmip/mip_threads.out measured the flow reuse of
# commit b737b59, dropped since (src/mip_cut.c says why); the `cut_reuse`
# control it sets is now ignored, so a rerun shows two equal codes.
# Section (3) runs the same code for both thread counts (threads are capped at
# the number of samples); its wall times show the machine's load (12-14 on 2
# cores during the committed run), hence the CPU seconds beside them.
# MIP_THREADS_SECTIONS="2,3" (say) runs a subset.
# Run: nice -n 10 Rscript bench/gumbelmip/mip_threads.R > bench/gumbelmip/mip_threads.out  (~15 CPU-min)
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
cat("GumbelMIP speed: flow reuse and threads\n")
cat("LAPACK:", La_library(), "\n")
cat("BLAS:  ", extSoftVersion()[["BLAS"]], "\n")
cat(R.version.string, "|", format(Sys.time(), "%Y-%m-%d %H:%M"), "| cores:",
    parallel::detectCores(), "| load average:", readLines("/proc/loadavg"), "\n\n")
wall <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  force(expr)
  proc.time()[["elapsed"]] - t0
}

sections <- as.integer(strsplit(Sys.getenv("MIP_THREADS_SECTIONS", "1,2,3"), ",")[[1]])
if (1 %in% sections) {
cat("== (1) min-cut flow reuse vs cold max flows, 4 exact samples, same seed ==\n")
for (n in c(40, 50)) {
  p <- logz:::mip_problem(fig1a_clique(n))
  res <- list()
  sec <- c(reuse = NA, cold = NA)
  for (reuse in c(TRUE, FALSE)) {
    set.seed(7)
    k <- if (reuse) "reuse" else "cold"
    sec[k] <- wall(res[[k]] <- logz:::mip_run(p, 4, list(
      bound_lp = 1L, best_first = 1L, branching = 0L, perturb = 1L, node_limit = Inf,
      time_limit = Inf, cut = TRUE, threads = 1L, dive = TRUE, cut_reuse = reuse)))
  }
  stopifnot(identical(res$reuse$states, res$cold$states))
  cat(sprintf("n = %d: reuse %.2f s, cold %.2f s per sample (%.0f nodes); speed-up %.2fx; same samples: TRUE\n",
              n, sec[["reuse"]] / 4, sec[["cold"]] / 4, mean(res$reuse$nodes),
              sec[["cold"]] / sec[["reuse"]]))
}

}
m <- fig1a_clique(60)
if (2 %in% sections) {
cat("\n== (2) a batch of 16 exact samples at n = 60, threads 1 vs 2 ==\n")
res <- list()
rows <- list()
for (th in 1:2) {
  set.seed(8)
  w <- wall(res[[th]] <- mip_sample(m, 16, threads = th, progress = FALSE))
  rows[[th]] <- data.frame(threads = th, samples = 16, exact = sum(res[[th]]$exact), wall = w,
                           sum_sample_sec = sum(res[[th]]$sample_time),
                           max_sample_sec = max(res[[th]]$sample_time))
  cat(sprintf("threads %d: %.1f s wall (load average now %s)\n", th, w,
              paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " ")))
}
tab <- do.call(rbind, rows)
tab$speedup <- tab$wall[1] / tab$wall
tab$busy_threads <- tab$sum_sample_sec / tab$wall
print(tab, row.names = FALSE, digits = 3)
stopifnot(identical(res[[1]]$states, res[[2]]$states))
cat("states identical for 1 and 2 threads: TRUE\n")
cat("(busy_threads = sum of per-sample search seconds / wall: ~2 when both threads\n",
    "search; the last sample's search alone bounds the makespan from below)\n")

}
if (3 %in% sections) {
cat("\n== (3) one sample at n = 60: threads 1 vs 2 (shared search; see bench/gumbelmip/mip_threads_within.R) ==\n")
for (th in 1:2) {
  set.seed(9)
  c0 <- cpu()
  w <- wall(s <- mip_sample(m, 1, threads = th, progress = FALSE))
  cat(sprintf("threads %d: %.2f s wall, %.2f s CPU, %d nodes\n", th, w, cpu() - c0, s$nodes))
}
}
cat(sprintf("\nload average at end: %s\n", readLines("/proc/loadavg")))

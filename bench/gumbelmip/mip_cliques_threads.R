# GumbelMIP on large attractive cliques with both cores on one sample (issue 19:
# "n = 80 ... exactly in at most 60 s each on 2 cores, and n = 100 as far as it
# goes"). bench/gumbelmip/mip_cliques.R measures one thread in CPU seconds; here each sample
# is searched by 2 threads sharing its open list (src/mip_par.c), timed in wall
# seconds on an idle 2-core machine, with time_limit = 60 (wall). Same models and
# seeds as bench/gumbelmip/mip_cliques.R (weights U[0, 1/sqrt(n)], fields U[-1, 1]; model
# seed 1000 + n, samples from set.seed(1)); since samples do not depend on the
# number of threads, the sizes both scripts reach give the same samples (the
# "nodes" columns then differ only by the shared search's extra nodes).
# A size counts as done when all 3 samples are exact within 60 s wall each; the
# sweep stops at the first size that is not.
# Committed result (2026-11-26, idle machine, after dropping the simple-bound check before each
# min cut): n = 85 in 7-9 s wall per sample, n = 90 in 17-21, n = 95 in 15-22, n = 100 in 51-56
# (2.2-2.5M nodes), n = 105 not within 60 s: largest n = 100 (before that change, the same day:
# n = 90 in 26-33, n = 95 in 27-33, n = 100 in 80-83 s). With a 600 s limit n = 105 is exact
# 3/3 in 93-112 s wall (3.6-5.0M nodes).
# Environment: MIP_CLIQUE_N (sizes, default 85,90,...,110), MIP_CLIQUE_TIME_LIMIT (60).
# Run (idle machine): OPENBLAS_NUM_THREADS=1 Rscript bench/gumbelmip/mip_cliques_threads.R \
#   > bench/gumbelmip/mip_cliques_threads.out   (~10-20 min); then how far the first size out of reach goes:
#   MIP_CLIQUE_N=105 MIP_CLIQUE_TIME_LIMIT=600 ... >> bench/gumbelmip/mip_cliques_threads.out
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("GumbelMIP on large attractive cliques, 2 threads per sample (wall seconds)")
cat("cores:", parallel::detectCores(), "\n")
cat("The paper: exact samples up to n = 60 (CPLEX, up to 48 threads).\n\n")
sizes <- as.numeric(strsplit(Sys.getenv("MIP_CLIQUE_N", "85,90,95,100,105,110"), ",")[[1]])
tlim <- as.numeric(Sys.getenv("MIP_CLIQUE_TIME_LIMIT", "60"))
best <- NA
for (n in sizes) {
  m <- fig1a_clique(n)
  set.seed(1)
  wall <- cpus <- nodes <- numeric(0)
  ex <- logical(0)
  for (k in 1:3) {
    r <- timed(suppressWarnings(mip_sample(m, 1, threads = 2L, time_limit = tlim,
                                           progress = FALSE)))
    s <- r$val
    wall <- c(wall, r$wall)
    cpus <- c(cpus, r$cpu)
    nodes <- c(nodes, s$nodes)
    ex <- c(ex, s$exact)
    if (!s$exact) break
  }
  cat(sprintf("n = %d: exact %d/%d, wall s per sample %s (CPU s %s), nodes %s\n", n, sum(ex),
              length(ex), paste(sprintf("%.1f", wall), collapse = " "),
              paste(sprintf("%.1f", cpus), collapse = " "), paste(nodes, collapse = " ")))
  if (length(ex) < 3 || !all(ex)) break
  best <- n
}
cat(sprintf("\nlargest n with 3/3 samples exact within %g s wall each (2 threads): %s\n", tlim, best))
cat("load average at the end:", readLines("/proc/loadavg"), "\n")

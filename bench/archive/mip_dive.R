# Issue 19 (GumbelMIP beyond the paper's scale), first measurements:
# (1) the dive heuristic: exact seconds per sample and the anytime incumbent
#     (v*, the Theorem 2 lower bound) of early-stopped samples, dive vs none;
# (2) threads = 2 on a batch of independent exact samples (identical results).
# Models as bench/gumbelmip/mip.R: attractive cliques, pm1 spins, weights U[0, 1/sqrt(n)],
# fields U[-1, 1] (the LP bound by min cut). Run niced, one process:
#   nice -n 10 Rscript bench/archive/mip_dive.R > bench/archive/mip_dive.out 2>&1
# The machine has 2 cores shared by 8 developers: wall-clock ratios are noisy.
library(logz)
cat("R:", R.version.string, " BLAS:", La_library(), "\n")
cat("GLPK:", logz:::glpk_version(), " logz_has_glpk():", logz_has_glpk(), "\n")
cat("load average at start:", readLines("/proc/loadavg"), "\n\n")
clique <- function(n) ising_clique(n, coupling = 1 / sqrt(n), field = 1, type = "attractive")

cat("== (1a) exact samples, seconds and nodes per sample: dive vs none (same seed) ==\n")
for (n in c(30, 40, 50)) {
  set.seed(n)
  m <- clique(n)
  r <- lapply(c("dive", "none"), function(h) {
    set.seed(1)
    s <- mip_sample(m, 8, heuristic = h, progress = FALSE)
    c(sec = mean(s$sample_time), nodes = mean(s$nodes))
  })
  cat(sprintf("n = %d: dive %.3f s %.0f nodes | none %.3f s %.0f nodes | time ratio none/dive %.2f\n",
              n, r[[1]][1], r[[1]][2], r[[2]][1], r[[2]][2], r[[2]][1] / r[[1]][1]))
}

cat("\n== (1b) anytime: 12 samples stopped after 2000 nodes, n = 60 ==\n")
set.seed(60)
m <- clique(60)
for (h in c("dive", "none")) {
  set.seed(2)
  s <- mip_sample(m, 12, node_limit = 2000, heuristic = h, progress = FALSE)
  b <- log_z_bounds(s, delta = 0.1)
  cat(sprintf("%-4s: %d exact; mean v* - C_E %.3f, mean U - C_E %.3f; Theorem 2 [%.2f, %.2f]\n",
              h, sum(s$exact), b$mean_value - 0.5772157, b$mean_upper - 0.5772157, b$lower, b$upper))
}

cat("\n== (2) threads on a batch of 8 exact samples, n = 50 (identical results) ==\n")
set.seed(50)
m <- clique(50)
tt <- sapply(1:2, function(k) {
  set.seed(3)
  t <- system.time(s <- mip_sample(m, 8, threads = k, progress = FALSE))[["elapsed"]]
  c(t, sum(s$value))
})
cat(sprintf("threads 1: %.2f s; threads 2: %.2f s; speed-up %.2fx; same values: %s\n",
            tt[1, 1], tt[1, 2], tt[1, 1] / tt[1, 2], tt[2, 1] == tt[2, 2]))
cat("load average at end:", readLines("/proc/loadavg"), "\n")

# Shared by the GumbelMIP benches (mip_cliques, mip_cliques_threads,
# mip_cliques_tree, mip_threads, mip_threads_within, mip_trees, mip_proposal,
# mip_fig2, mip_fig2_proposal, mip_fig2_paper): source("bench/gumbelmip/mip_common.R")
# from the package root after library(logz).

# The header every bench prints: title, BLAS/LAPACK, GLPK, R version, time and load.
mip_bench_header <- function(title) {
  cat(title, "\n", sep = "")
  cat("LAPACK:", La_library(), "\n")
  cat("BLAS:  ", extSoftVersion()[["BLAS"]], "\n")
  cat("GLPK:  ", logz:::glpk_version(), "\n")
  cat(R.version.string, "|", format(Sys.time(), "%Y-%m-%d %H:%M"), "| load average:",
      readLines("/proc/loadavg"), "\n")
}

# CPU seconds of this process (user + system): on a shared, loaded machine
# wall-clock times of two runs are not comparable, CPU times are (every run
# is single-threaded).
cpu <- function() sum(proc.time()[c("user.self", "sys.self")])
elapsed <- function(expr) { t0 <- cpu(); force(expr); cpu() - t0 }
# Wall and CPU seconds of expr (CPU: user + system of the process, all threads).
timed <- function(expr) {
  p0 <- proc.time()
  val <- force(expr)
  d <- proc.time() - p0
  list(val = val, wall = d[["elapsed"]], cpu = d[["user.self"]] + d[["sys.self"]])
}

# The attractive clique of Figure 1a beyond the paper's sizes (bench/gumbelmip/mip.R's
# model): weights U[0, 1/sqrt(n)], fields U[-1, 1], drawn under set.seed(1000 + n).
fig1a_clique <- function(n) {
  set.seed(1000 + n)
  ising_clique(n, coupling = 1 / sqrt(n), field = 1, type = "attractive")
}

# Gibbs with `T` independent chains, one sample each after `sweeps` sweeps.
gibbs_run <- function(g, sweeps, T) gibbs_sample(g, T, sweeps = 1L, burn_in = sweeps, n_chains = T)
# ... run for about `target` CPU seconds, the sweeps set from a `pilot`-sweep run.
gibbs_equal_time <- function(g, target, T, pilot = 200L) {
  tp <- max(elapsed(gibbs_run(g, pilot, T)), 1e-3)
  sw <- max(1L, as.integer(pilot * target / tp))
  t <- elapsed(x <- gibbs_run(g, sw, T))
  list(states = x, sweeps = sw, sec = t)
}

# A random recursive tree on n spins: couplings U[0, s], fields U[-s, s].
random_tree <- function(n, s) {
  par <- vapply(2:n, function(i) sample.int(i - 1L, 1L), 1L)
  ising(data.frame(from = par, to = 2:n, weight = stats::runif(n - 1L, 0, s)),
        field = stats::runif(n, -s, s))
}

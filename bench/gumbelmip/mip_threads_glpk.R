# GumbelMIP with threads on models bounded by GLPK (not attractive): every
# thread solves its own LP with its own GLPK environment (GLPK built with
# thread-local storage, glp_config("TLS")), each sample its own stream, so
# the samples are identical for 1 and 2 threads (checked). Speed ratio
# wall(threads = 1) / wall(threads = 2) on batches of exact samples of three
# frustrated models (mixed-sign couplings: the min cut does not apply):
#   clique16, clique20: ising_clique(n, coupling = 1 / sqrt(n), field = 1, "mixed")
#   grid5:              ising_grid(5, 5, coupling = 1, field = 0.5, "mixed")
# Each repeat runs both thread counts on the same seed, in alternating order;
# the ratio's median and range over repeats are reported, with CPU seconds
# (all threads) and busy = CPU / wall (~2 when both threads search). A batch
# of one sample cannot use 2 threads with GLPK (a sample's search is shared
# only with the min cut or the simple bound).
# The machine has 2 cores shared with other jobs: the load average is printed
# before and after each model; speed-ups need both cores free for us.
# Run: nohup nice Rscript bench/gumbelmip/mip_threads_glpk.R > bench/gumbelmip/mip_threads_glpk.out 2>&1 &
#      (~3 min wall; MIP_GLPK_REPEATS sets the repeats, default 5)
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("GumbelMIP with GLPK LP bounds: threads = 2 vs 1 on frustrated models")
cat("cores:", parallel::detectCores(), "\n")
repeats <- as.integer(Sys.getenv("MIP_GLPK_REPEATS", "5"))

load1 <- function() strsplit(readLines("/proc/loadavg"), " ")[[1]][1]
models <- list(
  clique16 = list(model = function() { set.seed(1016); ising_clique(16, 1 / 4, 1, "mixed") }, n = 24),
  clique20 = list(model = function() { set.seed(1020); ising_clique(20, 1 / sqrt(20), 1, "mixed") }, n = 12),
  grid5 = list(model = function() { set.seed(1005); ising_grid(5, 5, 1, 0.5, "mixed") }, n = 16)
)
rows <- list()
for (name in names(models)) {
  m <- models[[name]]$model()
  ns <- models[[name]]$n
  cat(sprintf("\n== %s: %d exact samples per batch, %d repeats (load %s) ==\n", name, ns, repeats, load1()))
  ref <- NULL
  for (r in seq_len(repeats)) {
    order <- if (r %% 2) 1:2 else 2:1
    for (th in order) {
      set.seed(2000 + r)
      t <- timed(mip_sample(m, ns, threads = th, progress = FALSE))
      s <- t$val
      stopifnot(all(s$exact), s$threads == th, grepl("GLPK", s$method))
      if (th == 1L) ref1 <- s else ref2 <- s
      rows[[length(rows) + 1L]] <- data.frame(model = name, repeat_no = r, threads = th,
                                              samples = ns, wall = t$wall, cpu = t$cpu,
                                              nodes = mean(s$nodes), lp_solves = mean(s$lp_solves))
    }
    stopifnot(identical(ref1$states, ref2$states), identical(ref1$value, ref2$value))
  }
  cat(sprintf("states and values identical for 1 and 2 threads in every repeat: TRUE (load %s)\n",
              load1()))
}
tab <- do.call(rbind, rows)
w1 <- tab[tab$threads == 1, ]
w2 <- tab[tab$threads == 2, ]
per <- data.frame(model = w1$model, repeat_no = w1$repeat_no, wall1 = w1$wall, wall2 = w2$wall,
                  ratio = w1$wall / w2$wall, busy1 = w1$cpu / w1$wall, busy2 = w2$cpu / w2$wall)
cat("\n== per repeat: wall seconds, ratio = wall(1) / wall(2), busy = CPU / wall ==\n")
print(per, row.names = FALSE, digits = 3)
cat("\n== summary over repeats ==\n")
summ <- do.call(rbind, lapply(split(per, per$model), function(d) {
  k <- tab$model == d$model[1] & tab$threads == 1
  data.frame(model = d$model[1], sec_per_sample_1thread = stats::median(d$wall1) / tab$samples[k][1],
             nodes = tab$nodes[k][1], lp_solves = tab$lp_solves[k][1],
             ratio_median = stats::median(d$ratio), ratio_min = min(d$ratio),
             ratio_max = max(d$ratio), busy2_median = stats::median(d$busy2))
}))
print(summ[match(names(models), summ$model), ], row.names = FALSE, digits = 3)
cat(sprintf("\nload average at end: %s\n", readLines("/proc/loadavg")))

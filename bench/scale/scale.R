# Scale-out benchmark: wall time and result of the same call with the work in
# one piece (this session) and in 2 pieces on 2 local workers
# (future::plan(multisession, workers = 2)), for AIS on a 784 x 500 MNIST RBM
# and for a batch of exact GumbelMIP samples. The two results differ only by
# the random streams (the pieces have their own), so both are shown.
# Run: OPENBLAS_NUM_THREADS=1 Rscript bench/scale/scale.R  (about 3 minutes on 2 free cores)
# With OpenBLAS single-threaded, the one-piece runs use one core, the two
# workers two; the rows with threads = 2 show the in-process alternative
# (OpenMP threads over chains or samples) on the same two cores.
suppressPackageStartupMessages(library(logz))
cat("Scale-out benchmark (future.apply, multisession)\n")
cat("LAPACK:", La_library(), "\n")
cat("BLAS:  ", extSoftVersion()[["BLAS"]], "\n")
cat(R.version.string, "|", format(Sys.time(), "%Y-%m-%d %H:%M"), "| cores:",
    parallel::detectCores(), "\n\n")

set.seed(2016)
# a 784 x 500 RBM: a short CD-1 training on MNIST
model <- rbm_train(mnist$x, n_hidden = 500, method = "cd", k = 1, epochs = 1,
                   learning_rate = 0.05, seed = 1, progress = FALSE)
K <- as.integer(Sys.getenv("BENCH_K", "2000"))
M <- as.integer(Sys.getenv("BENCH_M", "200"))
ising <- ising_clique(30, coupling = 1 / sqrt(30), type = "attractive")
n_samples <- as.integer(Sys.getenv("BENCH_SAMPLES", "200"))
cat("OPENBLAS_NUM_THREADS =", Sys.getenv("OPENBLAS_NUM_THREADS", "(unset)"), "\n\n")

run <- function(label, expr) {
  t0 <- proc.time()[["elapsed"]]
  r <- force(expr)
  data.frame(job = label, wall_s = proc.time()[["elapsed"]] - t0, log_z = r$log_z,
             se = r$se, pieces = if (is.null(r$pieces)) 1L else r$pieces)
}
rows <- list()
future::plan(future::sequential)
set.seed(1)
rows[[1]] <- run(sprintf("AIS 784x500, K = %d, M = %d, 1 piece", K, M),
                 ais(model, schedule_linear(K), n_chains = M, progress = FALSE))
set.seed(2)
rows[[2]] <- run(sprintf("GumbelMIP clique n = 30, %d samples, 1 piece", n_samples),
                 mip_sample(ising, n_samples, progress = FALSE))
set.seed(1)
rows[[5]] <- run(sprintf("AIS 784x500, K = %d, M = %d, 1 piece, threads = 2", K, M),
                 ais(model, schedule_linear(K), n_chains = M, threads = 2, progress = FALSE))
set.seed(2)
rows[[6]] <- run(sprintf("GumbelMIP clique n = 30, %d samples, 1 piece, threads = 2", n_samples),
                 mip_sample(ising, n_samples, threads = 2, progress = FALSE))
future::plan(future::multisession, workers = 2)
invisible(future.apply::future_lapply(1:2, function(i) i))   # start the workers first
set.seed(1)
rows[[3]] <- run(sprintf("AIS 784x500, K = %d, M = %d, 2 workers", K, M),
                 ais(model, schedule_linear(K), n_chains = M, workers = 2, progress = FALSE))
set.seed(2)
rows[[4]] <- run(sprintf("GumbelMIP clique n = 30, %d samples, 2 workers", n_samples),
                 mip_sample(ising, n_samples, workers = 2, progress = FALSE))
future::plan(future::sequential)
tab <- do.call(rbind, rows)
tab$wall_s <- round(tab$wall_s, 2)
tab$log_z <- round(tab$log_z, 3)
tab$se <- round(tab$se, 3)
print(tab, row.names = FALSE)
cat(sprintf("\nspeed-up with 2 workers: AIS %.2fx, GumbelMIP %.2fx\n",
            tab$wall_s[1] / tab$wall_s[3], tab$wall_s[2] / tab$wall_s[4]))
cat(sprintf("speed-up with 2 threads in one piece: AIS %.2fx, GumbelMIP %.2fx\n",
            tab$wall_s[1] / tab$wall_s[5], tab$wall_s[2] / tab$wall_s[6]))
cat("(2 workers on a 2-core machine; each worker runs its share of chains or samples\n",
    " single-threaded; rows are in the order 1 piece, 1 piece, 2 workers, 2 workers,\n",
    " threads = 2, threads = 2)\n")

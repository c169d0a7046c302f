# rts(), raise() and rbm_train() with the Gibbs kernels at the dispatched instruction set
# (AVX-512 here) and capped to the portable one (LOGZ_ISA), single-threaded, in CPU seconds,
# interleaved in 2 rounds, on the 784 x 500 RBM of ais_rbm.R. Run:
#   OPENBLAS_NUM_THREADS=1 Rscript bench/ais/ais_rbm_engines.R   (about 1 CPU-minute)
suppressPackageStartupMessages(library(logz))
cat("R LAPACK:", La_library(), "\nload average at start:", readLines("/proc/loadavg"), "\n")
set.seed(2015)
model <- rbm_train(mnist$x[1:8000, ], n_hidden = 500, method = "cd", k = 1, epochs = 3,
                   learning_rate = 0.05, progress = FALSE)
data <- mnist$x[1:5, ]
eng <- list(rts_sparse = function() rts(model, K = 50, n_chains = 20, sweeps = 10, threads = 1, progress = FALSE),
            raise = function() raise(model, data, schedule_linear(50), n_chains = 5, threads = 1, progress = FALSE),
            train = function() rbm_train(mnist$x[1:1000, ], n_hidden = 500, method = "pcd", epochs = 1, progress = FALSE, seed = 1))
cpu <- function(f) { t0 <- proc.time(); set.seed(5); f(); el <- proc.time() - t0; el[[1]] + el[[2]] }
res <- NULL
for (r in 1:2) for (e in names(eng)) for (lv in c("avx512", "portable")) {
  Sys.setenv(LOGZ_ISA = lv); res <- rbind(res, data.frame(round = r, engine = e, isa = lv, cpu_s = cpu(eng[[e]]))) }
Sys.unsetenv("LOGZ_ISA")
w <- reshape(res, idvar = c("round", "engine"), timevar = "isa", direction = "wide")
w$portable_over_avx512 <- w$cpu_s.portable / w$cpu_s.avx512
print(w, row.names = FALSE)
cat("load average at end:", readLines("/proc/loadavg"), "\n")

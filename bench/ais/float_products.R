# Does a single-precision sampling path pay? The binary-state product (per-chain
# column gather, W in row blocks of 32 as in src/binary_kernels.c) and
# exp(-|x|) through libmvec, in double and in float at AVX-512, on the
# 784 x 500 MNIST RBM's shapes with 100 chains: X = W'v (v ~20% on, 784 columns)
# and Y = W h (h ~45% on, 500 columns). Interleaved rounds; ratios are
# double time / float time. Run: Rscript bench/ais/float_products.R (about a
# minute; needs gcc with AVX-512 support and libmvec).
suppressPackageStartupMessages(library(logz))
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
cat("instruction set of the Gibbs kernels:", logz:::kernel_isa(), "\n")
loadavg <- function() tryCatch(readLines("/proc/loadavg"), error = function(e) NA)
cat("load average at start:", loadavg(), "\n\n")
if (logz:::kernel_isa() != "avx512") stop("this bench times AVX-512 code")
dir <- tempfile("float_products")
dir.create(dir)
invisible(file.copy(file.path("bench", "ais", "float_products.c"), dir))
old <- setwd(dir)
Sys.setenv(PKG_CFLAGS = "-O2 -fopenmp", PKG_LIBS = "-fopenmp -lmvec -lm")
stopifnot(system2(file.path(R.home("bin"), "R"), c("CMD", "SHLIB", "float_products.c"),
                  stdout = FALSE) == 0)
dyn.load(file.path(dir, paste0("float_products", .Platform$dynlib.ext)))
setwd(old)
set.seed(1)
model <- rbm_train(mnist$x[1:2000, ], n_hidden = 500, method = "cd", epochs = 1,
                   progress = FALSE, seed = 1)
M <- 100L
V <- matrix(as.double(runif(784 * M) < 0.2), 784, M)
H <- matrix(as.double(runif(500 * M) < 0.45), 500, M)
Wx <- t(cbind(model$W, model$a, model$base_rate))   # X = Wx V: 502 x 784
cases <- list(`X = [W a a0]'v, 20% on` = list(Wx, V), `Y = W h, 45% on` = list(model$W, H))
rounds <- 5L
res <- array(NA_real_, c(length(cases), 5L, rounds),
             dimnames = list(names(cases), c("prod_double", "prod_float", "exp_double",
                                             "exp_float", "max_abs_diff"), NULL))
for (r in seq_len(rounds)) for (cs in names(cases))
  res[cs, , r] <- .Call("float_products", cases[[cs]][[1]], cases[[cs]][[2]], 200L)
med <- apply(res, c(1, 2), median)
tab <- data.frame(product = names(cases),
                  prod_double_ms = 1e3 * med[, 1], prod_float_ms = 1e3 * med[, 2],
                  prod_ratio = med[, 1] / med[, 2],
                  prod_ratio_range = apply(res[, 1, ] / res[, 2, ], 1,
                                           function(x) sprintf("%.2f-%.2f", min(x), max(x))),
                  exp_double_ms = 1e3 * med[, 3], exp_float_ms = 1e3 * med[, 4],
                  exp_ratio = med[, 3] / med[, 4],
                  float_max_abs_err = med[, 5], row.names = NULL)
cat(sprintf("Per call, 100 chains, median of %d interleaved rounds of 200 calls:\n", rounds))
print(format(tab, digits = 3), row.names = FALSE)
cat("load average at end:", loadavg(), "\n")
cat(paste0("\nNote: X = [W a a0]'v also gives the log-weight increments (softplus of b + W'v at two ",
           "betas, summed over 500 units per step), which must stay in double; only Y = W h and the ",
           "visible draw's exp could run in float. With the products about 70% of a sweep's CPU ",
           "time (perf, sparse kernel, 1 thread) and Y about half of them, float Y would save ",
           "about 0.35 x (1 - 1 / prod_ratio) of a sweep. The package keeps double throughout.\n"))

# How many epochs should rbm_train() run by default? The call a new user makes,
# rbm_train(train, n_hidden = 20, method = "pcd"), on the README's split of
# the bundled digits (train = mnist$x[1:8000, ], test = mnist$x[8001:10000, ]),
# scored by the test log-likelihood with the exact log Z (2^20 hidden states
# enumerated), for settings of `epochs` and `learning_rate` (the rest of the
# default recipe unchanged: batch 100, linear decay to 0, momentum 0.5, weight
# decay 2e-4), and CD-1 at the old and new default. CPU time of the training
# alone (user + system), and its ratio to the old default's.
# Environment: BENCH_SEEDS (1,2), BENCH_RUNS (names of `settings` to run; all).
# Run: OPENBLAS_NUM_THREADS=1 nice Rscript bench/training/default_epochs.R > bench/training/default_epochs.out
suppressPackageStartupMessages(library(logz))
options(width = 160)
cat("R LAPACK:", La_library(), "\n\n")
train <- mnist$x[1:8000, ]
test <- mnist$x[8001:10000, ]
seeds <- as.integer(strsplit(Sys.getenv("BENCH_SEEDS", "1,2"), ",")[[1]])
settings <- list(
  pcd_e10 = list(method = "pcd", epochs = 10L, lr = 0.05),   # the old default
  pcd_e20 = list(method = "pcd", epochs = 20L, lr = 0.05),
  pcd_e30 = list(method = "pcd", epochs = 30L, lr = 0.05),
  pcd_e50 = list(method = "pcd", epochs = 50L, lr = 0.05),
  pcd_e20_lr0.1 = list(method = "pcd", epochs = 20L, lr = 0.1),
  pcd_e30_lr0.1 = list(method = "pcd", epochs = 30L, lr = 0.1),
  pcd_default = list(method = "pcd", epochs = NULL, lr = 0.05),  # the package's default now
  cd_e10 = list(method = "cd", epochs = 10L, lr = 0.05),
  cd_default = list(method = "cd", epochs = NULL, lr = 0.05))
sel <- Sys.getenv("BENCH_RUNS", "")
if (nzchar(sel)) settings <- settings[strsplit(sel, ",")[[1]]]
rows <- NULL
for (nm in names(settings)) for (s in seeds) {
  st <- settings[[nm]]
  args <- list(train, n_hidden = 20, method = st$method, learning_rate = st$lr, seed = s,
               progress = FALSE)
  if (!is.null(st$epochs)) args$epochs <- st$epochs
  t0 <- proc.time()
  m <- suppressMessages(do.call(rbm_train, args))
  tt <- proc.time() - t0
  lz <- exact_log_z(m)
  ll <- mean(log_likelihood(m, test, lz))
  row <- data.frame(setting = nm, method = st$method, epochs = nrow(m$history), lr = st$lr, seed = s,
                    log_z = round(lz, 3), test_ll = round(ll, 2), cpu_s = round(tt[[1]] + tt[[2]], 1))
  print(row, row.names = FALSE)
  rows <- rbind(rows, row)
}
cat("\nSummary (mean over seeds; CPU ratio to the old default of the same method, pcd_e10 / cd_e10):\n")
agg <- do.call(rbind, lapply(split(rows, rows$setting), function(r)
  data.frame(setting = r$setting[1], method = r$method[1], epochs = r$epochs[1], lr = r$lr[1],
             seeds = nrow(r), test_ll = round(mean(r$test_ll), 2),
             test_ll_range = sprintf("[%.2f, %.2f]", min(r$test_ll), max(r$test_ll)),
             cpu_s = round(mean(r$cpu_s), 1))))
ref <- c(pcd = "pcd_e10", cd = "cd_e10")
agg$cpu_ratio <- NA
for (i in seq_len(nrow(agg))) {
  b <- agg$cpu_s[agg$setting == ref[[agg$method[i]]]]
  if (length(b)) agg$cpu_ratio[i] <- round(agg$cpu_s[i] / b, 1)
}
print(agg[order(agg$method, agg$epochs, agg$lr), ], row.names = FALSE)

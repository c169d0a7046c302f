# Trains a 784 x 500 MNIST RBM with the rbm_train() recipe (see ?rbm_train,
# "The default recipe") for the 500-hidden experiments (RTS Figure 3 of
# Carlson et al. 2016, ARM on RBMs, VAROPT Table 2), and estimates its log Z by
# a long AIS run.
#   data: train = mnist$x[1:8000, ], test = mnist$x[8001:10000, ]
#   PCD-1 with 100 persistent chains, mini-batches of 100, learning rate 0.05
#   decaying linearly to 0 (Tieleman 2008), momentum 0.5, weight decay 2e-4,
#   RBM500_EPOCHS epochs (default 30); held-out check every 10 epochs (AIS,
#   1000 linear steps x 100 chains: a rough log Z, so a rough log-likelihood).
#   log Z: AIS with Salakhutdinov & Murray's schedule (14,500 steps) and
#   RBM500_CHAINS chains (default 200) from the data's base rates; the se is
#   the delta-method se of the AIS estimate; test LL from it.
# RBM500_METHOD=cd1 trains the same recipe with CD-1 instead of PCD-1 (Kiwaki
# 2015's CD1(500) of Section 7.2) and saves bench/models/rbm500_cd1.rds.
# Saves bench/models/rbm500_pcd.rds (xz): model, log_z (the AIS estimate
# object), recipe, times. (bench/models/rbm500_cd25.rds, the older CD-25 model
# of bench/rts/rts_hard*.R, is made by bench/archive/train_rbm500_cd25.R.)
# Run: nice -n 10 Rscript bench/training/train_rbm500.R > bench/training/train_rbm500.out
#      RBM500_METHOD=cd1 RBM500_CHAINS=100 nice -n 10 Rscript bench/training/train_rbm500.R \
#        > bench/training/train_rbm500_cd1.out
suppressPackageStartupMessages(library(logz))
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n\n")
epochs <- as.integer(Sys.getenv("RBM500_EPOCHS", "30"))
chains <- as.integer(Sys.getenv("RBM500_CHAINS", "200"))
method <- Sys.getenv("RBM500_METHOD", "pcd")
stopifnot(method %in% c("pcd", "cd1"))
cat(sprintf("command: RBM500_METHOD=%s RBM500_EPOCHS=%d RBM500_CHAINS=%d Rscript bench/training/train_rbm500.R\n",
            method, epochs, chains))
cat(sprintf("date: %s UTC; commit %s\n\n", format(Sys.time(), tz = "UTC"),
            system("git rev-parse --short HEAD", intern = TRUE)))
train <- mnist$x[1:8000, ]
test <- mnist$x[8001:10000, ]
out <- sprintf("bench/models/rbm500_%s.rds", method)
recipe <- sprintf(paste(if (method == "pcd") "PCD-1, 100 chains," else "CD-1,", "8000 digits, batch 100, lr 0.05 linear decay to 0,",
                        "momentum 0.5, weight decay 2e-4, %d epochs"), epochs)
t0 <- proc.time()[[3]]
m <- rbm_train(train, n_hidden = 500, method = if (method == "pcd") "pcd" else "cd", k = 1L, epochs = epochs, validation = test,
               eval_every = 10, seed = 500, progress = FALSE)
t_train <- proc.time()[[3]] - t0
m$call <- NULL
cat(recipe, "\n")
print(m$history[!is.na(m$history$log_z), c("epoch", "learning_rate", "log_z", "log_z_se",
                                             "train_ll", "valid_ll")], row.names = FALSE)
cat(sprintf("training: %.0f s (one thread, including the held-out checks)\n\n", t_train))
set.seed(5001)
t1 <- proc.time()[[3]]
fit <- ais(m, schedule = schedule_sm08(), n_chains = chains, progress = FALSE)
t_ais <- proc.time()[[3]] - t1
ll <- log_likelihood(m, test, fit$log_z)
saveRDS(list(model = m, log_z = fit, test_ll = ll, recipe = recipe, train_seconds = t_train,
             ais_seconds = t_ais), out, compress = "xz")
cat(sprintf("log Z (AIS, SM08 schedule 14,500 steps, %d chains): %.3f, se %.3f, ESS %.1f (%.0f s)\n",
            chains, fit$log_z, fit$se, fit$ess, t_ais))
cat(sprintf("test log-likelihood with that log Z: %.2f nats per digit\n", ll))
cat(sprintf("mass of the blank image: log p(0) = %.2f\n",
            -free_energy(m, matrix(0, 1, 784)) - fit$log_z))
cat(sprintf("saved %s (%.2f MB)\n", out, file.size(out) / 2^20))

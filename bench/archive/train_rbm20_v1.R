# The first ("v1") 20-hidden MNIST RBMs of Kiwaki (2015), Section 7.1, before
# bench/training/train_rbm20.R moved to the rbm_train() recipe: PCD, CD-1 and CD-25, each for 250,000 parameter updates
# with a fixed learning rate (the paper's recipe; it gives no batch size or
# rate: we use mini-batches of 10 digits of the bundled 10,000, rate 0.05).
# Each model is saved to bench/models/rbm20_<method>_v1.rds with its exact log Z
# (the committed rbm20_pcd_v1.rds and rbm20_cd1_v1.rds, read by the tests'
# bench_rbm() and the bench/ais base-default scripts, were made by this script
# at commit f134890, when rbm_train() used a constant learning rate; CD-25's v1
# model is not kept).
# Run one model:  Rscript bench/archive/train_rbm20_v1.R pcd   (or cd1, cd25)
# Times on this machine (one core, OpenBLAS): PCD and CD-1 about 6 min each,
# CD-25 about 25 min.
suppressPackageStartupMessages(library(logz))
which <- commandArgs(trailingOnly = TRUE)
if (!length(which)) which <- c("pcd", "cd1", "cd25")
updates <- as.integer(Sys.getenv("BENCH_UPDATES", "250000"))
batch <- 10L
specs <- list(pcd = list(method = "pcd", k = 1L), cd1 = list(method = "cd", k = 1L),
              cd25 = list(method = "cd", k = 25L))
dir.create("bench/models", showWarnings = FALSE)
for (nm in which) {
  sp <- specs[[nm]]
  epochs <- updates * batch / nrow(mnist$x)
  t0 <- proc.time()[[3]]
  m <- rbm_train(mnist$x, n_hidden = 20, method = sp$method, k = sp$k, epochs = epochs,
                 batch_size = batch, learning_rate = 0.05, lr_schedule = "constant", seed = 2015, progress = FALSE)
  lz <- exact_log_z(m)
  t1 <- proc.time()[[3]] - t0
  saveRDS(list(model = m, log_z = lz, updates = updates, batch_size = batch, seconds = t1),
          file.path("bench/models", sprintf("rbm20_%s_v1.rds", nm)))
  cat(sprintf("%s: %d updates of %d digits in %.0f s; exact log Z = %.4f\n", nm, updates, batch,
              t1, lz))
}

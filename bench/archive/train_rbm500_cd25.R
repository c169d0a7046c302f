# Trains the hard 784 x 500 MNIST RBM of bench/rts/rts_hard.R (the analogue of
# Salakhutdinov & Murray's CD25(500) model used in Carlson et al. 2016, Sec. 4.2):
# CD-25 on mnist$x[1:8000, ] (mini-batches of 100, learning rate 0.05, weight
# decay 2e-4), 5 epochs with momentum 0.5, then chunks of 10 epochs with
# momentum 0.9 (each chunk continues from the last with `init` and its own seed;
# momentum buffers restart at each chunk). A checkpoint is saved after each chunk.
# Saves bench/models/rbm500_cd25.rds (xz) with the model, the recipe and the time.
# (the committed model was made by this script as bench/train_rbm500.R at commit
# 0645d7a, when rbm_train() used a constant learning rate; the 784 x 500 PCD
# model of bench/training/train_rbm500.R replaced it there).
# Run: Rscript bench/archive/train_rbm500_cd25.R   (one core: 17-19 s per epoch when idle)
# Environment: RBM500_EPOCHS (total epochs, default 25: the committed model; 25
# epochs took 552 s on one thread of a busy 2-core machine, 302 s on a quieter
# one, and a rerun reproduced W, a, b bit for bit; log Z about 542.09).
suppressPackageStartupMessages(library(logz))
total <- as.integer(Sys.getenv("RBM500_EPOCHS", "25"))
x <- mnist$x[1:8000, ]
dir.create("bench/models", showWarnings = FALSE, recursive = TRUE)
out <- "bench/models/rbm500_cd25.rds"
t0 <- proc.time()[[3]]
m <- rbm_train(x, n_hidden = 500, method = "cd", k = 25, epochs = 5, learning_rate = 0.05, lr_schedule = "constant",
               batch_size = 100, momentum = 0.5, weight_decay = 2e-4, seed = 500,
               progress = FALSE)
hist <- m$history
done <- 5L
chunk <- 0L
while (done < total) {
  chunk <- chunk + 1L
  ep <- min(10L, total - done)
  m <- rbm_train(x, n_hidden = 500, method = "cd", k = 25, epochs = ep, learning_rate = 0.05, lr_schedule = "constant",
                 batch_size = 100, momentum = 0.9, weight_decay = 2e-4, init = m,
                 seed = 500L + chunk, progress = FALSE)
  m$history$epoch <- m$history$epoch + done
  hist <- rbind(hist, m$history)
  done <- done + ep
  secs <- proc.time()[[3]] - t0
  m$history <- hist
  m$call <- NULL
  saveRDS(list(model = m, epochs = done, seconds = secs,
               recipe = "CD-25, 8000 digits, batch 100, lr 0.05, wd 2e-4, 5 ep mom 0.5 then mom 0.9"),
          out, compress = "xz")
  cat(sprintf("epoch %d: recon error %.3f, %.0f s, max |W| %.2f\n", done,
              hist$reconstruction_error[done], secs, max(abs(m$W))))
}
cat(sprintf("trained %d epochs in %.0f s; saved %s (%.2f MB)\n", done, proc.time()[[3]] - t0, out,
            file.size(out) / 2^20))

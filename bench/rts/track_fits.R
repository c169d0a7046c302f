# The 784 x 20 PCD recipe of bench/rts/track_training.R part A trained once per
# tracker setting, from the same seed (so every setting trains the same model),
# with exact log Z checked at every epoch under the first setting. `each(i, fit)`
# runs after each fit (to print its row). Returns the fits.
track_fits <- function(settings, x, valid, epochs, width = 8L, quiet = FALSE,
                       each = function(i, fit) NULL) {
  fits <- list()
  for (i in seq_along(settings)) {
    tr <- settings[[i]]
    if (i == 1L) tr$check_every <- 1L
    set.seed(30)
    t0 <- proc.time()[["elapsed"]]
    train <- function() rbm_train(x, n_hidden = 20, method = "pcd", epochs = epochs,
                                  validation = valid, track_log_z = TRUE, track = tr,
                                  progress = FALSE)
    fits[[i]] <- if (quiet) suppressWarnings(train()) else train()
    cat(sprintf("  ran %-*s in %5.1f s\n", width, names(settings)[i],
                proc.time()[["elapsed"]] - t0))
    each(i, fits[[i]])
  }
  stopifnot(all(fits[[1]]$history$check_method == "exact"))
  fits
}

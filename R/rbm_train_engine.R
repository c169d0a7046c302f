# The engine of rbm_train() (src/rbm_train.c).

# One epoch of CD-k or PCD with momentum and weight decay (src/rbm_train.c).
# data_t: nv x N training examples (one per column); params: list(W (nv x
# nh), a (nv), b (nh)); state: list(dW, da, db (the momentum terms), P = NULL
# or nv x n_chains persistent chains); control: list(perm (0-based order of
# the N examples), pcd (1 for PCD, 0 for CD), k, batch_size, n_chains,
# learning_rate (at the first update), lr_step (its fall per update), momentum,
# weight_decay). Returns list(W, a, b, dW, da, db, P, recon_error).
rbm_train_epoch <- function(data_t, params, state, control) {
  if (!is.matrix(data_t) || !is.matrix(params$W) || nrow(params$W) != nrow(data_t))
    internal_error("`data_t` and `params$W` must be matrices with one row per visible unit.")
  nv <- nrow(params$W)
  nh <- ncol(params$W)
  N <- ncol(data_t)
  params <- list(W = internal_double(params$W, "W"), a = internal_double(params$a, "a", nv),
                 b = internal_double(params$b, "b", nh))
  state <- list(dW = internal_double(state$dW, "dW", as.double(nv) * nh),
                da = internal_double(state$da, "da", nv), db = internal_double(state$db, "db", nh),
                P = if (!is.null(state$P)) internal_double(state$P, "P"))
  control <- list(perm = internal_integer(control$perm, "perm", N),
                  pcd = internal_count(control$pcd, "pcd", min = 0L),
                  k = internal_count(control$k, "k"),
                  batch_size = internal_count(control$batch_size, "batch_size"),
                  n_chains = internal_count(control$n_chains, "n_chains"),
                  learning_rate = internal_number(control$learning_rate, "learning_rate"),
                  lr_step = internal_number(control$lr_step, "lr_step"),
                  momentum = internal_number(control$momentum, "momentum"),
                  weight_decay = internal_number(control$weight_decay, "weight_decay"))
  .Call(C_rbm_train_epoch, internal_double(data_t, "data_t"), params, state, control)
}

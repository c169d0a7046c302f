# The engine of tempered RBM training (src/rbm_tempered.c): the one R wrapper
# of its C routine.

# `control$sweeps` sweeps of the persistent simulated-tempering chains under
# model list(W (nv x nh), a (nv), b (nh), a0 (nv): the base's visible biases),
# then the beta = 1 negative statistics Rao-Blackwellized over q(K | v).
# betas, state and control as for rts_rbm_chunk() (thin 0). Returns
# list(chains = list(X, k, streams, acc (K x 6 x M, named by RTS_STAT), store,
# store_k), wq (M: q(K | v) of each chain's state), W_neg (nv x nh), a_neg
# (nv), b_neg (nh): the weighted means of v E[h | v]', v and E[h | v]).
rbm_tempered_chunk <- function(model, betas, state, control) {
  if (!is.list(model) || !is.double(model$W) || !is.double(model$a) || !is.double(model$b) ||
      !is.double(model$a0) || length(model$a0) != length(model$a))
    internal_error("the tempered RBM model must be list(W, a, b, a0) of doubles.")
  a <- rts_chunk_args(betas, state, control, length(model$a))
  if (!identical(a$control$thin, 0L))
    internal_error("tempered training stores no sweeps (control$thin must be 0).")
  res <- .Call(C_rbm_tempered, model, a$betas, a$state, a$control)
  res$chains <- rts_name_acc(res$chains)
  res
}

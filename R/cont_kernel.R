# The engine shared by the samplers of continuous targets (src/cont_kernel.c).

# One sweep of kernel control$kernel for chains at their own betas (the x-move
# of tempered sampling): the only call of C_cont_sweep. state: list(X, lf, lb,
# gf, gb, streams); see src/cont_target.c.
cont_sweep <- function(fn, base, state, control) {
  M <- nrow(state$X)
  stopifnot(is.function(fn), inherits(base, "logz_proposal"), is.matrix(state$X),
            length(control$beta) == M, length(control$step) == M,
            length(control$scale) %in% c(base$dim, M * base$dim))
  state$X <- matrix(as.double(state$X), M)
  control$beta <- as.double(control$beta)
  control$step <- as.double(control$step)
  control$scale <- as.double(control$scale)
  control$kernel <- internal_code(control$kernel, CONT_KERNEL, "kernel")
  control$n_leapfrog <- as.integer(control$n_leapfrog)
  control$sweeps <- as.integer(control$sweeps)
  .Call(C_cont_sweep, fn, base, state, control)
}

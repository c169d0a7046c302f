# The parameter updates of rbm_train()'s R-driven training (method "tempered",
# or optimizer "rmsspectral"): SGD with momentum, and RMSspectral (Carlson,
# Collins, Hsieh, Carin & Cevher 2015, Algorithm 2): RMSprop's running mean of
# the squared gradient as a diagonal preconditioner, then the steepest-ascent
# direction of the spectral norm (the # operator) for the weight matrix and of
# the max norm for the bias vectors.

# The # operator of the spectral (Schatten-infinity) norm: for X = U diag(s) V',
# X# = ||s||_1 U V' (the maximiser of <X, Y> - ||Y||^2 / 2 over Y in that norm).
sharp_spectral <- function(X) {
  s <- svd(X)
  sum(s$d) * tcrossprod(s$u, s$v)
}

# The # operator of the max norm: x# = ||x||_1 sign(x).
sharp_max <- function(x) sum(abs(x)) * sign(x)

# One RMSspectral ascent step on params list(W, a, b) with gradient grad (the
# same shapes): per block, v <- lambda v + (1 - lambda) g^2, d = sqrt(v) +
# epsilon, and the block moves by step d^(-1/2) (d^(-1/2) g)#. state: list(W,
# a, b) of the running means (zeros at the start). Returns list(params, state).
rmsspectral_step <- function(params, grad, state, step, lambda, epsilon) {
  for (nm in c("W", "a", "b")) {
    g <- grad[[nm]]
    v <- lambda * state[[nm]] + (1 - lambda) * g^2
    d <- sqrt(v) + epsilon
    x <- g / sqrt(d)
    sh <- if (nm == "W") sharp_spectral(x) else sharp_max(x)
    params[[nm]] <- params[[nm]] + step * sh / sqrt(d)
    state[[nm]] <- v
  }
  list(params = params, state = state)
}

# One SGD step with momentum: the velocity state (list(W, a, b)) becomes
# momentum state + step grad and is added to params. Returns list(params, state).
sgd_step <- function(params, grad, state, step, momentum) {
  for (nm in c("W", "a", "b")) {
    state[[nm]] <- momentum * state[[nm]] + step * grad[[nm]]
    params[[nm]] <- params[[nm]] + state[[nm]]
  }
  list(params = params, state = state)
}

# The gradient of the mean log-likelihood (with L2 weight decay on W) from
# the positive statistics of the batch V0 (nv x B) and the negative ones
# (list(W, a, b): the model's expectations of v h', v and h). Returns
# list(grad = list(W, a, b), recon = the batch's summed squared mean-field
# reconstruction error, drawn as rbm_train_epoch() does).
rbm_batch_gradient <- function(params, V0, neg, weight_decay) {
  B <- ncol(V0)
  H0 <- stats::plogis(params$b + crossprod(params$W, V0))
  Hs <- matrix(as.double(stats::runif(length(H0)) < H0), nrow(H0))
  Vp <- stats::plogis(params$a + params$W %*% Hs)
  list(grad = list(W = tcrossprod(V0, H0) / B - neg$W - weight_decay * params$W,
                   a = rowMeans(V0) - neg$a, b = rowMeans(H0) - neg$b),
       recon = sum((V0 - Vp)^2))
}

# The negative statistics of CD-k (chains start at V, the batch) or PCD-k
# (V the persistent chains, nv x C) by block Gibbs with R's RNG. Returns
# list(W, a, b, V (the chains' last visible states)).
rbm_gibbs_negative <- function(params, V, k) {
  draw <- function(P) matrix(as.double(stats::runif(length(P)) < P), nrow(P))
  for (s in seq_len(k)) {
    H <- draw(stats::plogis(params$b + crossprod(params$W, V)))
    V <- draw(stats::plogis(params$a + params$W %*% H))
  }
  Hp <- stats::plogis(params$b + crossprod(params$W, V))
  C <- ncol(V)
  list(W = tcrossprod(V, Hp) / C, a = rowMeans(V), b = rowMeans(Hp), V = V)
}

# RMSspectral's floor on the preconditioner, sqrt(v) + epsilon.
rbm_rms_epsilon <- 1e-6

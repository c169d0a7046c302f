# Baselines of the GumbelMIP paper: rejection sampling with an LP-bounded
# piecewise-constant proposal over subtrees, and Perturb-and-MAP with
# low-dimensional perturbations (exact MAP by the same branch and bound).

#' Perturb-and-MAP with low-dimensional perturbations (approximate samples)
#'
#' The approximate sampler of Hazan, Maji & Jaakkola (2013) used as a baseline
#' by Kim, Sabharwal & Ermon (2016): every variable's log-potential gets
#' independent Gumbel(0) perturbations \eqn{\gamma_i(0), \gamma_i(1)} and the
#' sample is the exact MAP configuration of the perturbed model,
#' \eqn{\arg\max_s v(s) + \sum_i \gamma_i(s_i)}, found by the same branch and
#' bound as [mip_sample()] without Gumbel process (LP bounds, GLPK). The
#' samples are not from \eqn{p} in general (exact only without couplings);
#' their mean perturbed maximum minus \eqn{n C_E} is an upper bound on
#' \eqn{E} of the log partition function (Hazan & Jaakkola 2012), returned as
#' `log_z_upper`.
#'
#' @param model an [ising] model, an [rbm] or a [mip_model()].
#' @param n number of samples.
#' @param time_limit,node_limit limits per MAP search (as in [mip_sample()]);
#'   a search stopped early returns its incumbent.
#' @param bound `"lp"` or `"simple"`.
#' @param progress show a progress bar.
#' @return An object of class `c("logz_perturb_map", "logz_estimate")`:
#'   `states` (n x p, the model's values), `map_value` (perturbed maxima),
#'   `exact` (MAP proven optimal), `nodes`, `log_z` (`NA`: no estimate),
#'   `log_z_upper`, and the usual `se`, `method`, `time`, `counts`,
#'   `diagnostics`, `seed`, `call`.
#' @section Errors: as [mip_sample()].
#' @references
#' * Hazan, T., Maji, S. and Jaakkola, T. (2013). On sampling from the Gibbs
#'   distribution with random maximum a-posteriori perturbations. NIPS.
#' * Kim, C., Sabharwal, A. and Ermon, S. (2016). AAAI (Figure 2).
#' @seealso [mip_sample()]
#' @examples
#' set.seed(1)
#' m <- ising_grid(3, 3, coupling = 0.5)
#' pm <- perturb_and_map(m, 50, progress = FALSE)
#' pm
#' rbind(perturb_and_map = colMeans(pm$states == 1), exact = exact_marginals(m)$node)
#' @export
perturb_and_map <- function(model, n = 1L, time_limit = Inf, node_limit = Inf,
                            bound = c("lp", "simple"), progress = interactive()) {
  call <- match.call()
  p <- mip_problem(model)
  n <- check_count(n, "n")
  time_limit <- check_limit(time_limit, "time_limit")
  node_limit <- check_limit(node_limit, "node_limit")
  bound <- match_arg(bound, "bound")
  check_flag(progress, "progress")
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  control <- list(bound_lp = as.integer(bound == "lp"), best_first = 1L,
                  branching = MIP_BRANCHING[["auto"]], perturb = 0L, node_limit = node_limit,
                  time_limit = time_limit)
  order <- mip_order(p)
  S <- matrix(0L, n, p$n)
  val <- numeric(n)
  ex <- logical(n)
  nodes <- numeric(n)
  pb <- progress_bar(progress, n)
  on.exit(pb$close())
  for (k in seq_len(n)) {
    g <- matrix(-log(stats::rexp(2L * p$n)), 2L)   # Gumbel(0) per variable and value
    q <- p
    if (p$kind == MIP_KIND[["pairwise"]]) q$node <- p$node + g
    else {
      q$c <- p$c + g[2, ] - g[1, ]
      q$c0 <- p$c0 + sum(g[1, ])
    }
    r <- mip_run(q, 1L, control, order = order)
    if (r$value == -Inf)
      stop_no_call("`model` has no feasible binary point: every configuration violates the constraints.")
    S[k, ] <- r$states
    val[k] <- r$value
    ex[k] <- as.logical(r$exact)
    nodes[k] <- r$nodes
    pb$update(k)
  }
  x <- list(states = mip_states(p, S), map_value = val, exact = ex, nodes = nodes,
            log_z = NA_real_, se = NA_real_, log_z_upper = mean(val) - p$n * euler_gamma,
            method = "Perturb-and-MAP (low-dimensional)", time = proc.time()[["elapsed"]] - t0,
            counts = c(samples = n, nodes = sum(nodes)),
            diagnostics = data.frame(sample = seq_len(n), map_value = val, exact = ex,
                                     nodes = nodes),
            seed = seed, call = call)
  new_logz_estimate(x, "logz_perturb_map")
}

#' Blocked Gibbs sampling with exact GumbelMIP block updates
#'
#' Each iteration picks a block of `block_size` variables uniformly at random
#' and replaces them by an exact sample from their conditional distribution
#' given all other variables, drawn by [mip_sample()] (Kim, Sabharwal & Ermon
#' 2016, "Blocked Gibbs with large blocks"). The conditional of a pairwise
#' model is again pairwise: edges from the block to fixed variables become
#' fields. `block_size = 1` is Gibbs sampling with random scan; `block_size`
#' equal to the number of variables draws independent exact samples. For an
#' [rbm], the variables are the visible and hidden units together.
#'
#' @param model an [ising] model or an [rbm].
#' @param block_size variables per block (1 to the number of variables).
#' @param iterations number of block updates.
#' @param init initial state (the model's values; for an RBM, visible then
#'   hidden units, 0/1); default uniformly random.
#' @param thin keep every `thin`-th state.
#' @param bound,time_limit passed to [mip_sample()] for each block (a block
#'   stopped by `time_limit` is an approximate update; counted in
#'   `inexact`).
#' @param progress show a progress bar.
#' @return An object of class `logz_blocked_gibbs`: a list with `states`
#'   (matrix, one kept state per row, in the model's values), `block_size`,
#'   `iterations`, `thin`, `nodes` (search nodes per iteration), `inexact`
#'   (block updates stopped early), `time` (seconds), `seed`, `call`.
#' @section Errors: `model` not an Ising model or RBM; `block_size`,
#'   `iterations`, `thin` not whole numbers in range (or more kept states
#'   than a matrix holds: kept states are allocated as the chain reaches
#'   them); `init` of the wrong length or with values outside the model's.
#' @references
#' * Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling with integer linear
#'   programs and random perturbations. AAAI (Figure 3).
#' @seealso [mip_sample()], [gibbs_sample()]
#' @examples
#' set.seed(1)
#' m <- ising_grid(4, 4, coupling = 0.8)
#' ch <- blocked_gibbs(m, block_size = 6, iterations = 200, progress = FALSE)
#' ch
#' rbind(blocked = colMeans(ch$states[-(1:50), ] == 1), exact = exact_marginals(m)$node)
#' @export
blocked_gibbs <- function(model, block_size, iterations, init = NULL, thin = 1L,
                          bound = c("lp", "simple"), time_limit = Inf,
                          progress = interactive()) {
  call <- match.call()
  if (!is_ising(model) && !inherits(model, "rbm"))
    stop_no_call(sprintf("`model` must be an ising model or an rbm, not %s.", describe(model)))
  p <- mip_problem(model)
  block_size <- check_count(block_size, "block_size", max = p$n)
  iterations <- check_count(iterations, "iterations")
  thin <- check_count(thin, "thin")
  bound <- match_arg(bound, "bound")
  time_limit <- check_limit(time_limit, "time_limit")
  check_flag(progress, "progress")
  seed <- rng_state()
  if (is.null(init)) {
    s <- as.double(stats::runif(p$n) < 0.5)
  } else {
    if (!is.numeric(init) || length(init) != p$n || anyNA(init) || !all(init %in% p$values))
      stop_no_call(sprintf("`init` must be a vector of %d values in {%s}, not %s.", p$n,
                           paste(p$values, collapse = ", "), describe(init)))
    s <- as.double(init == p$values[2])
  }
  control <- list(bound_lp = as.integer(bound == "lp"), best_first = 1L,
                  branching = MIP_BRANCHING[["auto"]], perturb = 1L, node_limit = Inf, time_limit = time_limit)
  nkeep <- iterations %/% thin
  if (as.double(nkeep) * p$n > .Machine$integer.max)
    stop_no_call(sprintf(paste0("`iterations` / `thin` = %d kept states of %d variables would need a ",
                                "matrix of %.3g entries (more than R's %d); increase `thin`."),
                         nkeep, p$n, as.double(nkeep) * p$n, .Machine$integer.max))
  # kept states in blocks of up to 1024, allocated as the chain reaches them
  kb <- 1024L
  blocks <- vector("list", (nkeep + kb - 1L) %/% kb)
  nodes <- numeric(iterations)
  inexact <- 0L
  t0 <- proc.time()[["elapsed"]]
  pb <- progress_bar(progress, iterations)
  on.exit(pb$close())
  for (it in seq_len(iterations)) {
    B <- sort(sample.int(p$n, block_size))
    q <- conditional_problem(p, B, s)
    r <- mip_run(q, 1L, control)
    s[B] <- r$states[1, ]
    nodes[it] <- r$nodes
    inexact <- inexact + !r$exact
    if (it %% thin == 0L) {
      k <- it %/% thin - 1L
      b <- k %/% kb + 1L
      if (is.null(blocks[[b]])) blocks[[b]] <- matrix(0L, min(kb, nkeep - (b - 1L) * kb), p$n)
      blocks[[b]][k %% kb + 1L, ] <- as.integer(s)
    }
    pb$update(it)
  }
  keep <- if (nkeep) do.call(rbind, blocks) else matrix(0L, 0L, p$n)
  structure(list(states = mip_states(p, keep), block_size = block_size, iterations = iterations,
                 thin = thin, nodes = nodes, inexact = inexact,
                 time = proc.time()[["elapsed"]] - t0, seed = seed, call = call),
            class = "logz_blocked_gibbs")
}

# The pairwise problem of the variables B (sorted) given s on the others.
conditional_problem <- function(p, B, s) {
  inB <- logical(p$n)
  inB[B] <- TRUE
  pos <- integer(p$n)
  pos[B] <- seq_along(B)
  node <- p$node[, B, drop = FALSE]
  f <- p$from
  t <- p$to
  # block - outside edges: fields on the block end
  k <- which(inB[f] & !inB[t])
  if (length(k)) {
    st <- s[t[k]]
    node[1, ] <- node[1, ] + rowsum_to(pos[f[k]], p$edge[cbind(1 + st, k)], length(B))
    node[2, ] <- node[2, ] + rowsum_to(pos[f[k]], p$edge[cbind(3 + st, k)], length(B))
  }
  k <- which(!inB[f] & inB[t])
  if (length(k)) {
    sf <- s[f[k]]
    node[1, ] <- node[1, ] + rowsum_to(pos[t[k]], p$edge[cbind(2 * sf + 1, k)], length(B))
    node[2, ] <- node[2, ] + rowsum_to(pos[t[k]], p$edge[cbind(2 * sf + 2, k)], length(B))
  }
  k <- which(inB[f] & inB[t])
  pairwise_problem(length(B), pos[f[k]], pos[t[k]], node, p$edge[, k, drop = FALSE], 0)
}

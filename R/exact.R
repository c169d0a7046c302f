# Exact inference: the exact_log_z() and exact_marginals() generics and their
# methods (rbm by enumeration, ising by enumeration or the junction tree); the
# engines are in R/exact_engine.R.

#' Exact log partition function and marginals of an Ising model
#'
#' `exact_log_z()` for an [ising] model computes \eqn{\log Z} exactly, either
#' by enumerating all \eqn{2^n} states in C (Gray-code order: one flip and a
#' local-field update per state, streaming log-sum-exp, split over `threads`
#' in a fixed block order so the result does not depend on `threads`), or by
#' variable elimination and the junction tree it induces, in log space,
#' along the narrowest of a few elimination orders (min-fill; node order;
#' breadth-first from a peripheral node; for grids also column by column) (cost about \eqn{n 2^{w+1}} for elimination width
#' \eqn{w}; a grid with `min(rows, cols)` = 15 has \eqn{w = 15} and takes
#' well under a second). `exact_marginals()` returns
#' \eqn{P(x_i = 1)} for every node (for `"pm1"` spins, \eqn{P(x_i = +1)}) and
#' optionally the pairwise marginals of the edges, from the same computations
#' (an upward and a downward pass over the junction tree).
#'
#' `method = "auto"` enumerates models with at most 16 variables, otherwise
#' uses the junction tree when the elimination width is at most `max_treewidth`,
#' otherwise enumerates if \eqn{2^n \le} `max_states`, and otherwise stops.
#'
#' @param model an [ising] model.
#' @param method `"auto"`, `"enumerate"` or `"junction_tree"`.
#' @param max_states refuse to enumerate more than this many states (default
#'   \eqn{2^{26}}: about 67 million, a few seconds for sparse models).
#' @param max_treewidth refuse junction trees whose elimination width
#'   (largest clique minus one, an upper bound on the treewidth) exceeds this;
#'   a clique of \eqn{w + 1} variables holds a table of \eqn{2^{w+1}} doubles.
#' @param threads number of OpenMP threads for enumeration (the junction tree
#'   runs on one thread).
#' @param pairwise also return the edge marginals.
#' @param progress show progress (default: in interactive sessions; through
#'   \pkg{progressr} when its handlers are on, see [logz_progress]). An
#'   enumeration of \eqn{2^{22}} states or more then runs in 64 to 256 chunks
#'   (the first variables fixed in each; for `exact_marginals()` the
#'   marginals are the chunks' marginals mixed by their share of Z), reporting
#'   after each; the answer is the same up to rounding. The junction tree runs
#'   in one call (well under a second up to width 15).
#' @param ... further arguments for methods.
#' @return `exact_log_z()`: log Z (a number, in nats).
#'   `exact_marginals()`: a list with `node` (numeric vector of length `n`,
#'   \eqn{P(x_i = 1)}), `pairwise` (`NULL`, or with `pairwise = TRUE` a data
#'   frame with the edges' `from`, `to`, `weight`, `p11` =
#'   \eqn{P(x_i = 1, x_j = 1)} and `mean_product` = \eqn{E[x_i x_j]} in the
#'   model's spin values), `log_z` and `method` (the method used).
#' @section Errors: `model` not an `ising`; with `"enumerate"`, a model with
#'   more than `log2(max_states)` variables; with `"junction_tree"`, a model
#'   whose elimination width exceeds `max_treewidth` (the message gives the
#'   width), whose tables would need more than 4 GB, or with more than 20,000
#'   variables; with `"auto"`, a model too large for both.
#' @references
#' * Koller, D. and Friedman, N. (2009). Probabilistic Graphical Models, chapters 9 and
#'   10 (variable elimination, min-fill, clique trees).
#' @seealso [ising()], [ais.ising()]
#' @examples
#' set.seed(1)
#' m <- ising_grid(4, 5, coupling = 0.5, field = 0.3, type = "mixed")
#' exact_log_z(m)
#' exact_log_z(m, method = "enumerate")
#' mg <- exact_marginals(m, pairwise = TRUE)
#' head(mg$node)
#' head(mg$pairwise)
#' @name exact_log_z.ising
NULL

#' @rdname exact_log_z.ising
#' @export
exact_log_z.ising <- function(model, method = c("auto", "enumerate", "junction_tree"),
                              max_states = 2^26, max_treewidth = 20L, threads = 1L,
                              progress = interactive(), ...) {
  check_dots_used(...)
  validate_model(model)
  method <- match_arg(method, "method")
  check_flag(progress, "progress")
  t0 <- proc.time()[["elapsed"]]
  res <- ising_exact(model, method, "none", max_states, max_treewidth, threads, progress)
  how <- if (identical(res$method, "junction_tree")) "junction tree (min-fill order)" else
    sprintf("enumeration of the 2^%d states", as.integer(model$n))
  logz_exact_of(res$log_z, how, proc.time()[["elapsed"]] - t0, match.call())
}

#' @rdname exact_log_z.ising
#' @export
exact_marginals <- function(model, ...) UseMethod("exact_marginals")

#' @export
exact_marginals.default <- function(model, ...) {
  stop_no_call(sprintf("exact_marginals() does not know how to handle `model` of class %s.",
                       paste(class(model), collapse = "/")))
}

#' @rdname exact_log_z.ising
#' @export
exact_marginals.ising <- function(model, method = c("auto", "enumerate", "junction_tree"),
                                  pairwise = FALSE, max_states = 2^26, max_treewidth = 20L,
                                  threads = 1L, progress = interactive(), ...) {
  check_dots_used(...)
  validate_model(model)
  method <- match_arg(method, "method")
  check_flag(pairwise, "pairwise")
  check_flag(progress, "progress")
  res <- ising_exact(model, method, if (pairwise) "pair" else "node", max_states, max_treewidth,
                     threads, progress)
  pw <- NULL
  if (pairwise) {
    v <- model$values
    p1 <- res$node[model$edges$from]
    p2 <- res$node[model$edges$to]
    p11 <- res$pair
    # E[x_i x_j] from the 2 x 2 table (p11, p1 - p11, p2 - p11, 1 - p1 - p2 + p11)
    mp <- v[2]^2 * p11 + v[1] * v[2] * (p1 + p2 - 2 * p11) + v[1]^2 * (1 - p1 - p2 + p11)
    pw <- data.frame(model$edges, p11 = p11, mean_product = mp)
  }
  node <- res$node
  if (!is.null(model$names)) names(node) <- model$names
  if (!is.null(pw) && !is.null(model$names))
    pw <- data.frame(from_name = model$names[pw$from], to_name = model$names[pw$to], pw)
  list(node = node, pairwise = pw, log_z = res$log_z, method = res$method)
}

#' Exact log partition function by enumeration
#'
#' `exact_log_z()` computes log Z by exact summation; the methods are for
#' RBMs (below) and Ising models ([exact_log_z.ising()]). For an RBM, it sums
#' out one layer analytically and enumerates all \eqn{2^n} states of the
#' other (the smaller one by default), in C with Gray-code updates and a
#' streaming log-sum-exp, split over `threads`.
#'
#' @param model a model: an `rbm`.
#' @param ... further arguments for methods.
#' @param layer which layer to enumerate: `"auto"` (the smaller), `"hidden"`
#'   or `"visible"`. The answer does not depend on it (up to rounding).
#' @param max_states refuse to enumerate more than this many states
#'   (default `2^26`).
#' @param threads number of OpenMP threads.
#' @param progress show progress (default: in interactive sessions). From
#'   \eqn{2^{22}} states on, the enumeration then runs in 64 to 256 chunks
#'   (the first units of the enumerated layer fixed in each), reporting after
#'   each; the answer is the same up to rounding.
#' @return log Z in nats: a [logz_exact], a number (usable as one in
#'   arithmetic, comparisons, `format()`, `sprintf()`, `all.equal()`, as
#'   `log_z` of [log_likelihood()]) that carries the fields of a
#'   [logz_estimate] (`se = 0`, `method = "exact"`, `how`, `time`), as
#'   [log_partition()] returns it.
#' @section Errors: a model whose smaller layer has more than
#'   `log2(max_states)` units; `progress` not `TRUE`/`FALSE`.
#' @examples
#' set.seed(1)
#' m <- rbm(matrix(rnorm(20 * 8), 20, 8), rnorm(20), rnorm(8))
#' exact_log_z(m)
#' exact_log_z(m, layer = "visible")
#' @export
exact_log_z <- function(model, ...) UseMethod("exact_log_z")

#' @export
exact_log_z.default <- function(model, ...) {
  stop_no_call(sprintf("exact_log_z() does not know how to handle `model` of class %s.",
                       paste(class(model), collapse = "/")))
}

#' @rdname exact_log_z
#' @export
exact_log_z.rbm <- function(model, layer = c("auto", "hidden", "visible"),
                            max_states = 2^26, threads = 1L, progress = interactive(), ...) {
  check_dots_used(...)
  layer <- match_arg(layer, "layer")
  validate_rbm(model)
  check_number(max_states, "max_states", lower = 1)
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  t0 <- proc.time()[["elapsed"]]
  done <- function(lz, how) logz_exact_of(lz, how, proc.time()[["elapsed"]] - t0, match.call())
  nv <- model$n_visible
  nh <- model$n_hidden
  if (nh == 0L || all(model$W == 0))
    return(done(sum(softplus(model$a)) + sum(softplus(model$b)), "closed form (no couplings)"))
  if (layer == "auto") layer <- if (nh <= nv) "hidden" else "visible"
  n <- if (layer == "hidden") nh else nv
  if (n > 40 || 2^n > max_states)
    stop_no_call(sprintf(paste0("exact_log_z(): enumerating the %s layer needs 2^%d states, ",
                                "more than `max_states` = %s. Use ais() for this model, ",
                                "or raise `max_states`."), layer, n, format(max_states)))
  how <- sprintf("enumeration of the 2^%d states of the %s layer", n, layer)
  if (progress && n >= chunk_min_units) return(done(rbm_exact_chunked(model, layer, threads), how))
  done(rbm_exact_log_z(model$W, model$a, model$b, layer, threads), how)
}

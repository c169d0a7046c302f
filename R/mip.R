# GumbelMIP (Kim, Sabharwal & Ermon 2016): exact and anytime sampling of binary
# models by Gumbel-perturbed branch and bound with GLPK LP relaxations.
#
# Internally every model becomes a "mip problem": n binary variables s in
# {0,1}^n and a log-weight v(s), either pairwise (node tables node[c, i] and
# edge tables edge[2 c_from + c_to + 1, e], plus c0) or linear (c's + c0 on the
# feasible set of A s (dir) b). The LP relaxations are built here, in R, from
# the problem (mip_lp()), and solved in C (src/mip.c).

# ---- problems ------------------------------------------------------------------

pairwise_problem <- function(n, from, to, node, edge, c0 = 0, values = c(0, 1), labels = NULL) {
  structure(list(kind = 0L, n = as.integer(n), from = as.integer(from), to = as.integer(to),
                 node = matrix(as.double(node), 2L), edge = matrix(as.double(edge), 4L),
                 c0 = as.double(c0), values = values, labels = labels),
            class = "logz_mip_problem")
}

# The problem of a model: ising, rbm, logz_mip_model (or a problem itself),
# checked for log-weights too large for double precision (mip_check_scale()).
mip_problem <- function(model, name = "model") {
  if (inherits(model, "logz_mip_problem")) return(model)
  mip_check_scale(mip_problem_raw(model, name), name)
}

# Largest total log-weight magnitude that the search resolves: the values
# v(x) + Gumbel are compared in double precision, so their rounding error,
# about 2^-52 times the sum of the factors' largest |log-weights|, must stay
# far below the O(1) Gumbel differences (1e12 gives ~1e-4).
mip_max_scale <- 1e12

# Log-weights whose sum overflows or loses the O(1) Gumbel perturbations give
# wrong frequencies: a clear error instead. The constant c0 does not count
# (mip_run() searches without it). Constraint rows of a linear problem are
# scaled to a largest |coefficient| of 1 (the same feasible set), so huge
# constraint coefficients cannot overflow the row activities.
mip_check_scale <- function(p, name = "model") {
  big <- function(x) if (length(x)) max(abs(x)) else 0
  if (p$kind == 0L) {
    S <- sum(apply(abs(p$node), 2L, max)) + if (length(p$from)) sum(apply(abs(p$edge), 2L, max)) else 0
  } else {
    S <- sum(abs(p$c))
    if (nrow(p$A)) {
      s <- apply(abs(p$A), 1L, max)
      s[s == 0 | !is.finite(s)] <- 1
      p$A <- p$A / s
      p$rlo <- p$rlo / s
      p$rhi <- p$rhi / s
    }
  }
  if (!is.finite(S) || S > mip_max_scale)
    stop_no_call(sprintf(paste0(
      "`%s` has log-weights too large for exact sampling in double precision: the factors' ",
      "largest |log-weights| sum to %s (limit %g), so v(x) + Gumbel noise cannot be compared ",
      "exactly (the largest single log-weight is %s). Rescale the weights, fields or objective."),
      name, format(S, digits = 3), mip_max_scale,
      format(if (p$kind == 0L) max(big(p$node), big(p$edge)) else big(p$c), digits = 3)))
  if (!is.finite(p$c0))
    stop_no_call(sprintf("`%s` has a non-finite constant log-weight (offset): %s.", name, p$c0))
  p
}

mip_problem_raw <- function(model, name) {
  if (is_ising(model)) {
    v <- model$values
    e <- model$edges
    node <- rbind(model$field * v[1], model$field * v[2])
    edge <- rbind(e$weight * v[1] * v[1], e$weight * v[1] * v[2], e$weight * v[2] * v[1],
                  e$weight * v[2] * v[2])
    return(pairwise_problem(model$n, e$from, e$to, node, edge, 0, values = v))
  }
  if (inherits(model, "rbm")) {
    nv <- model$n_visible
    nh <- model$n_hidden
    idx <- which(model$W != 0, arr.ind = TRUE)
    w <- model$W[idx]
    edge <- matrix(0, 4L, length(w))       # (also with no hidden units: no edges)
    edge[4L, ] <- w
    node <- rbind(0, c(model$a, model$b))
    return(pairwise_problem(nv + nh, idx[, 1], nv + idx[, 2], node, edge, 0,
                            labels = c(sprintf("v%d", seq_len(nv)), sprintf("h%d", seq_len(nh)))))
  }
  if (inherits(model, "logz_mip_model")) {
    return(structure(list(kind = 1L, n = length(model$objective), c = model$objective,
                          c0 = model$offset, A = model$A, rlo = model$rlo, rhi = model$rhi,
                          values = c(0, 1), labels = names(model$objective)),
                     class = "logz_mip_problem"))
  }
  stop_no_call(sprintf(paste0("`%s` must be an ising model, an rbm or a mip_model(), not %s."),
                       name, describe(model)))
}

# What the C engine reads as the value model.
mip_c_model <- function(p) {
  if (p$kind == 0L) {
    return(list(n = p$n, kind = 0L, c0 = p$c0, from = p$from - 1L, to = p$to - 1L,
                node = as.vector(p$node), edge = as.vector(p$edge)))
  }
  nz <- which(p$A != 0, arr.ind = TRUE)
  list(n = p$n, kind = 1L, c0 = p$c0, c = as.double(p$c), ai = as.integer(nz[, 1] - 1L),
       aj = as.integer(nz[, 2] - 1L), ax = as.double(p$A[nz]), rlo = as.double(p$rlo),
       rhi = as.double(p$rhi))
}

# The LP relaxation: columns 1..n are the binary variables (in [0, 1]).
# "local": the local polytope of Wainwright & Jordan (paper, eq. 4): node
#   indicators mu_i and four edge indicators mu_e(c_i, c_j) per edge, with the
#   four marginalisation equalities per edge.
# "compact": one column y_e = s_i s_j per edge, linearised by y <= s_i,
#   y <= s_j (needed when the edge's interaction is positive) and
#   y >= s_i + s_j - 1, y >= 0 (when negative); the same bound, fewer rows.
mip_lp <- function(p, encoding = c("compact", "local")) {
  encoding <- mip_choice(encoding, "encoding")
  n <- p$n
  if (p$kind == 1L) {
    nz <- which(p$A != 0, arr.ind = TRUE)
    return(list(obj = as.double(p$c), clo = rep(0, n), chi = rep(1, n), rlo = as.double(p$rlo),
                rhi = as.double(p$rhi), ia = as.integer(nz[, 1] - 1L), ja = as.integer(nz[, 2] - 1L),
                ar = as.double(p$A[nz]), c0 = p$c0))
  }
  m <- length(p$from)
  t0 <- p$node[1, ]
  a <- p$node[2, ] - t0
  c0 <- p$c0 + sum(t0)
  if (encoding == "local") {
    obj <- c(a, as.vector(p$edge))
    col <- n + 4L * (seq_len(m) - 1L)          # 0-based column of mu_e(0,0)
    r <- 4L * (seq_len(m) - 1L)                # 0-based first row of edge e
    fi <- p$from - 1L
    ti <- p$to - 1L
    # rows: mu00 + mu01 + mu_i = 1; mu10 + mu11 - mu_i = 0;
    #       mu00 + mu10 + mu_j = 1; mu01 + mu11 - mu_j = 0
    ia <- c(r, r, r, r + 1L, r + 1L, r + 1L, r + 2L, r + 2L, r + 2L, r + 3L, r + 3L, r + 3L)
    ja <- c(col, col + 1L, fi, col + 2L, col + 3L, fi, col, col + 2L, ti, col + 1L, col + 3L, ti)
    ar <- rep(c(1, 1, 1, 1, 1, -1, 1, 1, 1, 1, 1, -1), each = m)
    rhs <- as.vector(matrix(c(1, 0, 1, 0), 4L, m))
    return(list(obj = obj, clo = rep(0, n + 4L * m), chi = rep(1, n + 4L * m), rlo = rhs,
                rhi = rhs, ia = as.integer(ia), ja = as.integer(ja), ar = ar, c0 = c0))
  }
  e <- p$edge
  c0 <- c0 + sum(e[1, ])
  ai <- e[3, ] - e[1, ]      # s_from
  aj <- e[2, ] - e[1, ]      # s_to
  b <- e[4, ] - e[3, ] - e[2, ] + e[1, ]
  a <- a + rowsum_to(p$from, ai, n) + rowsum_to(p$to, aj, n)
  keep <- which(b != 0)
  k <- length(keep)
  ycol <- n + seq_len(k) - 1L
  fi <- p$from[keep] - 1L
  ti <- p$to[keep] - 1L
  pos <- b[keep] > 0
  # positive: y - s_i <= 0, y - s_j <= 0; negative: y - s_i - s_j >= -1
  np <- sum(pos)
  rp <- seq_len(np) - 1L
  rn <- 2L * np + seq_len(k - np) - 1L
  ia <- c(rp, rp, np + rp, np + rp, rn, rn, rn)
  ja <- c(ycol[pos], fi[pos], ycol[pos], ti[pos], ycol[!pos], fi[!pos], ti[!pos])
  ar <- c(rep(c(1, -1, 1, -1), each = np), rep(c(1, -1, -1), each = k - np))
  nr <- 2L * np + (k - np)
  list(obj = c(a, b[keep]), clo = rep(0, n + k), chi = rep(1, n + k),
       rlo = c(rep(-Inf, 2L * np), rep(-1, k - np)), rhi = c(rep(0, 2L * np), rep(Inf, k - np)),
       ia = as.integer(ia), ja = as.integer(ja), ar = ar, c0 = c0)
}

rowsum_to <- function(idx, x, n) {
  out <- numeric(n)
  if (length(idx)) {
    s <- rowsum(x, idx)
    out[as.integer(rownames(s))] <- s[, 1]
  }
  out
}

# v(s) for the rows of a 0/1 state matrix S (one configuration per row).
mip_value <- function(p, S) {
  if (p$kind == 1L) {
    v <- p$c0 + drop(S %*% p$c)
    if (nrow(p$A)) {
      act <- S %*% t(p$A)
      tol <- 1e-9 * (1 + abs(act))
      ok <- rowSums(act < rep(p$rlo, each = nrow(S)) - tol |
                      act > rep(p$rhi, each = nrow(S)) + tol) == 0
      v[!ok] <- -Inf
    }
    return(v)
  }
  v <- p$c0 + drop(S %*% (p$node[2, ] - p$node[1, ])) + sum(p$node[1, ])
  if (length(p$from)) {
    sf <- S[, p$from, drop = FALSE]
    st <- S[, p$to, drop = FALSE]
    cell <- 2 * sf + st + 1
    v <- v + rowSums(matrix(p$edge[cbind(as.vector(cell), rep(seq_along(p$from), each = nrow(S)))],
                            nrow(S)))
  }
  v
}

# Pairwise with every interaction b_e = t11 - t10 - t01 + t00 >= 0 (supermodular):
# the LP relaxation is tight and solved exactly by a minimum cut.
mip_attractive <- function(p) {
  p$kind == 0L && all(p$edge[4, ] - p$edge[3, ] - p$edge[2, ] + p$edge[1, ] >= 0)
}

# Static branching order: the variables with the largest total interaction first.
mip_order <- function(p) {
  if (p$kind == 1L) return(order(-abs(p$c) - colSums(abs(p$A))) - 1L)
  s <- abs(p$node[2, ] - p$node[1, ])
  if (length(p$from)) {
    r <- apply(p$edge, 2L, function(t) max(t) - min(t))
    s <- s + rowsum_to(p$from, r, p$n) + rowsum_to(p$to, r, p$n)
  }
  order(-s) - 1L
}


# ---- general binary programs ------------------------------------------------------

#' Binary programs as models: sample from exp(c'x) on a feasible set
#'
#' `mip_model()` defines the distribution \eqn{p(x) \propto \exp(c'x + c_0)}
#' over binary vectors \eqn{x \in \{0,1\}^n} restricted to the feasible set
#' \eqn{\{x : A x \;\mathrm{dir}\; b\}}, for [mip_sample()] and the other
#' GumbelMIP samplers (the paper's general ILP setting, Algorithm 1 with "an
#' ILP Q"). The LP relaxation is \eqn{\max c'x} over \eqn{x \in [0,1]^n} with
#' the same constraints.
#'
#' @param objective numeric vector \eqn{c} of length \eqn{n \ge 1} (finite):
#'   the log-weight of each variable being 1.
#' @param A constraint matrix, `m x n` numeric (finite), or `NULL` for no
#'   constraints.
#' @param b right-hand sides, numeric of length `m` (finite).
#' @param dir constraint directions, `"<="`, `">="` or `"=="`, recycled to
#'   length `m`.
#' @param offset a constant \eqn{c_0} added to the log-weight.
#' @return An object of class `"logz_mip_model"`: a list with `objective`,
#'   `A`, `rlo`, `rhi` (row bounds equivalent to `dir` and `b`), `offset`, `n`.
#' @section Errors: `objective` not a finite numeric vector; `A` not a
#'   numeric matrix with `length(objective)` columns or with non-finite
#'   entries; `b` not finite or of length other than `nrow(A)`; `dir` not
#'   among the three directions; a constraint set that is infeasible already
#'   for \eqn{x \in [0,1]^n} (its LP relaxation has no solution). A set that
#'   is LP-feasible but has no binary point is reported by [mip_sample()].
#' @references Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling
#'   with integer linear programs and random perturbations. AAAI.
#' @seealso [mip_sample()]
#' @examples
#' # choose at most 2 of 5 items, log-weights c
#' m <- mip_model(c(1, 0.5, -0.2, 0.8, 0), A = matrix(1, 1, 5), b = 2)
#' m
#' set.seed(1)
#' s <- mip_sample(m, 20, progress = FALSE)
#' table(rowSums(s$states))
#' @export
mip_model <- function(objective, A = NULL, b = NULL, dir = "<=", offset = 0) {
  check_finite_numeric(objective, "objective")
  n <- length(objective)
  if (n < 1L) stop_no_call("`objective` must have length >= 1 (one entry per binary variable).")
  offset <- check_number(offset, "offset")
  if (is.null(A)) {
    if (!is.null(b)) stop_no_call("`b` is given but `A` is NULL; give both or neither.")
    A <- matrix(0, 0L, n)
    b <- numeric(0)
  }
  if (is.data.frame(A)) A <- as.matrix(A)
  if (is.null(dim(A)) && is.numeric(A) && length(A) == n) A <- matrix(A, 1L)
  if (!is.matrix(A) || !is.numeric(A))
    stop_no_call(sprintf("`A` must be a numeric matrix with %d columns, not %s.", n, describe(A)))
  if (ncol(A) != n)
    stop_no_call(sprintf("`A` must have %d columns (length(objective)), not %d.", n, ncol(A)))
  if (anyNA(A) || any(!is.finite(A)))
    stop_no_call("`A` must not contain NA, NaN or infinite values.")
  if (is.null(b)) stop_no_call("`b` is missing: give one right-hand side per row of `A`.")
  check_finite_numeric(b, "b", len = nrow(A))
  if (!is.character(dir) || length(dir) < 1L || anyNA(dir) || !all(dir %in% c("<=", ">=", "==")))
    stop_no_call(sprintf("`dir` must hold \"<=\", \">=\" or \"==\", not %s.", describe(dir)))
  dir <- rep_len(dir, nrow(A))
  rlo <- ifelse(dir == "<=", -Inf, b)
  rhi <- ifelse(dir == ">=", Inf, b)
  storage.mode(A) <- "double"
  obj <- as.double(objective)
  names(obj) <- names(objective)
  m <- structure(list(objective = obj, A = A, rlo = as.double(rlo), rhi = as.double(rhi),
                      offset = offset, n = n), class = "logz_mip_model")
  if (nrow(A) && .Call(C_mip_has_glpk)) {   # without GLPK: mip_sample() reports it
    root <- mip_lp_bounds(mip_problem(m), matrix(NA_integer_, 1L, n))
    if (root == -Inf)
      stop_no_call(sprintf(paste0("The constraints `A` x `dir` `b` are infeasible: no x in [0, 1]^%d ",
                                  "satisfies all %d rows (the LP relaxation has no solution)."),
                           n, nrow(A)))
  }
  m
}

#' @export
print.logz_mip_model <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("<logz_mip_model> %d binary variables, %d linear constraints\n", x$n, nrow(x$A)))
  cat(sprintf("  objective in [%.3g, %.3g]; offset %g\n", min(x$objective), max(x$objective),
              x$offset))
  invisible(x)
}

# ---- the sampler -------------------------------------------------------------------

#' GumbelMIP: exact and anytime samples by perturbed branch and bound
#'
#' `mip_sample()` draws `n` independent samples from a discrete model by
#' Algorithm 1 of Kim, Sabharwal & Ermon (2016): a best-first branch and
#' bound on the binary variables in which every open sub-problem \eqn{P}
#' carries the maximum \eqn{\gamma_P} of the (implicit) i.i.d. Gumbel
#' perturbations of all its configurations, tied to one configuration
#' \eqn{\sigma}. The root gets \eqn{\gamma \sim \mathrm{Gumbel}(n \log 2)}
#' and a uniform \eqn{\sigma}. A popped sub-problem is bounded (LP relaxation
#' or the simple bound); it is discarded when infeasible or when bound +
#' \eqn{\gamma_P \le v^*}. Otherwise it is split on a variable \eqn{x}: the
#' child with \eqn{x = \sigma_x} inherits \eqn{(\gamma_P, \sigma)}
#' (perturbation inheritance), the other gets \eqn{\tilde\gamma \sim
#' \mathrm{TruncGumbel}((|X_P| - 1)\log 2, \gamma_P)} and a fresh
#' \eqn{\tilde\sigma} (\eqn{\sigma} with \eqn{x} flipped and the other free
#' variables redrawn uniformly), which becomes the incumbent if
#' \eqn{v(\tilde\sigma) + \tilde\gamma > v^*}. Branching is also forced when
#' the LP solution is integral (an integral LP solution is not tied to a
#' Gumbel value). When no open sub-problem can beat \eqn{v^*}, the incumbent
#' is an exact sample and \eqn{v^*} a draw from \eqn{\mathrm{Gumbel}(\log Z)}.
#'
#' **LP bound.** The local-polytope relaxation (paper, eq. 4), solved by GNU
#' GLPK's dual simplex. One LP is kept per call and warm-started: a
#' sub-problem only changes the bounds of the columns it fixes, and the dual
#' simplex restarts from the previous optimal basis. `encoding = "local"` uses
#' node indicators and four indicators per edge with the marginalisation
#' equalities; `"compact"` (default) one column \eqn{y_{ij} = s_i s_j} per
#' edge linearised by \eqn{y \le s_i, y \le s_j} or \eqn{y \ge s_i + s_j - 1}
#' (the paper's RBM encoding; for binary pairwise models this is the same
#' polytope projected, so the same bound with fewer rows and columns).
#' **Simple bound** (`bound = "simple"`, the paper's A*-like baseline): every
#' factor's largest value consistent with the fixed variables, summed.
#'
#' **Early stopping.** With `time_limit` or `node_limit`, a search may stop
#' with open sub-problems: the incumbent is then an approximate sample
#' (`exact = FALSE`), the best in the explored part of the space. `upper` is
#' \eqn{U = \max(v^*, \max_{Q \in L} LP(Q) + \gamma_Q)} (Theorem 2; for
#' sub-problems not yet bounded, their parent's bound, which is larger), and
#' `rank_bound` Proposition 1's bound on the expected rank of the sample
#' among all perturbed configurations (1 when exact). See [log_z_bounds()].
#'
#' **LP solver.** `lp_solver = "glpk"` solves the LP with GLPK. For
#' attractive (supermodular) pairwise models -- every edge table with
#' \eqn{t_{11} - t_{10} - t_{01} + t_{00} \ge 0}, e.g. Ising models with
#' non-negative weights -- the local-polytope LP is tight and its optimum
#' equals the maximum of the sub-problem, which a minimum s-t cut computes
#' exactly (Kolmogorov & Zabih 2004); `"cut"` does that (Dinic's max-flow),
#' with the cut's source side as the (integral) LP solution. It is the same
#' bound, much faster. `"auto"` (default) uses the cut for attractive
#' pairwise models and GLPK otherwise.
#'
#' **Threads.** Independent samples run in parallel (OpenMP, one search per
#' thread) when no GLPK call is needed: with the simple bound or the min-cut
#' LP. Each sample draws from its own L'Ecuyer-CMRG stream seeded from R's
#' RNG, so the results are identical for any `threads`. With GLPK
#' (`lp_solver = "glpk"`, or `"auto"` on non-attractive models) `threads`
#' must be 1: GLPK keeps its state in a global environment that is
#' thread-local only when GLPK was built with TLS, and its error handling (a
#' hook that frees that environment and `longjmp`s out) cannot cross OpenMP
#' threads. Parallel GLPK searches would need one problem and environment per
#' thread (a TLS build, checked with `glp_config("TLS")`) and a per-thread
#' error flag instead of the `longjmp`. Parallel search within one sample
#' (the paper's 48 CPLEX threads) is not implemented.
#'
#' **Primal heuristic** (`heuristic = "dive"`; not in the paper, whose solver
#' brings its own). After the root's LP bound, the search dives: it rounds
#' the LP solution, improves it by ICM (single flips that raise
#' \eqn{v}) to a target \eqn{h}, and splits the root's sub-problems along
#' \eqn{h} down to the leaf \eqn{\{h\}}, pushing every sibling. The leaf
#' carries \eqn{h}'s own Gumbel, so the incumbent \eqn{v^*} starts at
#' \eqn{v(h) + \gamma_h} instead of a random configuration's value: better
#' anytime samples and Theorem 2 lower bounds, more pruning. The dive only
#' chooses where to split, from what is known so far, so the top-down Gumbel
#' process and the exact sample's distribution are unchanged (tested by
#' chi-square against enumeration); the random draws differ from
#' `heuristic = "none"`, so do individual samples under the same seed.
#'
#' **Interrupts and time limits.** The search checks for user interrupts
#' (and R's [setTimeLimit()]) every 0.1 s on R's thread, also while the other
#' threads search and between slices of 0.2 s of one GLPK simplex call, and
#' then stops every thread with an error.
#'
#' **GLPK is optional** at build time (see [logz_has_glpk()]): without it the
#' LP bound of models that are not attractive stops with an error saying how
#' to get GLPK; the min-cut LP and the simple bound need no GLPK.
#'
#' **Scale.** Values \eqn{v(x) + \gamma} are compared in double precision, so
#' log-weights whose factor-wise largest magnitudes sum to more than
#' \eqn{10^{12}} (or overflow) are an error rather than silently wrong
#' frequencies. A constant offset is searched without (any size), and the
#' constraint rows of a [mip_model()] are rescaled to a largest coefficient
#' of 1 (any size).
#'
#' @param model an [ising] model, an [rbm] (visible and hidden units jointly)
#'   or a [mip_model()].
#' @param n number of independent samples (whole number >= 1).
#' @param time_limit seconds per sample (`Inf`: run to exactness).
#' @param node_limit search nodes (bounded sub-problems) per sample.
#' @param bound `"lp"` (LP relaxation) or `"simple"` (per-factor maxima).
#' @param node_selection `"best_first"` (largest bound + Gumbel first) or
#'   `"depth_first"` (the inheriting child first).
#' @param branching `"auto"` (most fractional LP variable; if the LP solution
#'   is integral, the free variable where it differs from \eqn{\sigma}),
#'   `"most_fractional"` (then the first free variable in the static order),
#'   or `"first"` (the static order: largest total interaction first; also
#'   used with the simple bound).
#' @param encoding LP encoding for pairwise models: `"compact"` or `"local"`
#'   (GLPK only).
#' @param lp_solver `"auto"`, `"glpk"` or `"cut"` (see LP solver).
#' @param heuristic `"dive"` (default) or `"none"`: the primal heuristic
#'   (see Primal heuristic).
#' @param threads number of threads for independent samples (see Threads).
#' @param progress show a progress bar over samples.
#' @param workers `NULL` or the number of pieces to split the `n` samples
#'   into, run through the active [future::plan()] and stacked (see
#'   [scale_out]).
#' @return An object of class `c("logz_mip", "logz_samples", "logz_estimate")`:
#' \describe{
#'   \item{`states`}{`n x p` matrix of samples in the model's values (spins
#'     for Ising models, 0/1 otherwise).}
#'   \item{`value`}{\eqn{v^*} per sample (a Gumbel(log Z) draw when exact).}
#'   \item{`upper`}{\eqn{U} per sample (\eqn{= v^*} when exact).}
#'   \item{`exact`}{logical per sample.}
#'   \item{`rank_bound`}{Proposition 1's bound on \eqn{E[k]} per sample.}
#'   \item{`nodes`, `lp_solves`, `sample_time`}{per sample; `sample_time` in
#'     seconds.}
#'   \item{`log_z`, `se`}{`mean(value) - 0.5772` and \eqn{\pi/\sqrt{6n}} when
#'     all samples are exact, else `NA` (use [log_z_bounds()]).}
#'   \item{`trace`}{data frame (`sample`, `nodes`, `time`, `value`, `upper`)
#'     at nodes 1, 2, 4, ... and at the end of each search.}
#'   \item{`method`, `time`, `counts`, `diagnostics`, `seed`, `call`,
#'     `model`}{as for every [logz_estimate].}
#' }
#' @section Errors: `model` not a supported model; `n`, `threads` not whole
#'   numbers (`threads` other than 1); `time_limit`, `node_limit` not
#'   positive; unknown `bound`, `node_selection`, `branching`, `encoding`; a
#'   mip_model with no feasible binary point; log-weights too large (see
#'   Scale); the LP bound of a model that is not attractive when logz was
#'   built without GLPK; GLPK failures (raised as R errors with GLPK's
#'   message; R does not abort); an interrupt or time limit.
#' @references Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling
#'   with integer linear programs and random perturbations. AAAI
#'   (Algorithm 1, Proposition 1, Theorem 2). Wainwright, M. J. and Jordan,
#'   M. I. (2008). Graphical models, exponential families, and variational
#'   inference (the local polytope). Kolmogorov, V. and Zabih, R. (2004).
#'   What energy functions can be minimized via graph cuts? IEEE TPAMI 26.
#'   Makhorin, A. GNU Linear Programming Kit.
#' @seealso [log_z_bounds()], [perturb_and_map()], [rejection_sample()],
#'   [gibbs_sample()], [exact_marginals()]
#' @examples
#' set.seed(1)
#' m <- ising_clique(8, coupling = 0.5, field = 0.5)
#' s <- mip_sample(m, 50, progress = FALSE)
#' s
#' colMeans(s$states == 1)          # compare: exact_marginals(m)
#' exact_log_z(m)
#' # anytime: stop each search after 3 nodes
#' a <- mip_sample(ising_clique(12, coupling = 0.5), 20, node_limit = 3, progress = FALSE)
#' log_z_bounds(a)
#' @export
mip_sample <- function(model, n = 1L, time_limit = Inf, node_limit = Inf,
                       bound = c("lp", "simple"), node_selection = c("best_first", "depth_first"),
                       branching = c("auto", "most_fractional", "first"),
                       encoding = c("compact", "local"), lp_solver = c("auto", "glpk", "cut"),
                       heuristic = c("dive", "none"), threads = 1L, progress = interactive(),
                       workers = NULL) {
  call <- match.call()
  p <- mip_problem(model)
  n <- check_count(n, "n")
  time_limit <- check_limit(time_limit, "time_limit")
  node_limit <- check_limit(node_limit, "node_limit")
  bound <- mip_choice(bound, "bound")
  node_selection <- mip_choice(node_selection, "node_selection")
  branching <- mip_choice(branching, "branching")
  encoding <- mip_choice(encoding, "encoding")
  lp_solver <- mip_choice(lp_solver, "lp_solver")
  heuristic <- mip_choice(heuristic, "heuristic")
  attractive <- mip_attractive(p)
  if (lp_solver == "cut" && !attractive)
    stop_no_call(paste0("`lp_solver = \"cut\"` needs an attractive (supermodular) pairwise model: ",
                        "every edge's t11 - t10 - t01 + t00 >= 0 (Ising: all weights >= 0)."))
  use_cut <- bound == "lp" && (lp_solver == "cut" || (lp_solver == "auto" && attractive))
  threads <- check_threads(threads)
  if (threads != 1L && bound == "lp" && !use_cut)
    stop_no_call(sprintf(paste0("`threads` must be 1 when GLPK solves the LPs, not %d: GLPK's global ",
                                "environment and its longjmp error trap are not thread-safe (see ",
                                "?mip_sample, Threads). Threads work with the min-cut LP ",
                                "(attractive models) and the simple bound."), threads))
  check_flag(progress, "progress")
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  control <- list(bound_lp = as.integer(bound == "lp"),
                  best_first = as.integer(node_selection == "best_first"),
                  branching = match(branching, c("auto", "most_fractional", "first")) - 1L,
                  perturb = 1L, node_limit = node_limit, time_limit = time_limit, cut = use_cut,
                  threads = threads, dive = heuristic == "dive")
  pieces <- resolve_pieces(workers, n)
  res <- if (pieces > 1L) {
    parts <- run_pieces(n, pieces, function(size, i) mip_run(p, size, control, encoding, FALSE),
                        progress)
    mip_merge_runs(parts)
  } else mip_run(p, n, control, encoding, progress)
  if (any(res$value == -Inf))
    stop_no_call("`model` has no feasible binary point: every configuration violates the constraints.")
  out <- new_mip_samples(p, res, model, method = sprintf("GumbelMIP (%s)", if (bound == "simple")
    "simple bound" else if (use_cut) "LP bound by min cut" else "LP bound by GLPK"),
    time = proc.time()[["elapsed"]] - t0, seed = seed, call = call)
  if (pieces > 1L) out$pieces <- pieces
  out
}

# match.arg() with an error naming the argument.
mip_choice <- function(x, name) {
  choices <- eval(formals(sys.function(sys.parent()))[[name]])
  if (identical(x, choices)) return(choices[1])
  if (!is.character(x) || length(x) != 1L || is.na(x) || !x %in% choices)
    stop_no_call(sprintf("`%s` must be one of %s, not %s.", name,
                         paste0('"', choices, '"', collapse = ", "), describe(x)))
  x
}

check_limit <- function(x, name) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || x <= 0)
    stop_no_call(sprintf("`%s` must be a positive number or Inf, not %s.", name, describe(x)))
  as.double(x)
}

# Run the engine over n samples, in chunks (progress, interrupts); returns the
# C result with the states as an n x p 0/1 matrix.
mip_run <- function(p, n, control, encoding = "compact", progress = FALSE, selftest = FALSE,
                    order = mip_order(p)) {
  c0 <- p$c0                # searched without the constant, added back at the end
  p$c0 <- 0
  cm <- mip_c_model(p)
  if (is.null(control$cut)) control$cut <- control$bound_lp == 1L && mip_attractive(p)
  control$cut <- as.integer(control$cut)
  if (control$bound_lp && !control$cut) need_glpk(glpk_what(p, control$perturb))
  lp <- if (control$bound_lp && !control$cut) mip_lp(p, encoding) else NULL
  control$order <- as.integer(order)
  control$selftest <- as.integer(selftest)
  control$trace_cap <- 64L
  if (is.null(control$threads)) control$threads <- 1L
  control$dive <- as.integer(if (is.null(control$dive)) TRUE else control$dive)
  control$threads <- as.integer(control$threads)
  streams <- .Call(C_rng_streams, n)
  # chunks for the progress bar, each a multiple of the threads
  chunk <- control$threads * max(1L, ceiling(n / (50 * control$threads)))
  starts <- seq(1L, n, by = chunk)
  pb <- progress_bar(progress && length(starts) > 1L, n)
  on.exit(pb$close())
  parts <- vector("list", length(starts))
  for (k in seq_along(starts)) {
    idx <- starts[k]:min(n, starts[k] + chunk - 1L)
    r <- .Call(C_mip_sample, cm, lp, streams[, idx, drop = FALSE], control)
    tr <- r$trace[, seq_len(r$ntrace), drop = FALSE]
    tr[1, ] <- tr[1, ] + starts[k] - 1
    r$trace <- tr
    parts[[k]] <- r
    pb$update(max(idx))
  }
  cat_field <- function(f) unlist(lapply(parts, `[[`, f), use.names = FALSE)
  tr <- do.call(cbind, lapply(parts, `[[`, "trace"))
  tr[4:5, ] <- tr[4:5, ] + c0
  list(states = t(do.call(cbind, lapply(parts, `[[`, "states"))), value = cat_field("value") + c0,
       upper = cat_field("upper") + c0, exact = cat_field("exact"),
       rank_bound = cat_field("rank_bound"), nodes = cat_field("nodes"),
       lp_solves = cat_field("lp_solves"), lp_failures = cat_field("lp_failures"),
       time = cat_field("time"), trace = tr)
}

# What needs GLPK, for need_glpk()'s message.
glpk_what <- function(p, perturb = 1L) {
  sprintf("The LP bound (`bound = \"lp\"`) of %s on %s", if (perturb) "mip_sample()" else
    "a MAP search", if (p$kind == 1L) "a mip_model()" else "a model that is not attractive")
}

# Stack the engine results of pieces run in sequence (see scale_out): the
# samples in piece order, the trace's sample indices shifted.
mip_merge_runs <- function(parts) {
  offset <- cumsum(c(0, vapply(parts, function(r) length(r$value), numeric(1))))
  for (i in seq_along(parts)) parts[[i]]$trace[1, ] <- parts[[i]]$trace[1, ] + offset[i]
  out <- lapply(setdiff(names(parts[[1]]), c("states", "trace")), function(f)
    unlist(lapply(parts, `[[`, f), use.names = FALSE))
  names(out) <- setdiff(names(parts[[1]]), c("states", "trace"))
  c(out, list(states = do.call(rbind, lapply(parts, `[[`, "states")),
              trace = do.call(cbind, lapply(parts, `[[`, "trace"))))
}

mip_states <- function(p, S) {
  X <- p$values[1] + S * (p$values[2] - p$values[1])
  storage.mode(X) <- if (all(p$values == round(p$values))) "integer" else "double"
  colnames(X) <- if (!is.null(p$labels)) p$labels else paste0("x", seq_len(p$n))
  X
}

new_mip_samples <- function(p, res, model, method, time, seed, call, subclass = "logz_mip") {
  n <- length(res$value)
  exact <- as.logical(res$exact)
  all_exact <- all(exact)
  tr <- res$trace
  trace <- data.frame(sample = as.integer(tr[1, ]), nodes = tr[2, ], time = tr[3, ],
                      value = tr[4, ], upper = tr[5, ])
  diag <- data.frame(sample = seq_len(n), value = res$value, upper = res$upper, exact = exact,
                     rank_bound = res$rank_bound, nodes = res$nodes, lp_solves = res$lp_solves,
                     time = res$time)
  x <- list(states = mip_states(p, res$states), value = res$value, upper = res$upper,
            exact = exact, rank_bound = res$rank_bound, nodes = res$nodes,
            lp_solves = res$lp_solves, sample_time = res$time,
            log_z = if (all_exact) mean(res$value) - euler_gamma else NA_real_,
            se = if (all_exact) pi / sqrt(6 * n) else NA_real_,
            method = method, time = time,
            counts = c(samples = n, exact = sum(exact), nodes = sum(res$nodes),
                       lp_solves = sum(res$lp_solves), lp_failures = sum(res$lp_failures)),
            diagnostics = diag, trace = trace, seed = seed, call = call, model = model,
            se_note = if (!all_exact) "not all samples exact; log Z is only bounded (log_z_bounds())",
            flags = if (!all_exact) sprintf("%d of %d samples not exact within the time/node limit",
                                            n - sum(exact), n))
  warn_unreliable(new_logz_estimate(x, c(subclass, "logz_samples")))
}

#' @rdname mip_sample
#' @param x,object a `logz_mip` result.
#' @param type for `plot()`: `"bounds"` (the anytime \eqn{v^*} and \eqn{U}
#'   of every sample against search nodes, from `trace`), `"cost"` (nodes
#'   per sample) or `"estimate"` (see [plot.logz_estimate()]).
#' @param ... ignored by `print()`; graphical parameters for `plot()`.
#' @export
print.logz_mip <- function(x, ...) {
  check_dots_used(...)
  n <- length(x$value)
  cat(sprintf("<logz_mip> %d sample%s by %s; %d exact\n", n, if (n == 1L) "" else "s",
              x$method, sum(x$exact)))
  if (!is.na(x$log_z)) cat(sprintf("  %s\n", format_log_z(x)))
  else {
    b <- log_z_bounds(x)
    cat(sprintf("  not all exact: log Z in [%.4f, %.4f] nats (Theorem 2, delta = %g each side)\n",
                b$lower, b$upper, b$delta))
  }
  cat(sprintf("  per sample: %.1f nodes, %.1f LP solves, %.4f s%s\n", mean(x$nodes),
              mean(x$lp_solves), mean(x$sample_time), pieces_note(x)))
  print_flags(x)
  invisible(x)
}

#' @rdname mip_sample
#' @export
summary.logz_mip <- function(object, ...) {
  check_dots_used(...)
  q <- function(v) c(mean = mean(v), stats::quantile(v, c(0, 0.5, 0.9, 1)))
  structure(list(method = object$method, n = length(object$value), exact = sum(object$exact),
                 log_z = object$log_z, se = object$se, bounds = log_z_bounds(object),
                 cost = rbind(nodes = q(object$nodes), lp_solves = q(object$lp_solves),
                              seconds = q(object$sample_time),
                              rank_bound = q(object$rank_bound)),
                 marginals = colMeans(object$states), time = object$time),
            class = "summary.logz_mip")
}

#' @export
print.summary.logz_mip <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("%s: %d samples, %d exact, %.3f s\n", x$method, x$n, x$exact, x$time))
  if (!is.na(x$log_z)) cat(sprintf("log Z = %.4f nats (se %.4f)\n", x$log_z, x$se))
  print(x$bounds)
  cat("\nper sample:\n")
  print(signif(x$cost, 4))
  invisible(x)
}

#' @rdname mip_sample
#' @export
plot.logz_mip <- function(x, type = c("bounds", "cost", "estimate"), ...) {
  type <- mip_choice(type, "type")
  if (type == "estimate") return(plot.logz_estimate(x, ...))
  if (type == "cost") {
    graphics::plot(seq_along(x$nodes), pmax(x$nodes, 1), log = "y", pch = 16,
                   ylim = c(1, 3 * max(x$nodes, 1)),
                   col = ifelse(x$exact, "black", "red"), xlab = "sample",
                   ylab = "branch-and-bound nodes (log scale)",
                   main = sprintf("%s: search nodes per sample", x$method), ...)
    graphics::legend("topright", c("exact", "stopped early"), pch = 16, col = c("black", "red"),
                     bg = "white", box.col = NA)
    return(invisible(x))
  }
  tr <- x$trace
  ce <- euler_gamma
  rng <- range(c(tr$value, tr$upper)[is.finite(c(tr$value, tr$upper))]) - ce
  graphics::plot(range(pmax(tr$nodes, 1)), rng, type = "n", log = "x",
                 xlab = "branch-and-bound nodes searched (log scale)",
                 ylab = "perturbed objective - C_E (nats)",
                 main = sprintf(paste0("%s: anytime bounds per sample\n",
                                       "best perturbed value v* (lower) and LP bound U (upper)"),
                                x$method), ...)
  for (s in unique(tr$sample)) {
    t <- tr[tr$sample == s, ]
    graphics::lines(pmax(t$nodes, 1), t$value - ce, col = "blue")
    graphics::lines(pmax(t$nodes, 1), pmin(t$upper, rng[2] + ce) - ce, col = "red")
  }
  leg <- c("v* - C_E (lower, one line per sample)", "U - C_E (upper)")
  lcol <- c("blue", "red")
  lty <- c(1, 1)
  if (is.finite(x$log_z)) {
    graphics::abline(h = x$log_z, lty = 2, col = "black")
    leg <- c(leg, sprintf("log Z estimate %.3f", x$log_z))
    lcol <- c(lcol, "black")
    lty <- c(lty, 2)
  }
  graphics::legend("topright", leg, col = lcol, lty = lty,
                   bg = grDevices::adjustcolor("white", 0.8), box.col = NA)
  invisible(x)
}

#' Anytime bounds on log Z from early-stopped GumbelMIP runs (Theorem 2)
#'
#' For \eqn{T} independent runs of [mip_sample()] (each sample is one run),
#' stopped early or not, Theorem 2 of Kim, Sabharwal & Ermon (2016) gives
#' \eqn{E[v^*] \le \log Z + C_E \le E[U]}, and with
#' \eqn{\epsilon = \pi \sqrt{(1/\delta - 1) / (6 T)}} (from
#' \eqn{T \ge (1/\delta - 1)\pi^2/(6\epsilon^2)}, Chebyshev-Cantelli with the
#' Gumbel variance \eqn{\pi^2/6})
#' \deqn{P(\log Z \ge \bar v^* - C_E - \epsilon) \ge 1 - \delta, \quad
#'       P(\log Z \le \bar U - C_E + \epsilon) \ge 1 - \delta.}{P(log Z >= mean(v*) - C_E - eps) >= 1 - delta, P(log Z <= mean(U) - C_E + eps) >= 1 - delta.}
#' Each statement holds separately; both hold together with probability at
#' least \eqn{1 - 2\delta}. The upper bound is finite only when every run
#' ended with a finite \eqn{U}.
#'
#' @param x a `logz_mip` result of [mip_sample()].
#' @param delta failure probability of each one-sided bound, in (0, 1).
#' @return An object of class `logz_mip_bounds`: a list with `lower`,
#'   `upper`, `eps`, `delta`, `T`, `mean_value`, `mean_upper` and `statement`
#'   (a sentence stating the guarantee).
#' @section Errors: `x` not a `logz_mip` result; `delta` outside (0, 1).
#' @references Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling
#'   with integer linear programs and random perturbations. AAAI, Theorem 2.
#' @examples
#' set.seed(2)
#' m <- ising_grid(4, 4, coupling = 0.5)
#' s <- mip_sample(m, 30, node_limit = 4, progress = FALSE)
#' log_z_bounds(s, delta = 0.1)
#' exact_log_z(m)
#' @export
log_z_bounds <- function(x, delta = 0.05) {
  if (!inherits(x, "logz_mip"))
    stop_no_call(sprintf("`x` must be a mip_sample() result, not %s.", describe(x)))
  delta <- check_number(delta, "delta", 0, 1, TRUE, TRUE)
  T <- length(x$value)
  eps <- pi * sqrt((1 / delta - 1) / (6 * T))
  mv <- mean(x$value)
  mu <- mean(x$upper)
  structure(list(lower = mv - euler_gamma - eps, upper = mu - euler_gamma + eps, eps = eps,
                 delta = delta, T = T, mean_value = mv, mean_upper = mu,
                 statement = sprintf(paste0("log Z >= %.4f and log Z <= %.4f, each with ",
                                            "probability >= %g (both >= %g); %d runs, %d exact."),
                                     mv - euler_gamma - eps, mu - euler_gamma + eps, 1 - delta,
                                     max(0, 1 - 2 * delta), T, sum(x$exact))),
            class = "logz_mip_bounds")
}

#' @export
print.logz_mip_bounds <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("<logz_mip_bounds> log Z in [%.4f, %.4f] nats\n", x$lower, x$upper))
  cat(sprintf("  mean v* - C_E = %.4f, mean U - C_E = %.4f, eps = %.4f (T = %d, delta = %g)\n",
              x$mean_value - euler_gamma, x$mean_upper - euler_gamma, x$eps, x$T, x$delta))
  cat(" ", x$statement, "\n")
  invisible(x)
}

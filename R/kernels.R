# The instruction set of the Gibbs kernels (src/kernels_dispatch.c): "avx512",
# "avx2" or "portable", the best this CPU supports, capped by the environment
# variable LOGZ_ISA (read at each call into C, so Sys.setenv() takes effect at
# once). For benchmarks and tests.
kernel_isa <- function() .Call(C_kernel_isa)

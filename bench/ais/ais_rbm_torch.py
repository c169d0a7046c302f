# PyTorch float32 AIS on the RBM that bench/ais/ais_rbm.R writes to a folder:
# the same algorithm as that script's plain-R AIS (all chains at once, hidden
# units summed out, base-rate visible biases). Prints "sweeps wall-seconds CPU-seconds log_z".
# Run by ais_rbm.R: python3 ais_rbm_torch.py <folder> <threads> <chains> <K>
import sys, time
import numpy as np
import torch

folder, threads, M, K = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
torch.set_num_threads(threads)
nv, nh = (int(x) for x in open(folder + "/dims.txt").read().split())
W = torch.from_numpy(np.fromfile(folder + "/W.bin", dtype=np.float64).reshape(nh, nv).T.copy()).float()
a = torch.from_numpy(np.fromfile(folder + "/a.bin", dtype=np.float64)).float()
b = torch.from_numpy(np.fromfile(folder + "/b.bin", dtype=np.float64)).float()
a0 = torch.from_numpy(np.fromfile(folder + "/a0.bin", dtype=np.float64)).float()
betas = torch.linspace(0, 1, K + 1, dtype=torch.float64)
sp = torch.nn.functional.softplus
torch.manual_seed(1)
with torch.no_grad():
    t0 = time.perf_counter()
    c0 = time.process_time()
    V = (torch.rand(M, nv) < torch.sigmoid(a0)).float()
    logw = torch.zeros(M, dtype=torch.float64)
    for k in range(K):
        b0, b1 = float(betas[k]), float(betas[k + 1])
        X = V @ W + b
        logw += ((b1 - b0) * (V @ (a - a0)) + (sp(b1 * X) - sp(b0 * X)).sum(1)).double()
        if k < K - 1:
            H = (torch.rand(M, nh) < torch.sigmoid(b1 * X)).float()
            Y = b1 * (H @ W.T) + (1 - b1) * a0 + b1 * a
            V = (torch.rand(M, nv) < torch.sigmoid(Y)).float()
    el = time.perf_counter() - t0
    cpu = time.process_time() - c0
log_z0 = float(sp(a0.double()).sum()) + nh * np.log(2)
mx = float(logw.max())
print(M * (K - 1), el, cpu, log_z0 + mx + np.log(float(torch.exp(logw - mx).mean())))

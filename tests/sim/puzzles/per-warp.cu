    int* mine = s_hist + warpId * BINS;
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&mine[data[i]], 1);

    __syncthreads();          // all counts complete before merging

    // Merge: one thread per bin sums the warps' copies into warp 0's copy.
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        int sum = s_hist[b];
        for (int w = 1; w < WARPS; ++w)
            sum += s_hist[w * BINS + b];
        s_hist[b] = sum;
    }

    int* mine = s_hist + warpId * BINS;
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&mine[data[i]], 1);

    __syncthreads();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        int sum = s_hist[b];
        for (int w = 0; w < WARPS; ++w)   // WRONG: from 0, so warp 0's copy counts twice
            sum += s_hist[w * BINS + b];
        s_hist[b] = sum;
    }

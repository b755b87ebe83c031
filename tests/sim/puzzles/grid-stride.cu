    const int stride = gridDim.x * blockDim.x;    // total threads in grid
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        sum += in[i];                              // coalesced within each pass

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
        sum += in[i];                 // WRONG: steps by one block, so blocks overlap

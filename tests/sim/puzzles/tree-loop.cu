    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();               // make all writes visible
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }

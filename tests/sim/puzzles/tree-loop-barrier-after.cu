    // WRONG: the barrier at the end of each level, none between the load and the first level,
    // so level 0 reads s[t + stride] before thread t + stride has loaded it.
    for (int stride = TILE / 2; stride > 0; stride >>= 1)
    {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }

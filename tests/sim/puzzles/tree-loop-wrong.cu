    // WRONG for this puzzle: the interleaved tree (neighbours first), not the chapter's.
    for (int stride = 1; stride < TILE; stride <<= 1)
    {
        __syncthreads();
        if (threadIdx.x % (2 * stride) == 0)
            s[threadIdx.x] += s[threadIdx.x + stride];
    }

    for (int stride = 1; stride < n; stride <<= 1)
    {
        __syncthreads();
        const int t = (threadIdx.x + 1) * 2 * stride - 1;
        if (t < n)
            s[t] += s[t - 1];         // WRONG: the neighbour, not the left child
    }

    if (threadIdx.x == 0) s[n - 1] = 0.0f;
    for (int stride = n / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        const int t = (threadIdx.x + 1) * 2 * stride - 1;
        if (t < n)
        {
            s[t] = s[t] + s[t - stride];
            s[t - stride] = s[t];     // WRONG: the carry was overwritten a line ago
        }
    }
    __syncthreads();

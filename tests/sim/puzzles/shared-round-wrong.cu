    s[warpId] = sum;                         // WRONG (Exercise 2): every lane writes
    __syncthreads();
    if (warpId == 0)
    {
        const float v = (lane < WARPS) ? s[lane] : 0.0f;
        sum = warpReduce(v);
        if (lane == 0) out[blockIdx.x] = sum;
    }

    if (lane == 0) s[warpId] = sum;          // each warp writes ONE value
    __syncthreads();                         // the ONLY barrier per block
    if (warpId == 0)
    {
        const float v = (lane < WARPS) ? s[lane] : 0.0f;
        sum = warpReduce(v);
        if (lane == 0) out[blockIdx.x] = sum;
    }

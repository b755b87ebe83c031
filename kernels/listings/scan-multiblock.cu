// §8.7 "Larger arrays": block scans, a scan of the block totals, carries added back.
// scanBlock is §8.7's upsweep / clear-root / downsweep over one block's tile.
__global__ void scanBlocks(const float* in, float* out, float* totals, int n)
{
    __shared__ float s[TILE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;                          // @load
    // Upsweep, clear the root, downsweep; returns the upsweep's root, kept before clear-root.
    const float total = scanBlock(s);                                 // @upsweep,clear-root,downsweep
    out[i] = s[threadIdx.x];
    if (threadIdx.x == 0)
        totals[blockIdx.x] = total;                                   // @block-total
}

// carries[b] is the exclusive scan of the block totals: the sum of every block before b.
__global__ void addCarries(float* out, const float* carries)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = out[i] + carries[blockIdx.x];                            // @add-carries
}

// The host recurses until one block holds all the totals:
//     scanBlocks<<<G, TILE>>>(in, out, totals, n);
//     scan(totals, carries, G);                // itself scanBlocks (+ addCarries)
//     addCarries<<<G, TILE>>>(out, carries);

// Puzzle 6 (§8.7): the Blelloch scan's upsweep.
// Exclusive scan of a BLOCK's data, in place in shared memory (blockDim.x a power of two).
__device__ void scanBlock(float* s)
{
    const int n = blockDim.x;

    // --- Phase 1: upsweep (tree reduction, storing internal nodes) --------
    // Your code here. After level k, s[i] holds the sum of the 2^(k+1) elements ending at i:
    // at each level, the right child t of each pair adds its left child t - stride.

    // --- Phase 2: downsweep (propagate carries back down) -----------------
    if (threadIdx.x == 0) s[n - 1] = 0.0f;
    for (int stride = n / 2; stride > 0; stride >>= 1)
    {
        __syncthreads();
        const int t = (threadIdx.x + 1) * 2 * stride - 1;   // right child
        if (t < n)
        {
            const float carry = s[t];            // sum before this pair
            s[t] = carry + s[t - stride];        // right child: carry + left sum
            s[t - stride] = carry;               // left child: just the carry
        }
    }
    __syncthreads();
}

__global__ void scanBlelloch(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    s[threadIdx.x] = (threadIdx.x < n) ? in[threadIdx.x] : 0.0f;
    scanBlock(s);
    if (threadIdx.x < n) out[threadIdx.x] = s[threadIdx.x];
}

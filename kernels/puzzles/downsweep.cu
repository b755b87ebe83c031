// Puzzle 7 (§8.7): the Blelloch scan's downsweep.
// Exclusive scan of a BLOCK's data, in place in shared memory (blockDim.x a power of two).
// After the call, s[0] = 0 and s[i] = a_0 + ... + a_{i-1}.
__device__ void scanBlock(float* s)
{
    const int n = blockDim.x;

    // --- Phase 1: upsweep (tree reduction, storing internal nodes) --------
    for (int stride = 1; stride < n; stride <<= 1)
    {
        __syncthreads();
        const int t = (threadIdx.x + 1) * 2 * stride - 1;   // right child
        if (t < n)
            s[t] += s[t - stride];                          // parent = sum
    }

    // --- Phase 2: downsweep (propagate carries back down) -----------------
    // Your code here: clear the root's carry, then walk the tree top-down: the left child
    // inherits its pair's carry, the right child gets carry + the left subtree's sum. Every
    // value a thread reads must be complete when it reads it.
}

__global__ void scanBlelloch(const float* in, float* out, int n)
{
    __shared__ float s[TILE];
    s[threadIdx.x] = (threadIdx.x < n) ? in[threadIdx.x] : 0.0f;
    scanBlock(s);
    if (threadIdx.x < n) out[threadIdx.x] = s[threadIdx.x];
}

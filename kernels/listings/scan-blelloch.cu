//@about §8.7's scanBlock, as the chapter writes it (note its comment on the block total),
//@about inside pplab's one-block kernel scanBlelloch; with --inclusive pplab keeps the
//@about block total and shifts the result by one.
//@chapter scan-block
// Exclusive scan of a BLOCK's data, in place in shared memory.
// Assumes blockDim.x is a power of two. After the call,
//   s[0] = 0, s[i] = a_0 + ... + a_{i-1}  (exclusive prefix sums)
// The block total ends in s[blockDim.x - 1].                         // @note:block-total
__device__ void scanBlock(float* s)
{
    const int n = blockDim.x;

    // --- Phase 1: upsweep (tree reduction, storing internal nodes) --------
    // After level k, s[i] holds the sum of the 2^(k+1) elements ending at i.
    for (int stride = 1; stride < n; stride <<= 1)                    // @upsweep
    {
        __syncthreads();                                              // @upsweep
        const int t = (threadIdx.x + 1) * 2 * stride - 1;   // right child // @upsweep
        if (t < n)                                                    // @upsweep
            s[t] += s[t - stride];                          // parent = sum // @upsweep
    }

    // --- Phase 2: downsweep (propagate carries back down) -----------------
    // First, the root's carry is the identity for addition: the sum of the
    // (empty) sequence before the whole array.
    if (threadIdx.x == 0) s[n] = s[n - 1];      // pplab: keep the block total // @clear-root,only:inclusive
    if (threadIdx.x == 0) s[n - 1] = 0.0f;                            // @clear-root

    // Walk the tree top-down. At each level, the pair rooted at right child
    // t (left child t - stride) receives its CARRY - the sum of everything
    // before its subtree, which the parent level stored in s[t]:
    //   - the left child inherits the carry unchanged;
    //   - the right child gets carry + (its old value, the left subtree sum).
    // Inductively every slot ends up holding the sum of the elements before
    // it: the exclusive prefix.
    for (int stride = n / 2; stride > 0; stride >>= 1)                // @downsweep
    {
        __syncthreads();                                              // @downsweep
        const int t = (threadIdx.x + 1) * 2 * stride - 1;   // right child // @downsweep
        if (t < n)                                                    // @downsweep
        {
            const float carry = s[t];            // sum before this pair // @downsweep
            s[t] = carry + s[t - stride];        // right child: carry + left sum // @downsweep
            s[t - stride] = carry;               // left child: just the carry // @downsweep
        }
    }
    __syncthreads();                                                  // @downsweep,inclusive-shift,unless:no-final-sync
}
//@end-chapter

// pplab's kernel: one block scans its n <= TILE elements.
__global__ void scanBlelloch(const float* in, float* out, int n)
{
    __shared__ float s[TILE + 1];   // the tile, and the block total for --inclusive
    s[threadIdx.x] = (threadIdx.x < n) ? in[threadIdx.x] : 0.0f;      // @load
    scanBlock(s);
    // --inclusive: every slot takes its right neighbour's sum; the last, the total. // @only:inclusive
    const float v = threadIdx.x + 1 < TILE ? s[threadIdx.x + 1] : s[TILE]; // @inclusive-shift,only:inclusive
    __syncthreads();   // every thread reads before any thread overwrites // @inclusive-shift,only:inclusive
    s[threadIdx.x] = v;                                               // @inclusive-shift,only:inclusive
    if (threadIdx.x < n) out[threadIdx.x] = s[threadIdx.x];
}

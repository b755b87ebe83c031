//@about Not in the chapter: pplab's scan of arrays larger than a block, the two-level scheme
//@about §8.7 mentions. Each block runs §8.7's scanBlock, with one pplab line that keeps the
//@about block total (see the chapter's comment on it); the block totals are scanned the same
//@about way, recursively, and added back as carries.
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
    if (threadIdx.x == 0) s[n] = s[n - 1];      // pplab: keep the block total // @clear-root,added
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
    __syncthreads();                                                  // @downsweep,inclusive-shift
}
//@end-chapter

// inclusive: the user's array with --inclusive. The host passes false for the block totals:
// their scan must be exclusive, so that carries[b] sums the blocks before b and not b itself.
__global__ void scanBlocks(const float* in, float* out, float* totals, int n, bool inclusive)
{
    __shared__ float s[TILE + 1];   // the tile, and the block total
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;                          // @load
    scanBlock(s);
    if (inclusive) {   // shift by one; the last slot takes the total // @only:inclusive
        const float v = threadIdx.x + 1 < TILE ? s[threadIdx.x + 1] : s[TILE]; // @inclusive-shift,only:inclusive
        __syncthreads();   // every thread reads before any overwrites // @inclusive-shift,only:inclusive
        s[threadIdx.x] = v;                                           // @inclusive-shift,only:inclusive
    }                                                                 // @only:inclusive
    out[i] = s[threadIdx.x];
    if (totals != nullptr && threadIdx.x == 0)   // more than one block at this level
        totals[blockIdx.x] = s[TILE];   // the upsweep's root, kept by scanBlock // @block-total
}

// carries[b] is the exclusive scan of the block totals: the sum of every block before b.
__global__ void addCarries(float* out, const float* carries)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = out[i] + carries[blockIdx.x];                            // @add-carries
}

// The host recurses until one block holds all the totals. Neither kernel guards its write of
// out[i]: out holds G * TILE floats (whole tiles, past n), totals G, carries G.
//     scanBlocks<<<G, TILE>>>(in, out, totals, n, inclusive);
//     scan(totals, carries, G);        // scanBlocks again, exclusive (+ addCarries)
//     addCarries<<<G, TILE>>>(out, carries);

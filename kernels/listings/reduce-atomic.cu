// §8.6 "Determinism": the block totals combined with one atomicAdd per block.
// Each block reduces its share as reduceFull does (warp shuffles, one barrier);
// thread 0 then adds the block's total into the single result.
__global__ void reduceAtomic(const float* in, float* out, int n)
{
    __shared__ float s[WARPS];
    const float sum = fullBlock(in, n, s);   // reduceFull's block reduction // @block-total
    if (threadIdx.x == 0)
        atomicAdd(out, sum);                 // arrival order is the hardware's // @atomic-add
}

// Blocks finish in whatever order the scheduler runs them. Float addition is not
// associative, so the last bits of the sum can change from run to run; the tree of
// reduceFull fixes the order, and with it every bit of the result.

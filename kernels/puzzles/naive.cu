// Puzzle 1 (§8.2): one thread does it all.
// Thread 0 adds in[0], in[1], ..., in[n-1], in that order, and writes the sum to out[0].
__global__ void reduceNaive(const float* in, float* out, int n)
{
    // Your code here.
}

// A warp's sum with the shuffle CUDA 9 removed.
__global__ void reduceShuffle(const float* in, float* out, int n)
{
    float val = threadIdx.x < n ? in[threadIdx.x] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1)
        val += __shfl_down(val, offset); // REFUSED CUDA 9 replaced it with __shfl_down_sync
    if (threadIdx.x == 0)
        out[0] = val;
}

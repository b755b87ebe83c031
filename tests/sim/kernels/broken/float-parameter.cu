// The launch's n taken as a float: the kernel's signature is not the chapter's.
__global__ void reduceTree(const float* in, float* out, float n)
{
    if (threadIdx.x < n)
        out[blockIdx.x] = in[threadIdx.x];
}
